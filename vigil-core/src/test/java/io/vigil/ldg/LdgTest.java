package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.junit.jupiter.api.Test;

class LdgTest {
    /**
     * §3.2.1 with 30 points per class: the direction is estimated from 60 points. The standard error of
     * its angle is ≈ 0.02 rad at both γ (γ = 0: sample within-class correlation ≈ 0.1·1/√60 against an
     * eigen-gap of 0.99; γ = 1: error of the sample mean difference, ≈ 0.026/2 + 0.2·0.26/4). 0.06 rad is
     * three standard errors.
     */
    private static final double SMALL_SAMPLE_ANGLE_TOL = 0.06;

    /** The same with 1000 points per class: standard error ≈ 0.02·√(30/1000) ≈ 0.0035 rad; three SE ≈ 0.011. */
    private static final double LARGE_SAMPLE_ANGLE_TOL = 0.011;

    /**
     * At γ = 0.5 the two terms nearly cancel (eigen-gap 0.53 against 2.0 at γ = 1) and the sample size of
     * ‖μ̂<sub>1</sub> − μ̂<sub>0</sub>‖ shifts their balance, so the angle is noisier: over seeds 1–4 with 1000
     * points per class it scattered by ≈ 0.015 rad around the limit (and by ≈ 0.004 with 4000). Three of
     * those standard errors.
     */
    private static final double LARGE_SAMPLE_ANGLE_TOL_HALF = 0.05;

    /**
     * Eigenvalues from different assemblies of the same symmetric matrix (block form vs literal Δ outer
     * products) differ by rounding, ≲ 1e-13 relative to the largest; 1e-9 leaves margin for the kernel
     * path, whose Gram rounding is amplified by the data's condition number (≲ 1e3 on these data).
     */
    private static final double EIG_RTOL = 1e-9;

    /** Eigenvector error ≤ perturbation / relative gap; random data have gaps ≳ 1e-3, so ≲ 1e-10; margin ×100. */
    private static final double VEC_TOL = 1e-8;

    /** BᵀB = I to rounding: r ≤ 60 dot products of unit vectors, errors ~1e-15 each; 1e-12 is generous. */
    private static final double ORTHO_TOL = 1e-12;

    private static final double[][] ILLUSTRATIVE_MEANS = {{-0.1, -1}, {0.1, 1}};
    private static final double[] ILLUSTRATIVE_SD = {0.1, 1};

    private static double angleTo(DMatrixRMaj b, double[] target) {
        double norm = Math.hypot(target[0], target[1]);
        double cos = Math.abs(b.get(0, 0) * target[0] + b.get(1, 0) * target[1]) / norm;
        return Math.acos(Math.min(1.0, cos));
    }

    @Test
    void illustrativeCaseMatchesThesisDirections() {
        int perClass = 30;
        int[] y = LdgReference.blocks(2, perClass);
        double[][] x = LdgReference.gaussians(y, ILLUSTRATIVE_MEANS, ILLUSTRATIVE_SD, 20120301L);
        DMatrixRMaj b0 = Ldg.fit(x, y, 2, new LdgParams(perClass, 0.0)).basis(1);
        DMatrixRMaj b1 = Ldg.fit(x, y, 2, new LdgParams(perClass, 1.0)).basis(1);
        DMatrixRMaj bHalf = Ldg.fit(x, y, 2, new LdgParams(perClass, 0.5)).basis(1);
        double[] horizontal = {1, 0};
        double[] meanDirection = {0.0995, 0.995};
        assertTrue(angleTo(b0, horizontal) < SMALL_SAMPLE_ANGLE_TOL, "γ=0 angle " + angleTo(b0, horizontal));
        assertTrue(angleTo(b1, meanDirection) < SMALL_SAMPLE_ANGLE_TOL, "γ=1 angle " + angleTo(b1, meanDirection));
        // γ = 0.5 balances the two (Figure 3.3): strictly between the γ = 0 and γ = 1 solutions.
        double a0 = angleTo(b0, horizontal);
        double aHalf = angleTo(bHalf, horizontal);
        double a1 = angleTo(b1, horizontal);
        assertTrue(a0 < aHalf && aHalf < a1, "angles from horizontal " + a0 + ", " + aHalf + ", " + a1);
    }

