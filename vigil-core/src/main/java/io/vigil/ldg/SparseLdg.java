package io.vigil.ldg;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;

/**
 * Sparse LDG (thesis §3.3.3, eqs 3.30–3.32): ℓ directions b<sub>i</sub> ∈ ℝ<sup>d</sup>, each with few non-zero
 * entries, that keep b<sub>i</sub>ᵀZb<sub>i</sub> small for the LDG matrix Z = V − γA of (3.12). Each column solves the
 * DSPCA relaxation of d'Aspremont, El Ghaoui, Jordan and Lanckriet ("A direct formulation for sparse PCA using
 * semidefinite programming", SIAM Review 49(3), 2007) with Z in place of the covariance, in its penalised form
 *
 * <pre>
 *   minimise Tr(Z X) + λ Σ<sub>ij</sub> |X<sub>ij</sub>|   subject to Tr X = 1, X ⪰ 0,
 * </pre>
 *
 * (the Lagrangian form of the constraint 1ᵀ|X|1 ≤ s of (3.32); λ = 0 gives X = b bᵀ with b the smallest eigenvector,
 * the plain LDG column), and takes b as the leading eigenvector of the solution.
 *
 * <p><b>Solver.</b> ADMM (Boyd, Parikh, Chu, Peleato and Eckstein, "Distributed optimization and statistical learning
 * via the alternating direction method of multipliers", Found. Trends Mach. Learn. 3(1), 2011, §3–§4) on the split
 * X = W with f(X) = Tr(ZX) + 𝟙{X ⪰ 0, Tr X = 1} and g(W) = λ‖W‖<sub>1</sub>, scaled dual U:
 *
 * <pre>
 *   X ← Π(W − U − Z/ρ)              Π = projection onto the spectraplex ({@link SpectraplexProjection})
 *   W ← soft(X + U, λ/ρ)            elementwise soft threshold
 *   U ← U + X − W                   (= clip(X + U, ±λ/ρ), so |ρU| ≤ λ at every iterate)
 * </pre>
 *
 * on Z scaled to unit Frobenius norm (λ scaled alike), so that the tolerance is relative to ‖Z‖. It stops when the
 * primal residual ‖X − W‖<sub>F</sub> (against ‖X‖<sub>F</sub> ≤ Tr X = 1) and the dual residual ρ‖W − W<sub>prev</sub>‖<sub>F</sub>
 * (against ‖Z/‖Z‖<sub>F</sub>‖<sub>F</sub> = 1) are both ≤ {@link Params#tolerance()}, or after
 * {@link Params#maxIterations()}; ρ is adapted by the residual-balancing rule of Boyd et al. §3.4.1 (×2 or ÷2 when one
 * residual exceeds ten times the other). Each column starts from X = W = vvᵀ, v the smallest eigenvector of the
 * (deflated) matrix, and from the previous column's ρ (and, with sparse deflation, whose coordinates do not change,
 * its dual U). Because |ρU<sub>ij</sub>| ≤ λ, Y = ρU is feasible for the dual max<sub>|Y<sub>ij</sub>|≤λ</sub>
 * λ<sub>min</sub>(Z + Y), so every column also reports a certified duality gap.
 *
 * <p><b>Deflation</b> for ℓ &gt; 1 columns, both procedures of the thesis ({@link Deflation}).
 */
public final class SparseLdg {

    /**
     * Price μ/‖Z‖<sub>F</sub> of directions outside the training span ({@link #penaliseOutsideSpan}). Measured on CBF
     * (d = 128, n = 30, γ = 0.01, λ = 0.002, training time and non-zeros only): 1 makes every column dense (126 and 128
     * non-zeros); 0.1 keeps 34 and 55 non-zeros in 3 s; 0.01 and below are as slow as no price (28–38 s).
     */
    static final double SPAN_PRICE = 0.1;

    /** Z must be symmetric to within this × max|Z<sub>ij</sub>| (assembly rounding is ~1e-16 relative). */
    static final double SYMMETRY_RTOL = 1e-10;

    private SparseLdg() {}

