package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.ldg.SparseLdg.Deflation;
import io.vigil.ldg.SparseLdg.Params;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.junit.jupiter.api.Test;

class SparseLdgTest {
    /**
     * With λ = 0 every ADMM iterate is X = vvᵀ for the (partial-eigen) smallest eigenvector v, so columns agree with
     * EJML's full QR to the eigen solvers' accuracy, ~d·ε/gap ≈ 1e-14 with unit gaps; 1e-9 leaves a wide margin.
     */
    private static final double EIGEN_TOL = 1e-9;

    /**
     * BᵀB − I for orthonormal deflation: G's columns are orthonormal to ~10ε (Householder QR), b has unit norm to ε,
     * and each inner product sums d ≤ 40 rounded products: ≲ 1e-14. 1e-12 is far above that and far below any real
     * loss of orthogonality.
     */
    private static final double ORTHONORMAL_TOL = 1e-12;

    private static DMatrixRMaj withSpectrum(double[] spectrum, long seed) {
        int n = spectrum.length;
        DMatrixRMaj q = RandomMatrices_DDRM.orthogonal(n, n, new Random(seed));
        DMatrixRMaj qd = q.copy();
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) {
                qd.data[i * n + c] *= spectrum[c];
            }
        }
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(qd, q, a);
        Kernels.symmetrize(a);
        return a;
    }

    private static DMatrixRMaj symmetricNoise(int d, double scale, long seed) {
        Random r = new Random(seed);
        DMatrixRMaj n = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double v = scale * r.nextGaussian();
                n.set(i, j, v);
                n.set(j, i, v);
            }
        }
        return n;
    }

    /** Z = I − 2uuᵀ + noise with u uniform on {@code support}: u is the sparse minimising direction (eigenvalue −1). */
    private static DMatrixRMaj planted(int d, int[] support, double noise, long seed) {
        DMatrixRMaj z = symmetricNoise(d, noise, seed);
        double e = 1.0 / Math.sqrt(support.length);
        for (int i = 0; i < d; i++) {
            z.add(i, i, 1.0);
        }
        for (int a : support) {
            for (int b : support) {
                z.add(a, b, -2 * e * e);
            }
        }
        return z;
    }

    private static int[] support(double[] b) {
        return java.util.stream.IntStream.range(0, b.length)
                .filter(i -> b[i] != 0)
                .toArray();
    }

    @Test
    void lambdaZeroReproducesTheSmallestEigenvectorsWithBothDeflations() {
        // Positive definite Z (as V at γ = 0): the thesis's PCA deflation Z − (bᵀZb)bbᵀ would move b₁ to 0, below
        // every other eigenvalue, and return b₁ again; the shift to the top must give b₂, b₃, b₄ instead.
        double[] spectrum = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        for (double[] spec : new double[][] {spectrum, {-3, -2.5, -1, 0.5, 1, 2, 2.5, 3, 4, 6, 7, 9}}) {
            DMatrixRMaj z = withSpectrum(spec, 7);
            Kernels.SortedEigen full = Kernels.symmetricEigen(z, true, "z");
            for (Deflation deflation : Deflation.values()) {
                SparseLdg.Result r = SparseLdg.solve(z, Params.of(0.0, deflation, 4));
                for (int c = 0; c < 4; c++) {
                    double dot = 0;
                    for (int i = 0; i < 12; i++) {
                        dot += r.basis().get(i, c) * full.vectors().get(i, c);
                    }
                    assertEquals(1.0, Math.abs(dot), EIGEN_TOL, deflation + " column " + c);
                    assertEquals(full.values()[c], r.objectives()[c], EIGEN_TOL * 12, deflation + " objective " + c);
                    assertEquals(12, r.nonZeros()[c], "λ = 0 zeroes nothing");
                    assertTrue(r.converged()[c]);
                }
                assertEquals(0.0, r.maxCoherence(), EIGEN_TOL, "eigenvectors are orthogonal");
            }
        }
    }

    @Test
    void ldgMatrixIsTheMatrixLdgFitDecomposes() {
        Random rnd = new Random(3);
        int n = 60;
        int d = 6;
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 3;
            for (int t = 0; t < d; t++) {
                x[i][t] = rnd.nextGaussian() + (t == y[i] ? 2 : 0);
            }
        }
        LdgParams p = new LdgParams(4, 0.5);
        LdgBasis basis = Ldg.fit(x, y, 3, p, Ldg.Form.PRIMAL);
        DMatrixRMaj z = Ldg.ldgMatrix(x, y, 3, p);
        double[] values = Kernels.symmetricEigen(z, false, "z").values();
        assertArrayEquals(basis.eigenvalues(), values, 1e-9 * CommonOps_DDRM.elementMaxAbs(z) * d);
        SparseLdg.Result r = SparseLdg.fit(x, y, 3, p, Params.of(0.0, Deflation.ORTHONORMAL, 2));
        DMatrixRMaj b = basis.basis(2);
        for (int c = 0; c < 2; c++) {
            double dot = 0;
            for (int i = 0; i < d; i++) {
                dot += b.get(i, c) * r.basis().get(i, c);
            }
            assertEquals(1.0, Math.abs(dot), EIGEN_TOL, "column " + c);
        }
    }

    @Test
    void cardinalityFallsAsSparsityGrows() {
        int d = 30;
        int[] planted = {2, 9, 17, 23, 28};
        DMatrixRMaj z = withSpectrum(linspace(0.5, 3, d), 11);
        double e = 1.0 / Math.sqrt(planted.length);
        for (int a : planted) {
            for (int b : planted) {
                z.add(a, b, -1.5 * e * e);
            }
        }
        double[] lambdas = {0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5};
        int previous = Integer.MAX_VALUE;
        int first = 0;
        int last = 0;
        for (double lam : lambdas) {
            SparseLdg.Result r = SparseLdg.solve(z, Params.of(lam, Deflation.SPARSE, 1));
            int nnz = r.nonZeros()[0];
            assertTrue(r.converged()[0], "λ = " + lam);
            assertTrue(nnz <= previous, "cardinality rose to " + nnz + " from " + previous + " at λ = " + lam);
            if (lam == 0) {
                first = nnz;
            }
            last = nnz;
            previous = nnz;
        }
        assertEquals(d, first);
        assertTrue(last < first, "tightest λ: " + last + " non-zeros");
        assertTrue(last <= planted.length, "tightest λ: " + last + " non-zeros");
    }

    @Test
    void plantedSparseDirectionIsRecoveredExactly() {
        int d = 20;
        int[] planted = {3, 7, 11, 15};
        DMatrixRMaj z = planted(d, planted, 0.03, 5);
        SparseLdg.Result dense = SparseLdg.solve(z, Params.of(0.0, Deflation.SPARSE, 1));
        assertEquals(d, dense.nonZeros()[0], "noise spreads the plain eigenvector over all entries");
        SparseLdg.Result r = SparseLdg.solve(z, Params.of(0.1, Deflation.SPARSE, 1));
        assertTrue(r.converged()[0]);
        assertArrayEquals(planted, support(r.column(0)));
        for (int i : planted) {
            assertEquals(0.5, r.column(0)[i], 0.05, "entry " + i);
        }
    }

    @Test
    void orthonormalDeflationGivesOrthonormalColumnsAndSparseDeflationReportsItsCoherence() {
        int d = 25;
        DMatrixRMaj z = planted(d, new int[] {1, 4, 8}, 0.2, 9);
        CommonOps_DDRM.addEquals(z, planted(d, new int[] {4, 12, 20}, 0.0, 0));
        SparseLdg.Result o = SparseLdg.solve(z, Params.of(0.05, Deflation.ORTHONORMAL, 5));
        DMatrixRMaj btb = new DMatrixRMaj(5, 5);
        CommonOps_DDRM.multTransA(o.basis(), o.basis(), btb);
        for (int a = 0; a < 5; a++) {
            for (int b = 0; b < 5; b++) {
                assertEquals(a == b ? 1.0 : 0.0, btb.get(a, b), ORTHONORMAL_TOL, "BᵀB[" + a + "][" + b + "]");
            }
        }
        assertTrue(o.maxCoherence() <= ORTHONORMAL_TOL);

        SparseLdg.Result s = SparseLdg.solve(z, Params.of(0.05, Deflation.SPARSE, 5));
        double sum = 0;
        double max = 0;
        int pairs = 0;
        for (int a = 0; a < 5; a++) {
            for (int b = 0; b < 5; b++) {
                if (a != b) {
                    double v = 0;
                    for (int i = 0; i < d; i++) {
                        v += s.basis().get(i, a) * s.basis().get(i, b);
                    }
                    sum += Math.abs(v);
                    max = Math.max(max, Math.abs(v));
                    pairs++;
                }
            }
        }
        assertEquals(sum / pairs, s.meanCoherence(), 1e-14);
        assertEquals(max, s.maxCoherence(), 1e-14);
        assertTrue(
                s.maxCoherence() > 1e-3, "overlapping planted supports make sparse-deflation columns non-orthogonal");
        for (int c = 0; c < 5; c++) {
            assertTrue(s.converged()[c] && o.converged()[c], "column " + c);
            double[] col = s.column(c);
            assertEquals(1.0, Math.sqrt(Kernels.dot(col, col)), 1e-14, "unit column " + c);
        }
    }

    /**
     * A tiny case against brute force. For any unit b, X = bbᵀ is feasible with value q(b) = bᵀZb + λ(Σ|b<sub>i</sub>|)²,
     * so the SDP optimum p* ≤ min q over a grid of unit vectors: the certified lower bound λ<sub>min</sub>(Z + ρU) ≤ p*
     * must lie below every grid value (exactly, no tolerance). When the solution is rank one, p* equals the rank-one
     * minimum, so the grid minimum (an upper bound, off by at most the grid's first-order error ≈ L·δ ≈ 5e-3 at
     * the kinks of |b<sub>i</sub>|) must be close to the ADMM objective from above.
     */
    @Test
    void admmMeetsTheConstraintsAndMatchesABruteForceReferenceOnATinyCase() {
        for (long seed = 1; seed <= 4; seed++) {
            DMatrixRMaj z = symmetricNoise(3, 1.0, seed);
            CommonOps_DDRM.scale(1.0 / CommonOps_DDRM.elementMaxAbs(z), z);
            double lam = 0.15;
            SparseLdgAdmm.Column col = SparseLdgAdmm.solveColumn(z, lam, 1e-8, 20000, null, 1.0);
            assertTrue(col.converged, "seed " + seed);
            DMatrixRMaj x = col.x;
            assertEquals(1.0, CommonOps_DDRM.trace(x), 1e-12, "Tr X");
            double[] eig = Kernels.symmetricEigen(x, false, "x").values();
            assertTrue(eig[0] >= -1e-12, "X ⪰ 0: smallest eigenvalue " + eig[0]);
            double lower = col.objective - col.gap;
            assertTrue(col.gap >= -1e-12 && col.gap <= 1e-5, "duality gap " + col.gap);
            double grid = Double.POSITIVE_INFINITY;
            int steps = 1200;
            for (int a = 0; a <= steps; a++) {
                double th = Math.PI * a / steps;
                for (int c = 0; c < 2 * steps; c++) {
                    double ph = Math.PI * c / steps;
                    double[] b = {Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)};
                    double l1 = Math.abs(b[0]) + Math.abs(b[1]) + Math.abs(b[2]);
                    grid = Math.min(grid, SparseLdg.quadratic(z, b) + lam * l1 * l1);
                }
            }
            assertTrue(lower <= grid + 1e-12, "certified lower bound " + lower + " above grid minimum " + grid);
            if (eig[1] < 1e-6) {
                assertEquals(grid, col.objective, 5e-3, "rank-one solution: SDP = rank-one problem, seed " + seed);
                assertTrue(col.objective <= grid + 1e-6, "objective " + col.objective + " vs grid " + grid);
            }
        }
    }

    @Test
    void directionsOutsideTheTrainingSpanArePricedAndLambdaZeroStillGivesLdgsColumns() {
        // d = 40 > n = 16: the centred rows span 15 dimensions; the classes differ in coordinates 0 and 1.
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        int n = 16;
        int d = 40;
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int t = 0; t < d; t++) {
                x[i][t] = rnd.nextGaussian() + (t < 2 ? 3 * y[i] : 0);
            }
        }
        LdgParams p = new LdgParams(3, 0.5);
        DMatrixRMaj z = Ldg.ldgMatrix(x, y, 2, p);
        DMatrixRMaj priced = SparseLdg.penaliseOutsideSpan(z, x);
        double fro = 0;
        for (double v : z.data) {
            fro += v * v;
        }
        fro = Math.sqrt(fro);
        // A unit vector orthogonal to every centred row costs the price; Z alone gives it 0.
        double[][] xc = Ldg.centred(x, Ldg.mean(x));
        double[] out = new double[d];
        out[d - 1] = 1;
        for (int pass = 0; pass < 2; pass++) {
            reorthogonalise(out, xc);
        }
        assertEquals(0.0, SparseLdg.quadratic(z, out), 1e-9 * fro, "Z vanishes outside the span");
        assertEquals(SparseLdg.SPAN_PRICE * fro, SparseLdg.quadratic(priced, out), 1e-9 * fro, "priced");
        LdgBasis ldg = Ldg.fit(x, y, 2, p);
        assertTrue(ldg.eigenvalues()[0] < 0, "the test needs a column below the price: " + ldg.eigenvalues()[0]);
        SparseLdg.Result r = SparseLdg.fit(x, y, 2, p, Params.of(0.0, Deflation.ORTHONORMAL, 1));
        double dot = 0;
        for (int t = 0; t < d; t++) {
            dot += r.basis().get(t, 0) * ldg.basis(1).get(t, 0);
        }
        // Both are the unit eigenvector of the same in-span problem; the eigen gap here is O(1) of ‖Z‖, so the
        // solvers agree to ~1e-12; 1e-8 allows for the ADMM's λ = 0 path through a partial eigen solver.
        assertEquals(1.0, Math.abs(dot), 1e-8);
        double[][] full = new double[3 * d][d];
        for (int i = 0; i < full.length; i++) {
            for (int t = 0; t < d; t++) {
                full[i][t] = rnd.nextGaussian();
            }
        }
        int[] yf = new int[full.length];
        for (int i = 0; i < yf.length; i++) {
            yf[i] = i % 2;
        }
        DMatrixRMaj zf = Ldg.ldgMatrix(full, yf, 2, new LdgParams(3, 0.5));
        assertSame(zf, SparseLdg.penaliseOutsideSpan(zf, full), "rows spanning R^d leave Z as it is");
    }

    private static void reorthogonalise(double[] v, double[][] rows) {
        DMatrixRMaj q = new DMatrixRMaj(rows);
        DMatrixRMaj qt = new DMatrixRMaj(rows[0].length, rows.length);
        CommonOps_DDRM.transpose(q, qt);
        var qr = org.ejml.dense.row.factory.DecompositionFactory_DDRM.qr(qt.numRows, qt.numCols);
        qr.decompose(qt.copy());
        DMatrixRMaj basis = qr.getQ(null, true);
        for (int c = 0; c < basis.numCols; c++) {
            double dot = 0;
            for (int t = 0; t < v.length; t++) {
                dot += basis.get(t, c) * v[t];
            }
            for (int t = 0; t < v.length; t++) {
                v[t] -= dot * basis.get(t, c);
            }
        }
        double norm = 0;
        for (double a : v) {
            norm += a * a;
        }
        norm = Math.sqrt(norm);
        for (int t = 0; t < v.length; t++) {
            v[t] /= norm;
        }
    }

    @Test
    void badInputsAreRejectedWithClearMessages() {
        DMatrixRMaj z = withSpectrum(new double[] {1, 2, 3, 4}, 1);
        DMatrixRMaj nan = z.copy();
        nan.set(1, 2, Double.NaN);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SparseLdg.solve(nan, Params.of(0.1, Deflation.SPARSE, 1)));
        assertTrue(e.getMessage().contains("Z[1][2] = NaN"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Params.of(-0.1, Deflation.SPARSE, 1));
        assertTrue(e.getMessage().contains("λ") && e.getMessage().contains("-0.1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Params.of(Double.POSITIVE_INFINITY, Deflation.SPARSE, 1));
        e = assertThrows(IllegalArgumentException.class, () -> SparseLdg.solve(z, Params.of(0.1, Deflation.SPARSE, 5)));
        assertTrue(e.getMessage().contains("dims = 5") && e.getMessage().contains("4×4"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SparseLdg.solve(new DMatrixRMaj(3, 4), Params.of(0.1, Deflation.SPARSE, 1)));
        assertTrue(e.getMessage().contains("3×4"), e.getMessage());
        DMatrixRMaj asym = z.copy();
        asym.add(0, 3, 1e-3);
        e = assertThrows(
                IllegalArgumentException.class, () -> SparseLdg.solve(asym, Params.of(0.1, Deflation.SPARSE, 1)));
        assertTrue(e.getMessage().contains("not symmetric"), e.getMessage());
        double[][] x = {{1, 2}, {3, 4}, {5, 7}};
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SparseLdg.fit(x, new int[] {0, 1}, 2, LdgParams.defaults(), Params.of(0.1, Deflation.SPARSE, 1)));
        assertTrue(e.getMessage().contains("3 rows") && e.getMessage().contains("2 class indices"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SparseLdg.fit(
                        x, new int[] {0, 1, 1}, 2, LdgParams.defaults(), Params.of(0.1, Deflation.SPARSE, 3)));
        assertTrue(e.getMessage().contains("dims = 3") && e.getMessage().contains("2×2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Params(0.1, Deflation.SPARSE, 0, 1e-5, 10));
        assertThrows(IllegalArgumentException.class, () -> new Params(0.1, Deflation.SPARSE, 1, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new Params(0.1, Deflation.SPARSE, 1, 1e-5, 0));
        assertThrows(NullPointerException.class, () -> new Params(0.1, null, 1, 1e-5, 10));
    }

    private static double[] linspace(double from, double to, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = from + (to - from) * i / (n - 1);
        }
        return v;
    }
}