    @Test
    void illustrativeCaseConvergesToAsymptoticSolution() {
        int perClass = 1000;
        int[] y = LdgReference.blocks(2, perClass);
        double[][] x = LdgReference.gaussians(y, ILLUSTRATIVE_MEANS, ILLUSTRATIVE_SD, 7L);
        for (double gamma : new double[] {0.0, 0.5, 1.0}) {
            DMatrixRMaj b = Ldg.fit(x, y, 2, new LdgParams(perClass, gamma)).basis(1);
            double[] expected = asymptoticDirection(gamma);
            double tol = gamma == 0.5 ? LARGE_SAMPLE_ANGLE_TOL_HALF : LARGE_SAMPLE_ANGLE_TOL;
            assertTrue(
                    angleTo(b, expected) < tol,
                    "γ=" + gamma + ": angle " + angleTo(b, expected) + " to the asymptotic direction");
        }
    }

    /**
     * Smallest eigenvector of the limit (3.21, first line): (1−γ)Σ<sub>q</sub>p<sub>q</sub>Σ<sub>q</sub> −
     * γΣ<sub>q</sub>p<sub>q</sub>Σ<sub>j≠q</sub>p<sub>j</sub>DDᵀ = (1−γ)diag(0.01, 1) − γ·½·DDᵀ with D = [0.2, 2]
     * (the second line of 3.21 drops the p<sub>q</sub>, a typo in the thesis).
     */
    private static double[] asymptoticDirection(double gamma) {
        double[] dm = {0.2, 2};
        double a = (1 - gamma) * 0.01 - gamma * 0.5 * dm[0] * dm[0];
        double b = -gamma * 0.5 * dm[0] * dm[1];
        double c = (1 - gamma) * 1.0 - gamma * 0.5 * dm[1] * dm[1];
        double lambda = 0.5 * (a + c) - Math.sqrt(0.25 * (a - c) * (a - c) + b * b);
        // (Z − λI)v = 0 → v ∝ [b, λ − a] unless b = 0.
        if (b == 0) {
            return a <= c ? new double[] {1, 0} : new double[] {0, 1};
        }
        return new double[] {b, lambda - a};
    }

    @Test
    void eigenvectorSolutionIsNeverBeatenByRandomOrthonormalBases() {
        // Prop. 1: the ℓ smallest eigenvectors minimise tr(Bᵀ(V − γA)B) over BᵀB = I.
        int[] y = LdgReference.blocks(3, 6);
        double[][] x = LdgReference.randomData(y, 3, 3, 1.0, 11L);
        LdgParams params = new LdgParams(3, 0.6);
        DMatrixRMaj z = LdgReference.ldgMatrix(x, y, 3, params);
        LdgBasis basis = Ldg.fit(x, y, 3, params);
        SplittableRandom random = new SplittableRandom(5);
        for (int dims = 1; dims <= 2; dims++) {
            double ours = LdgReference.objective(z, basis.basis(dims));
            double sumSmallest = 0;
            for (int c = 0; c < dims; c++) {
                sumSmallest += basis.eigenvalues()[c];
            }
            double scale = Math.abs(basis.eigenvalues()[0]) + Math.abs(basis.eigenvalues()[2]);
            assertEquals(sumSmallest, ours, EIG_RTOL * scale, "objective equals the sum of the smallest eigenvalues");
            double bestRandom = Double.POSITIVE_INFINITY;
            for (int trial = 0; trial < 20_000; trial++) {
                DMatrixRMaj candidate = randomOrthonormal(3, dims, random);
                double value = LdgReference.objective(z, candidate);
                assertTrue(value >= ours - EIG_RTOL * scale, "random B beats LDG: " + value + " < " + ours);
                bestRandom = Math.min(bestRandom, value);
            }
            // The search is dense enough to come close, so the comparison above is not vacuous.
            assertTrue(bestRandom - ours < 0.02 * scale, "random search got within " + (bestRandom - ours));
        }
    }