    /** How the next column is kept away from the ones found (thesis §3.3.3). */
    public enum Deflation {
        /**
         * Z<sub>i+1</sub> = Z<sub>i</sub> + (c − b<sub>i</sub>ᵀZ<sub>i</sub>b<sub>i</sub>) b<sub>i</sub>b<sub>i</sub>ᵀ with c = λ<sub>max</sub>(Z):
         * the thesis's (d'Aspremont's) Z<sub>i+1</sub> = Z<sub>i</sub> − (bᵀZ<sub>i</sub>b)bbᵀ applied to the maximisation
         * form c·I − Z. Columns are not orthogonal but sparser.
         */
        SPARSE,
        /**
         * Z<sub>i+1</sub> = G<sub>i</sub>ᵀZG<sub>i</sub>, G<sub>i</sub> an orthonormal basis of the complement of
         * span(b<sub>1</sub>..b<sub>i</sub>), b<sub>i+1</sub> = G<sub>i</sub>b: BᵀB = I, columns less sparse.
         */
        ORTHONORMAL
    }

    /**
     * What to solve.
     *
     * @param sparsity λ ≥ 0, finite, in the units of Z (the penalty on Σ|X<sub>ij</sub>|); 0 gives plain LDG columns
     * @param deflation how columns after the first are found
     * @param dims ℓ ≥ 1 columns (at most d, checked when Z is known)
     * @param tolerance ADMM stopping tolerance on the primal and dual residuals relative to ‖Z‖, in (0, 0.1]
     * @param maxIterations ADMM iteration cap per column, ≥ 1
     */
    public record Params(double sparsity, Deflation deflation, int dims, double tolerance, int maxIterations) {
        /** Default relative tolerance: support and objective are stable to well below plotting precision. */
        public static final double DEFAULT_TOLERANCE = 1e-5;

        /** Default iteration cap per column. */
        public static final int DEFAULT_MAX_ITERATIONS = 3000;

        /** Validates the ranges documented on the components. */
        public Params {
            if (!(sparsity >= 0) || !Double.isFinite(sparsity)) {
                throw new IllegalArgumentException("sparsity λ must be finite and >= 0, got " + sparsity);
            }
            Objects.requireNonNull(deflation, "deflation");
            if (dims < 1) {
                throw new IllegalArgumentException("sparse LDG needs dims >= 1 columns, got " + dims);
            }
            if (!(tolerance > 0 && tolerance <= 0.1)) {
                throw new IllegalArgumentException("tolerance must lie in (0, 0.1], got " + tolerance);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
            }
        }

        /** λ, deflation and ℓ with the default tolerance and iteration cap. */
        public static Params of(double sparsity, Deflation deflation, int dims) {
            return new Params(sparsity, deflation, dims, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS);
        }
    }

    /**
     * A sparse LDG basis and how it was found. Arrays are per column, in the order found.
     *
     * @param basis B, d×ℓ, unit columns (orthonormal with {@link Deflation#ORTHONORMAL}); sign: largest-magnitude
     *     entry positive
     * @param nonZeros number of non-zero entries of each column
     * @param meanCoherence mean of |b<sub>i</sub>ᵀb<sub>j</sub>| over i ≠ j (thesis Figure 3.7); 0 when ℓ = 1
     * @param maxCoherence max of |b<sub>i</sub>ᵀb<sub>j</sub>| over i ≠ j; 0 when ℓ = 1
     * @param objectives b<sub>i</sub>ᵀZb<sub>i</sub> on the original (undeflated) Z
     * @param sdpObjectives Tr(Z<sub>i</sub>X) + λ‖X‖<sub>1</sub> at the ADMM solution, on the deflated Z<sub>i</sub>
     * @param dualityGaps sdpObjective minus the certified lower bound λ<sub>min</sub>(Z<sub>i</sub> + ρU) (≥ 0 up to
     *     rounding)
     * @param iterations ADMM iterations of each column
     * @param converged whether each column met the tolerance within the iteration cap
     */
    public record Result(
            DMatrixRMaj basis,
            int[] nonZeros,
            double meanCoherence,
            double maxCoherence,
            double[] objectives,
            double[] sdpObjectives,
            double[] dualityGaps,
            int[] iterations,
            boolean[] converged) {
        /** Copies every argument, so a result cannot be changed from outside. */
        public Result {
            basis = basis.copy();
            nonZeros = nonZeros.clone();
            objectives = objectives.clone();
            sdpObjectives = sdpObjectives.clone();
            dualityGaps = dualityGaps.clone();
            iterations = iterations.clone();
            converged = converged.clone();
        }

        /** B (a copy). */
        @Override
        public DMatrixRMaj basis() {
            return basis.copy();
        }

        /** Non-zeros per column (a copy). */
        @Override
        public int[] nonZeros() {
            return nonZeros.clone();
        }

        /** bᵢᵀZbᵢ per column (a copy). */
        @Override
        public double[] objectives() {
            return objectives.clone();
        }

        /** SDP objective per column (a copy). */
        @Override
        public double[] sdpObjectives() {
            return sdpObjectives.clone();
        }

        /** Certified duality gap per column (a copy). */
        @Override
        public double[] dualityGaps() {
            return dualityGaps.clone();
        }

        /** ADMM iterations per column (a copy). */
        @Override
        public int[] iterations() {
            return iterations.clone();
        }

        /** Convergence per column (a copy). */
        @Override
        public boolean[] converged() {
            return converged.clone();
        }

        /** ℓ. */
        public int dims() {
            return basis.numCols;
        }

        /** Whether every column converged. */
        public boolean allConverged() {
            for (boolean c : converged) {
                if (!c) {
                    return false;
                }
            }
            return true;
        }

        /** Column c as a new array. */
        public double[] column(int c) {
            double[] b = new double[basis.numRows];
            for (int i = 0; i < b.length; i++) {
                b[i] = basis.get(i, c);
            }
            return b;
        }
    }

    /**
     * Builds Z = V − γA from training rows ({@link Ldg#ldgMatrix}, the same neighbour sets and V/A as {@link Ldg#fit})
     * and solves {@link #solve} on it with directions outside the training span priced out ({@link
     * #penaliseOutsideSpan}). Memory O(nd + d²); cost per ADMM iteration about one d×d tridiagonalisation.
     *
     * @throws IllegalArgumentException on shape/label errors (naming both sizes), or dims &gt; d
     */
    public static Result fit(double[][] x, int[] y, int numClasses, LdgParams ldg, Params params) {
        Objects.requireNonNull(params, "params");
        int d = Ldg.checkTrainingSet(x, y, numClasses);
        checkDims(params.dims(), d);
        return solve(penaliseOutsideSpan(Ldg.ldgMatrix(x, y, numClasses, ldg), x), params);
    }

    /**
     * Z + μ(I − UUᵀ) with U an orthonormal basis of the centred training rows' span and μ = {@link #SPAN_PRICE} ·
     * ‖Z‖<sub>F</sub>; Z itself when the rows span ℝ<sup>d</sup>. Z = V − γA vanishes outside that span (every Δ of
     * (3.9)–(3.10) is a difference of training rows), so when d ≥ n the relaxation has a null space of dimension
     * ≥ d − n + 1 in which bᵀZb = 0: for a small γ, where Z is nearly positive semidefinite, vectors leaning into it
     * cost almost nothing, the relaxation's minimiser is far from rank one and ADMM crawls (CBF: 27 s against 0.3 s for
     * LDG; Beef did not finish in 15 minutes). Those directions carry no training information and plain LDG never
     * uses them ({@link Ldg} works in the span). The price is not infinite because a sparse column cannot lie in an
     * n-dimensional span of ℝ<sup>d</sup>: it must lean outside it a little, and λ decides how much. λ = 0 still gives
     * LDG's columns whenever their eigenvalues are below μ (they are ≤ 0 whenever γ makes A count).
     */
    static DMatrixRMaj penaliseOutsideSpan(DMatrixRMaj z, double[][] x) {
        int d = z.numRows;
        double[][] xc = Ldg.centred(x, Ldg.mean(x));
        DMatrixRMaj xm = new DMatrixRMaj(xc);
        DMatrixRMaj scatter = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(xm, xm, scatter);
        Kernels.symmetrize(scatter);
        DMatrixRMaj u = Spans.primal(scatter);
        if (u == null) {
            return z;
        }
        double mu = SPAN_PRICE * frobenius(z.data, d * d);
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(-mu, u, u, out);
        for (int i = 0; i < d; i++) {
            out.add(i, i, mu);
        }
        CommonOps_DDRM.addEquals(out, z);
        Kernels.symmetrize(out);
        return out;
    }