    private static DMatrixRMaj randomOrthonormal(int d, int dims, SplittableRandom random) {
        DMatrixRMaj g = new DMatrixRMaj(d, dims);
        for (int i = 0; i < g.data.length; i++) {
            g.data[i] = LdgReference.gaussian(random);
        }
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(d, dims);
        qr.decompose(g);
        return qr.getQ(null, true);
    }

    @Test
    void primalKernelAndBruteForceAgreeWhenNExceedsD() {
        int[] y = LdgReference.blocks(3, 14);
        double[][] x = LdgReference.randomData(y, 3, 5, 1.5, 3L);
        LdgParams params = new LdgParams(4, 0.7);
        LdgBasis primal = Ldg.fit(x, y, 3, params, Ldg.Form.PRIMAL);
        LdgBasis kernel = Ldg.fit(x, y, 3, params, Ldg.Form.KERNEL);
        assertEquals(5, primal.rank());
        assertEquals(5, kernel.rank());
        assertSameBasis(primal, kernel, primal.rank());
        DMatrixRMaj z = LdgReference.ldgMatrix(x, y, 3, params);
        double[] ev = Kernels.symmetricEigen(z, true, "z").values();
        DMatrixRMaj vec = Kernels.symmetricEigen(z, true, "z").vectors();
        double scale = Math.max(Math.abs(ev[0]), Math.abs(ev[4]));
        for (int c = 0; c < 5; c++) {
            assertEquals(ev[c], primal.eigenvalues()[c], EIG_RTOL * scale);
            double dot = 0;
            for (int i = 0; i < 5; i++) {
                dot += vec.get(i, c) * primal.component(i, c);
            }
            assertEquals(1.0, Math.abs(dot), VEC_TOL, "direction " + c);
        }
    }