    /**
     * As {@link #fit} with {@code relative.sparsity()} read relative to ‖Z‖<sub>F</sub> of Z = V − γA (before the span penalty), so
     * one λ means the same on data of any scale: the penalty is λ‖Z‖<sub>F</sub>·Σ|X<sub>ij</sub>|. This is the
     * {@code --sparsity} of {@code vigil train}.
     */
    public static Result fitRelative(double[][] x, int[] y, int numClasses, LdgParams ldg, Params relative) {
        Objects.requireNonNull(relative, "relative");
        int d = Ldg.checkTrainingSet(x, y, numClasses);
        checkDims(relative.dims(), d);
        DMatrixRMaj z = Ldg.ldgMatrix(x, y, numClasses, ldg);
        double fro = frobenius(z.data, d * d);
        return solve(
                penaliseOutsideSpan(z, x),
                new Params(
                        relative.sparsity() * fro,
                        relative.deflation(),
                        relative.dims(),
                        relative.tolerance(),
                        relative.maxIterations()));
    }

    /**
     * Sparse LDG columns of a given symmetric Z.
     *
     * @param z symmetric d×d, finite; not modified
     * @throws IllegalArgumentException if Z is not square, not finite, not symmetric, or dims &gt; d
     */
    public static Result solve(DMatrixRMaj z, Params params) {
        Objects.requireNonNull(z, "z");
        Objects.requireNonNull(params, "params");
        int d = checkMatrix(z);
        checkDims(params.dims(), d);
        int ell = params.dims();
        double fro = CommonOps_DDRM.elementMaxAbs(z) == 0 ? 0 : frobenius(z.data, d * d);
        double scale = fro > 0 ? fro : 1.0;
        DMatrixRMaj zs = z.copy();
        Kernels.symmetrize(zs);
        CommonOps_DDRM.scale(1.0 / scale, zs);
        double lam = params.sparsity() / scale;

        double[][] cols = new double[ell][];
        int[] nonZeros = new int[ell];
        double[] objectives = new double[ell];
        double[] sdp = new double[ell];
        double[] gaps = new double[ell];
        int[] iterations = new int[ell];
        boolean[] converged = new boolean[ell];

        // Sparse deflation shifts each found direction to the top of the spectrum: c = λ_max(Z).
        double top = params.deflation() == Deflation.SPARSE ? largestEigenvalue(zs) : 0;
        DMatrixRMaj current = zs;
        DMatrixRMaj complement = null;
        DMatrixRMaj warmU = null;
        double rho = 1.0;
        for (int c = 0; c < ell; c++) {
            SparseLdgAdmm.Column col =
                    SparseLdgAdmm.solveColumn(current, lam, params.tolerance(), params.maxIterations(), warmU, rho);
            rho = col.rho;
            double[] b = col.b;
            if (complement != null) {
                b = multiply(complement, b);
                normalise(b);
            }
            fixSign(b);
            cols[c] = b;
            nonZeros[c] = countNonZeros(b);
            objectives[c] = quadratic(z, b);
            sdp[c] = col.objective * scale;
            gaps[c] = col.gap * scale;
            iterations[c] = col.iterations;
            converged[c] = col.converged;
            if (c + 1 == ell) {
                break;
            }
            if (params.deflation() == Deflation.SPARSE) {
                // The thesis writes Z_{i+1} = Z_i − (bᵀZ_i b) bbᵀ for PCA's maximisation, where it moves b's
                // Rayleigh quotient to 0, the bottom of a PSD spectrum, so b is never chosen again. LDG minimises
                // bᵀZb, and 0 may be below (γ > 0) or at (γ = 0, Z = V ⪰ 0) the smallest eigenvalue, so the same
                // formula would make b attractive again. Applying the thesis's formula to the maximisation form
                // c·I − Z, c = λ_max(Z), gives Z_{i+1} = Z_i + (c − bᵀZ_i b) bbᵀ: b's quotient moves to the top.
                DMatrixRMaj next = current.copy();
                double shift = top - quadratic(current, b);
                rankOneUpdate(next, shift, b);
                current = next;
                warmU = col.u;
            } else {
                complement = complementBasis(cols, c + 1, d);
                current = congruence(zs, complement);
                warmU = null;
            }
        }
        DMatrixRMaj basis = new DMatrixRMaj(d, ell);
        for (int c = 0; c < ell; c++) {
            for (int i = 0; i < d; i++) {
                basis.data[i * ell + c] = cols[c][i];
            }
        }
        double[] coherence = coherence(cols);
        return new Result(basis, nonZeros, coherence[0], coherence[1], objectives, sdp, gaps, iterations, converged);
    }

    /**
     * An orthonormal basis G (d×(d−k)) of the complement of span(b<sub>1</sub>..b<sub>k</sub>) chosen to keep
     * G·b sparse: with S the union of the columns' supports, G holds the unit vectors e<sub>j</sub> for j ∉ S (already
     * orthogonal to every b<sub>i</sub>) and an orthonormal basis of the complement of the b's within ℝ<sup>S</sup>
     * (the last |S| − k columns of a full QR of B restricted to the rows S). Then G·b is non-zero only on S and on the
     * entries of b that sit on unit-vector columns. Any orthonormal complement satisfies the thesis; an unstructured
     * one (e.g. from a QR of all of B) would make every later column dense.
     */
    static DMatrixRMaj complementBasis(double[][] cols, int k, int d) {
        boolean[] inS = new boolean[d];
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < d; i++) {
                if (cols[c][i] != 0) {
                    inS[i] = true;
                }
            }
        }
        int s = 0;
        for (boolean b : inS) {
            s += b ? 1 : 0;
        }
        int[] rows = new int[s];
        int at = 0;
        for (int i = 0; i < d; i++) {
            if (inS[i]) {
                rows[at++] = i;
            }
        }
        DMatrixRMaj bs = new DMatrixRMaj(s, k);
        for (int a = 0; a < s; a++) {
            for (int c = 0; c < k; c++) {
                bs.data[a * k + c] = cols[c][rows[a]];
            }
        }
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(s, k);
        if (!qr.decompose(bs)) {
            throw new IllegalStateException("QR of the " + s + "×" + k + " found sparse LDG columns failed");
        }
        DMatrixRMaj q = qr.getQ(null, false);
        DMatrixRMaj g = new DMatrixRMaj(d, d - k);
        int col = 0;
        for (int i = 0; i < d; i++) {
            if (!inS[i]) {
                g.data[i * (d - k) + col++] = 1.0;
            }
        }
        for (int c = k; c < s; c++, col++) {
            for (int a = 0; a < s; a++) {
                g.data[rows[a] * (d - k) + col] = q.data[a * s + c];
            }
        }
        return g;
    }

    /** Gᵀ Z G, symmetrised. */
    private static DMatrixRMaj congruence(DMatrixRMaj z, DMatrixRMaj g) {
        DMatrixRMaj zg = new DMatrixRMaj(z.numRows, g.numCols);
        CommonOps_DDRM.mult(z, g, zg);
        DMatrixRMaj out = new DMatrixRMaj(g.numCols, g.numCols);
        CommonOps_DDRM.multTransA(g, zg, out);
        Kernels.symmetrize(out);
        return out;
    }

    private static double largestEigenvalue(DMatrixRMaj z) {
        DMatrixRMaj neg = z.copy();
        CommonOps_DDRM.scale(-1.0, neg);
        return -PartialEigen.smallest(neg, 1, "the sparse LDG matrix").values()[0];
    }

    /** m += a·bbᵀ, exactly symmetric. */
    private static void rankOneUpdate(DMatrixRMaj m, double a, double[] b) {
        int n = b.length;
        for (int i = 0; i < n; i++) {
            double ab = a * b[i];
            if (ab == 0) {
                continue;
            }
            for (int j = 0; j < n; j++) {
                m.data[i * n + j] += ab * b[j];
            }
        }
    }

    /** bᵀ m b. */
    static double quadratic(DMatrixRMaj m, double[] b) {
        int n = b.length;
        double s = 0;
        for (int i = 0; i < n; i++) {
            if (b[i] == 0) {
                continue;
            }
            double row = 0;
            for (int j = 0; j < n; j++) {
                row += m.data[i * n + j] * b[j];
            }
            s += b[i] * row;
        }
        return s;
    }

    /** Mean and max of |b<sub>i</sub>ᵀb<sub>j</sub>| over i ≠ j; {0, 0} for a single column. */
    static double[] coherence(double[][] cols) {
        int ell = cols.length;
        if (ell < 2) {
            return new double[] {0, 0};
        }
        double sum = 0;
        double max = 0;
        for (int a = 0; a < ell; a++) {
            for (int c = a + 1; c < ell; c++) {
                double v = Math.abs(Kernels.dot(cols[a], cols[c]));
                sum += v;
                max = Math.max(max, v);
            }
        }
        return new double[] {sum / ((double) ell * (ell - 1) / 2), max};
    }

    private static double[] multiply(DMatrixRMaj g, double[] b) {
        int d = g.numRows;
        int k = g.numCols;
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            double s = 0;
            for (int c = 0; c < k; c++) {
                s += g.data[i * k + c] * b[c];
            }
            out[i] = s;
        }
        return out;
    }

    static void normalise(double[] b) {
        double s = Math.sqrt(Kernels.dot(b, b));
        for (int i = 0; i < b.length; i++) {
            b[i] /= s;
        }
    }

    private static void fixSign(double[] b) {
        int arg = 0;
        for (int i = 1; i < b.length; i++) {
            if (Math.abs(b[i]) > Math.abs(b[arg])) {
                arg = i;
            }
        }
        if (b[arg] < 0) {
            for (int i = 0; i < b.length; i++) {
                b[i] = -b[i];
            }
        }
    }

    private static int countNonZeros(double[] b) {
        int n = 0;
        for (double v : b) {
            n += v != 0 ? 1 : 0;
        }
        return n;
    }

    private static double frobenius(double[] a, int len) {
        double max = 0;
        for (int i = 0; i < len; i++) {
            max = Math.max(max, Math.abs(a[i]));
        }
        double s = 0;
        for (int i = 0; i < len; i++) {
            double v = a[i] / max;
            s += v * v;
        }
        return max * Math.sqrt(s);
    }

    private static int checkMatrix(DMatrixRMaj z) {
        int d = z.numRows;
        if (z.numCols != d) {
            throw new IllegalArgumentException(
                    "Z is " + z.numRows + "×" + z.numCols + "; sparse LDG needs a square matrix");
        }
        if (d == 0) {
            throw new IllegalArgumentException("Z is 0×0");
        }
        double max = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double v = z.get(i, j);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("Z[" + i + "][" + j + "] = " + v + " is not finite");
                }
                max = Math.max(max, Math.abs(v));
            }
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double diff = Math.abs(z.get(i, j) - z.get(j, i));
                if (diff > SYMMETRY_RTOL * max) {
                    throw new IllegalArgumentException("Z is not symmetric: Z[" + i + "][" + j + "] = " + z.get(i, j)
                            + " but Z[" + j + "][" + i + "] = " + z.get(j, i));
                }
            }
        }
        return d;
    }

    private static void checkDims(int dims, int d) {
        if (dims > d) {
            throw new IllegalArgumentException(
                    "dims = " + dims + " columns asked but Z is " + d + "×" + d + " (at most " + d + " columns)");
        }
    }
}