    @Test
    void kernelFormMatchesFullMatrixOnTheDataSpanWhenDExceedsN() {
        int n = 15;
        int d = 40;
        int[] y = LdgReference.blocks(3, 5);
        double[][] x = LdgReference.randomData(y, 3, d, 1.0, 17L);
        LdgParams params = new LdgParams(3, 0.5);
        LdgBasis kernel = Ldg.fit(x, y, 3, params);
        LdgBasis primal = Ldg.fit(x, y, 3, params, Ldg.Form.PRIMAL);
        assertEquals(n - 1, kernel.rank(), "centred data of n points span n − 1 directions");
        assertEquals(n - 1, primal.rank());
        assertSameBasis(kernel, primal, kernel.rank());

        DMatrixRMaj z = LdgReference.ldgMatrix(x, y, 3, params);
        Kernels.SortedEigen full = Kernels.symmetricEigen(z, true, "z");
        double scale = Math.max(Math.abs(full.values()[0]), Math.abs(full.values()[d - 1]));
        int negatives = 0;
        while (full.values()[negatives] < -EIG_RTOL * scale) {
            negatives++;
        }
        assertTrue(negatives >= 2, "the test needs several negative eigenvalues, got " + negatives);
        double[] ours = kernel.eigenvalues();
        for (int c = 0; c < negatives; c++) {
            assertEquals(full.values()[c], ours[c], EIG_RTOL * scale, "negative eigenvalue " + c);
            double[] pk = new double[n];
            double[] pf = new double[n];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < d; t++) {
                    pk[i] += kernel.component(t, c) * x[i][t];
                    pf[i] += full.vectors().get(t, c) * x[i][t];
                }
            }
            double sign = Math.signum(pk[0]) * Math.signum(pf[0]);
            for (int i = 0; i < n; i++) {
                assertEquals(pf[i] * sign, pk[i], VEC_TOL * (1 + Math.abs(pf[i])), "projection " + i + " dir " + c);
            }
        }
        // The d×d matrix has d − (n − 1) extra zero eigenvalues off the data span; the kernel form offers none
        // of them: every one of its eigenvalues is an eigenvalue of the full matrix.
        for (double v : ours) {
            double nearest = Double.POSITIVE_INFINITY;
            for (double w : full.values()) {
                nearest = Math.min(nearest, Math.abs(w - v));
            }
            assertTrue(nearest < EIG_RTOL * scale, "eigenvalue " + v + " not in the full spectrum");
        }
    }

    private static void assertSameBasis(LdgBasis a, LdgBasis b, int dims) {
        double scale = 0;
        for (double v : a.eigenvalues()) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int c = 0; c < dims; c++) {
            assertEquals(a.eigenvalues()[c], b.eigenvalues()[c], EIG_RTOL * scale, "eigenvalue " + c);
            for (int i = 0; i < a.inputDim(); i++) {
                assertEquals(a.component(i, c), b.component(i, c), VEC_TOL, "component " + i + " of direction " + c);
            }
        }
    }

    @Test
    void basisIsOrthonormalAndNested() {
        int[] y = LdgReference.blocks(4, 10);
        for (int d : new int[] {12, 100}) {
            double[][] x = LdgReference.randomData(y, 4, d, 1.0, d);
            LdgBasis basis = Ldg.fit(x, y, 4, new LdgParams(5, 0.3));
            DMatrixRMaj b = basis.basis(basis.rank());
            DMatrixRMaj btb = new DMatrixRMaj(basis.rank(), basis.rank());
            CommonOps_DDRM.multTransA(b, b, btb);
            for (int i = 0; i < basis.rank(); i++) {
                for (int j = 0; j < basis.rank(); j++) {
                    assertEquals(i == j ? 1.0 : 0.0, btb.get(i, j), ORTHO_TOL, "BᵀB[" + i + "][" + j + "], d=" + d);
                }
            }
            DMatrixRMaj b3 = basis.basis(3);
            for (int i = 0; i < d; i++) {
                for (int c = 0; c < 3; c++) {
                    assertEquals(b.get(i, c), b3.get(i, c), 0.0, "nested");
                }
            }
            double[] ev = basis.eigenvalues();
            for (int c = 1; c < ev.length; c++) {
                assertTrue(ev[c - 1] <= ev[c], "ascending eigenvalues");
            }
            double[][] projected = basis.project(x, 3);
            double[] out = new double[5];
            basis.project(x[7], 3, out);
            assertArrayEquals(projected[7], java.util.Arrays.copyOf(out, 3), 0.0);
        }
    }

    @Test
    void sameInputGivesIdenticalBytes() {
        int[] y = LdgReference.blocks(3, 8);
        for (int d : new int[] {6, 60, 3000}) {
            double[][] x = LdgReference.randomData(y, 3, d, 1.0, 99L);
            LdgBasis first = Ldg.fit(x, y, 3, new LdgParams(3, 0.4));
            LdgBasis second = Ldg.fit(x, y, 3, new LdgParams(3, 0.4));
            assertArrayEquals(first.basis(first.rank()).data, second.basis(second.rank()).data, 0.0);
            assertArrayEquals(first.eigenvalues(), second.eigenvalues(), 0.0);
        }
    }

    @Test
    void inputIsNotModified() {
        int[] y = LdgReference.blocks(2, 6);
        double[][] x = LdgReference.randomData(y, 2, 20, 1.0, 1L);
        double[][] copy = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            copy[i] = x[i].clone();
        }
        Ldg.fit(x, y, 2, new LdgParams(2, 0.5));
        for (int i = 0; i < x.length; i++) {
            assertArrayEquals(copy[i], x[i], 0.0);
        }
    }

    @Test
    void denseAndSparseBetweenTermsAgree() {
        int[] y = LdgReference.blocks(3, 9);
        double[][] x = LdgReference.randomData(y, 3, 7, 1.0, 4L);
        NeighborSets ns = NeighborSets.fromRows(x, y, 3, 4);
        DMatrixRMaj coords = new DMatrixRMaj(Ldg.centred(x, Ldg.mean(x)));
        DMatrixRMaj dense = SpanProblem.betweenDense(coords, ns);
        DMatrixRMaj sparse = SpanProblem.betweenSparse(coords, ns);
        DMatrixRMaj reference = LdgReference.between(x, y, 3, 4);
        double scale = CommonOps_DDRM.elementMaxAbs(reference);
        for (int i = 0; i < dense.data.length; i++) {
            assertEquals(reference.data[i], dense.data[i], EIG_RTOL * scale);
            assertEquals(reference.data[i], sparse.data[i], EIG_RTOL * scale);
        }
        DMatrixRMaj within = SpanProblem.of(coords, ns).within();
        DMatrixRMaj withinRef = LdgReference.within(x, y, 3, 4);
        for (int i = 0; i < within.data.length; i++) {
            assertEquals(withinRef.data[i], within.data[i], EIG_RTOL * scale);
        }
    }

    @Test
    void singletonClassContributesNoWithinTerm() {
        int[] y = {0, 0, 0, 0, 1};
        double[][] x = {{0, 0}, {1, 0.1}, {2, -0.1}, {3, 0.2}, {1.5, 4}};
        LdgBasis basis = Ldg.fit(x, y, 2, new LdgParams(2, 0.5));
        DMatrixRMaj z = LdgReference.ldgMatrix(x, y, 2, new LdgParams(2, 0.5));
        double[] ev = Kernels.symmetricEigen(z, false, "z").values();
        assertArrayEquals(ev, basis.eigenvalues(), EIG_RTOL * Math.abs(ev[0]));
    }

    @Test
    void badArgumentsNameBothSizes() {
        double[][] x = {{1, 2}, {3, 4}, {5, 7}};
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Ldg.fit(x, new int[] {0, 1}, 2, LdgParams.defaults()));
        assertTrue(e.getMessage().contains("3 rows") && e.getMessage().contains("2 class indices"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Ldg.fit(new double[][] {{1, 2}, {3}}, new int[] {0, 1}, 2, LdgParams.defaults()));
        assertTrue(e.getMessage().contains("1 features") && e.getMessage().contains("has 2"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> Ldg.fit(x, new int[] {0, 1, 2}, 2, LdgParams.defaults()));
        assertTrue(e.getMessage().contains("y[2] = 2"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Ldg.fit(new double[][] {{1, 2}, {1, 2}}, new int[] {0, 1}, 2, LdgParams.defaults()));
        assertTrue(e.getMessage().contains("coincide"), e.getMessage());
        LdgBasis basis = Ldg.fit(x, new int[] {0, 1, 1}, 2, LdgParams.defaults());
        e = assertThrows(IllegalArgumentException.class, () -> basis.project(new double[3], 1, new double[1]));
        assertTrue(e.getMessage().contains("3 values") && e.getMessage().contains("2 rows"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> basis.basis(basis.rank() + 1));
        assertTrue(e.getMessage().contains("dims = " + (basis.rank() + 1)), e.getMessage());
    }

    @Test
    void paramsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new LdgParams(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new LdgParams(3, -0.01));
        assertThrows(IllegalArgumentException.class, () -> new LdgParams(3, 1.01));
        assertThrows(IllegalArgumentException.class, () -> new LdgParams(3, Double.NaN));
        assertEquals(new LdgParams(5, 0.5), LdgParams.defaults());
    }
}
