package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

class QuadraticMinMaxTest {
    /** Storage for the solver's report (bound, iterations, convergence) of the last call. */
    private final MinMaxResult result = new MinMaxResult();

    /**
     * Value tolerance relative to the instance scale (|f0| + Σ|a_i|E_ii r² + r·sqrt(gᵀEg), the size of the values
     * involved): the solver's duality gap is 1e-11·scale and evaluating f at a point adds O(ℓ ε scale); 1e-9 leaves
     * two orders of magnitude for the test's own arithmetic while catching any real error (a wrong branch or a
     * non-global stationary point is off by O(scale)).
     */
    private static final double VALUE_TOL = 1e-9;

    /** Relative slack when asking whether a returned minimiser lies in the set (it is scaled onto the boundary). */
    static final double FEASIBILITY_TOL = 1e-9;

    private static final int INSTANCES = 300;
    private static final int SAMPLES = 3000;

    // ---------------------------------------------------------------- diagonal ellipsoid (nb-quadratic)

    @Test
    void diagonalEllipsoidMinAndMaxAreGlobalAndAttained() {
        SplittableRandom rnd = new SplittableRandom(11);
        QuadraticMinMax solver = new QuadraticMinMax(5);
        TauSet set = new TauSet(5);
        for (int inst = 0; inst < INSTANCES; inst++) {
            int ell = 1 + inst % 5;
            double[] m = Samples.gaussianVector(rnd, ell, 2.0);
            double[] var = Samples.uniformVector(rnd, ell, 0.05, 3.0);
            if (ell > 1 && rnd.nextDouble() < 0.2) {
                var[rnd.nextInt(ell)] = 0.0; // a coordinate known exactly
            }
            double r = 0.1 + 3.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, ell, -2.0, 2.0);
            double[] g = Samples.gaussianVector(rnd, ell, rnd.nextDouble() < 0.3 ? 0.01 : 1.0);
            double f0 = Samples.gaussian(rnd);
            set.setDiagonalEllipsoid(m, var, r);
            double scale = scaleOf(a, g, f0, var, r);

            double[] argmin = new double[ell];
            double min = solver.minimum(set, a, g, f0, argmin, result);
            assertTrue(result.converged(), "instance " + inst);
            assertTrue(result.bound() <= min + VALUE_TOL * scale, "dual bound above the value, instance " + inst);
            double[] argmax = new double[ell];
            double max = solver.maximum(set, a, g, f0, argmax, result);
            assertTrue(
                    result.bound() >= max - VALUE_TOL * scale,
                    "instance " + inst + ": upper bound " + result.bound() + " below the maximum " + max + " after "
                            + result.iterations() + " iterations");

            assertAttained(set, m, a, g, f0, argmin, min, scale, "min instance " + inst);
            assertAttained(set, m, a, g, f0, argmax, max, scale, "max instance " + inst);
            for (int s = 0; s < SAMPLES; s++) {
                double[] y = diagonalSample(rnd, m, var, r, s % 2 == 0);
                double v = Samples.eval(m, a, g, f0, y);
                assertTrue(min <= v + VALUE_TOL * scale, "instance " + inst + ": sampled " + v + " < min " + min);
                assertTrue(max >= v - VALUE_TOL * scale, "instance " + inst + ": sampled " + v + " > max " + max);
            }
        }
    }

    @Test
    void twoDimensionalEllipsoidAgainstPolarGrid() {
        SplittableRandom rnd = new SplittableRandom(12);
        QuadraticMinMax solver = new QuadraticMinMax(2);
        TauSet set = new TauSet(2);
        for (int inst = 0; inst < 100; inst++) {
            double[] m = Samples.gaussianVector(rnd, 2, 1.0);
            double[] var = Samples.uniformVector(rnd, 2, 0.1, 2.0);
            double r = 0.2 + 2.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, 2, -2.0, 2.0);
            double[] g = Samples.gaussianVector(rnd, 2, 1.0);
            set.setDiagonalEllipsoid(m, var, r);
            double scale = scaleOf(a, g, 0.0, var, r);
            double min = solver.minimum(set, a, g, 0.0, null, result);
            double max = solver.maximum(set, a, g, 0.0, null, result);
            double gridMin = Double.POSITIVE_INFINITY;
            double gridMax = Double.NEGATIVE_INFINITY;
            int angles = 2000;
            for (int ri = 0; ri <= 40; ri++) {
                double rad = r * ri / 40.0;
                for (int t = 0; t < angles; t++) {
                    double th = 2 * Math.PI * t / angles;
                    double[] y = {
                        m[0] + Math.sqrt(var[0]) * rad * Math.cos(th), m[1] + Math.sqrt(var[1]) * rad * Math.sin(th)
                    };
                    double v = Samples.eval(m, a, g, 0.0, y);
                    gridMin = Math.min(gridMin, v);
                    gridMax = Math.max(gridMax, v);
                }
            }
            assertTrue(min <= gridMin + VALUE_TOL * scale, "grid below min, instance " + inst);
            assertTrue(max >= gridMax - VALUE_TOL * scale, "grid above max, instance " + inst);
            // The grid (angular step π/1000, radial step r/40) gets within O(step²·scale) of the optimum.
            assertEquals(gridMin, min, 1e-3 * scale, "instance " + inst);
            assertEquals(gridMax, max, 1e-3 * scale, "instance " + inst);
        }
    }

    // ---------------------------------------------------------------- full ellipsoid (Chebyshev, Gaussian)

    @Test
    void fullEllipsoidMinAndMaxAreGlobalAndAttained() {
        SplittableRandom rnd = new SplittableRandom(21);
        QuadraticMinMax solver = new QuadraticMinMax(5);
        TauSet set = new TauSet(5);
        for (int inst = 0; inst < INSTANCES; inst++) {
            int ell = 1 + inst % 5;
            double[] m = Samples.gaussianVector(rnd, ell, 2.0);
            DMatrixRMaj e = Samples.randomSpd(rnd, ell, 0.05, 3.0);
            double[][] l = Samples.cholesky(e);
            double r = 0.1 + 3.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, ell, -2.0, 2.0);
            double[] g = Samples.gaussianVector(rnd, ell, 1.0);
            double f0 = Samples.gaussian(rnd);
            set.setFullEllipsoid(m, e, r);
            double scale = scaleOfFull(a, g, f0, e, r);
            double[] argmin = new double[ell];
            double min = solver.minimum(set, a, g, f0, argmin, result);
            assertTrue(result.converged());
            double[] argmax = new double[ell];
            double max = solver.maximum(set, a, g, f0, argmax, result);
            assertAttained(set, m, a, g, f0, argmin, min, scale, "min instance " + inst);
            assertAttained(set, m, a, g, f0, argmax, max, scale, "max instance " + inst);
            for (int s = 0; s < SAMPLES; s++) {
                double[] z = Samples.ballPoint(rnd, ell, s % 2 == 0);
                for (int i = 0; i < ell; i++) {
                    z[i] *= r;
                }
                double v = Samples.eval(m, a, g, f0, Samples.plus(m, Samples.times(l, z)));
                assertTrue(min <= v + VALUE_TOL * scale, "instance " + inst + ": sampled " + v + " < min " + min);
                assertTrue(max >= v - VALUE_TOL * scale, "instance " + inst + ": sampled " + v + " > max " + max);
            }
        }
    }

    @Test
    void fullPathEqualsDiagonalPathWhenTheCovarianceIsDiagonal() {
        SplittableRandom rnd = new SplittableRandom(22);
        QuadraticMinMax solver = new QuadraticMinMax(6);
        TauSet diagSet = new TauSet(6);
        TauSet fullSet = new TauSet(6);
        for (int inst = 0; inst < 200; inst++) {
            int ell = 1 + inst % 6;
            double[] m = Samples.gaussianVector(rnd, ell, 1.0);
            double[] var = Samples.uniformVector(rnd, ell, 0.1, 2.0);
            DMatrixRMaj e = new DMatrixRMaj(ell, ell);
            for (int i = 0; i < ell; i++) {
                e.set(i, i, var[i]);
            }
            double r = 0.2 + 2.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, ell, -2.0, 2.0);
            double[] g = Samples.gaussianVector(rnd, ell, 1.0);
            if (inst % 3 == 0) {
                g[0] = 0.0; // hard-case candidates
            }
            diagSet.setDiagonalEllipsoid(m, var, r);
            fullSet.setFullEllipsoid(m, e, r);
            double scale = scaleOf(a, g, 0.0, var, r);
            assertEquals(
                    solver.minimum(diagSet, a, g, 0.0, null, result),
                    solver.minimum(fullSet, a, g, 0.0, null, result),
                    VALUE_TOL * scale,
                    "min instance " + inst);
            assertEquals(
                    solver.maximum(diagSet, a, g, 0.0, null, result),
                    solver.maximum(fullSet, a, g, 0.0, null, result),
                    VALUE_TOL * scale,
                    "max instance " + inst);
        }
    }

    @Test
    void hardCaseThroughTheEigenbasisOfTheFullPath() {
        // Build g so that γ = Cᵀg is orthogonal to the eigenvector of the smallest eigenvalue of H = 2CᵀAC: after
        // the eigendecomposition γ̂₁ is only rounding noise, a near-hard instance that must still come out exact.
        SplittableRandom rnd = new SplittableRandom(23);
        int ell = 4;
        for (int inst = 0; inst < 50; inst++) {
            DMatrixRMaj e = Samples.randomSpd(rnd, ell, 0.2, 2.0);
            double[][] l = Samples.cholesky(e);
            double[] a = Samples.uniformVector(rnd, ell, -2.0, 2.0);
            a[0] = -3.0;
            DMatrixRMaj hm = new DMatrixRMaj(ell, ell);
            for (int p = 0; p < ell; p++) {
                for (int q = 0; q < ell; q++) {
                    double s = 0;
                    for (int i = 0; i < ell; i++) {
                        s += 2 * a[i] * l[i][p] * l[i][q];
                    }
                    hm.set(p, q, s);
                }
            }
            EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(ell, true, true);
            assertTrue(eig.decompose(hm.copy()));
            int jmin = 0;
            for (int j = 1; j < ell; j++) {
                if (eig.getEigenvalue(j).real < eig.getEigenvalue(jmin).real) {
                    jmin = j;
                }
            }
            double lambda1 = eig.getEigenvalue(jmin).real;
            double[] v = eig.getEigenVector(jmin).data.clone();
            double[] gamma = Samples.gaussianVector(rnd, ell, 0.05);
            double d = Samples.dot(gamma, v);
            for (int i = 0; i < ell; i++) {
                gamma[i] -= d * v[i];
            }
            // g = C⁻ᵀγ by back substitution with the upper-triangular Cᵀ.
            double[] g = new double[ell];
            for (int i = ell - 1; i >= 0; i--) {
                double s = gamma[i];
                for (int k = i + 1; k < ell; k++) {
                    s -= l[k][i] * g[k];
                }
                g[i] = s / l[i][i];
            }
            double r = 3.0;
            // Exact hard-case value: −½ Σ_{j≠1} γ̂_j²/(λ_j − λ₁) + ½ λ₁ r², valid when Σ γ̂_j²/(λ_j−λ₁)² ≤ r².
            double psi = 0.0;
            double sum = 0.0;
            for (int j = 0; j < ell; j++) {
                if (j != jmin) {
                    double gj = Samples.dot(gamma, eig.getEigenVector(j).data);
                    double dj = eig.getEigenvalue(j).real - lambda1;
                    psi += gj * gj / (dj * dj);
                    sum += gj * gj / dj;
                }
            }
            if (psi > r * r) {
                continue;
            }
            double expected = -0.5 * sum + 0.5 * lambda1 * r * r;
            TauSet set = new TauSet(ell);
            double[] m = new double[ell];
            set.setFullEllipsoid(m, e, r);
            double[] y = new double[ell];
            QuadraticMinMax solver = new QuadraticMinMax(ell);
            double min = solver.minimum(set, a, g, 0.0, y, result);
            double scale = Math.abs(lambda1) * r * r;
            assertEquals(expected, min, VALUE_TOL * scale, "instance " + inst);
            assertAttained(set, m, a, g, 0.0, y, min, scale, "instance " + inst);
        }
    }

    @Test
    void semidefiniteCovarianceUsesTheRangeOnly() {
        // E = B Bᵀ with B 4×2: the set is the 2-D ellipse {m + Bz : ‖z‖ ≤ r} inside R⁴.
        SplittableRandom rnd = new SplittableRandom(24);
        QuadraticMinMax solver = new QuadraticMinMax(4);
        TauSet set = new TauSet(4);
        for (int inst = 0; inst < 40; inst++) {
            double[][] b = new double[4][2];
            for (double[] row : b) {
                row[0] = Samples.gaussian(rnd);
                row[1] = Samples.gaussian(rnd);
            }
            DMatrixRMaj e = new DMatrixRMaj(4, 4);
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    e.set(i, j, b[i][0] * b[j][0] + b[i][1] * b[j][1]);
                }
            }
            double[] m = Samples.gaussianVector(rnd, 4, 1.0);
            double r = 1.5;
            double[] a = Samples.uniformVector(rnd, 4, -1.0, 1.0);
            double[] g = Samples.gaussianVector(rnd, 4, 1.0);
            set.setFullEllipsoid(m, e, r);
            assertEquals(TauSet.Shape.FULL_ELLIPSOID, set.shape());
            double[] y = new double[4];
            double min = solver.minimum(set, a, g, 0.0, y, result);
            double scale = scaleOfFull(a, g, 0.0, e, r);
            assertAttained(set, m, a, g, 0.0, y, min, scale, "instance " + inst);
            for (int s = 0; s < SAMPLES; s++) {
                double[] z = Samples.ballPoint(rnd, 2, s % 2 == 0);
                double[] u = Samples.times(b, new double[] {r * z[0], r * z[1]});
                double v = Samples.eval(m, a, g, 0.0, Samples.plus(m, u));
                assertTrue(min <= v + VALUE_TOL * scale, "instance " + inst + ": sampled " + v + " < min " + min);
            }
        }
    }

    // ---------------------------------------------------------------- box (nb-box)

    @Test
    void boxMinAndMaxAgainstAGrid() {
        SplittableRandom rnd = new SplittableRandom(31);
        QuadraticMinMax solver = new QuadraticMinMax(3);
        TauSet set = new TauSet(3);
        for (int inst = 0; inst < 150; inst++) {
            int ell = 1 + inst % 3;
            double[] m = Samples.gaussianVector(rnd, ell, 1.0);
            double[] var = Samples.uniformVector(rnd, ell, 0.1, 2.0);
            double r = 0.2 + 2.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, ell, -2.0, 2.0);
            double[] g = Samples.gaussianVector(rnd, ell, 1.0);
            double f0 = Samples.gaussian(rnd);
            set.setBox(m, var, r);
            double scale = scaleOf(a, g, f0, var, r);
            double[] argmin = new double[ell];
            double[] argmax = new double[ell];
            double min = solver.minimum(set, a, g, f0, argmin, result);
            double max = solver.maximum(set, a, g, f0, argmax, result);
            assertAttained(set, m, a, g, f0, argmin, min, scale, "min instance " + inst);
            assertAttained(set, m, a, g, f0, argmax, max, scale, "max instance " + inst);
            int n = 41;
            int total = (int) Math.pow(n, ell);
            double gridMin = Double.POSITIVE_INFINITY;
            double gridMax = Double.NEGATIVE_INFINITY;
            double[] y = new double[ell];
            for (int idx = 0; idx < total; idx++) {
                int rest = idx;
                for (int i = 0; i < ell; i++) {
                    double half = r * Math.sqrt(var[i]);
                    y[i] = m[i] - half + 2 * half * (rest % n) / (n - 1.0);
                    rest /= n;
                }
                double v = Samples.eval(m, a, g, f0, y);
                gridMin = Math.min(gridMin, v);
                gridMax = Math.max(gridMax, v);
            }
            assertTrue(min <= gridMin + VALUE_TOL * scale, "instance " + inst);
            assertTrue(max >= gridMax - VALUE_TOL * scale, "instance " + inst);
            // The grid contains the box's vertices; a vertex inside costs at most a·(step/2)² per coordinate.
            assertEquals(gridMin, min, 1e-2 * scale, "instance " + inst);
            assertEquals(gridMax, max, 1e-2 * scale, "instance " + inst);
        }
    }

    // ---------------------------------------------------------------- linear discriminants (Prop. 2, 5.12–5.13)

    @Test
    void linearClosedFormsMatchTheFormulasAndSampling() {
        SplittableRandom rnd = new SplittableRandom(41);
        QuadraticMinMax solver = new QuadraticMinMax(5);
        TauSet diagSet = new TauSet(5);
        TauSet fullSet = new TauSet(5);
        TauSet box = new TauSet(5);
        for (int inst = 0; inst < 100; inst++) {
            int ell = 1 + inst % 5;
            double[] m = Samples.gaussianVector(rnd, ell, 1.0);
            double[] var = Samples.uniformVector(rnd, ell, 0.1, 2.0);
            DMatrixRMaj e = Samples.randomSpd(rnd, ell, 0.1, 2.0);
            double[][] l = Samples.cholesky(e);
            double r = 0.2 + 2.0 * rnd.nextDouble();
            double[] zero = new double[ell];
            double[] w = Samples.gaussianVector(rnd, ell, 1.0);
            double b = Samples.gaussian(rnd);
            diagSet.setDiagonalEllipsoid(m, var, r);
            fullSet.setFullEllipsoid(m, e, r);
            box.setBox(m, var, r);
            // Prop. 2: wᵀm + b ∓ r sqrt(wᵀEw); (5.12)–(5.13): wᵀm + b ∓ Σ|w_i| s_i.
            double f0 = b;
            double wDiagW = 0;
            double wEw = 0;
            double boxSpan = 0;
            for (int i = 0; i < ell; i++) {
                wDiagW += w[i] * w[i] * var[i];
                boxSpan += Math.abs(w[i]) * r * Math.sqrt(var[i]);
                for (int j = 0; j < ell; j++) {
                    wEw += w[i] * e.get(i, j) * w[j];
                }
            }
            double tol = 1e-12 * (1 + Math.abs(b) + r * Math.sqrt(wEw + wDiagW) + boxSpan);
            double[] y = new double[ell];
            assertEquals(f0 - r * Math.sqrt(wDiagW), solver.minimum(diagSet, zero, w, f0, y, result), tol);
            assertTrue(diagSet.contains(y, FEASIBILITY_TOL));
            assertEquals(f0 + r * Math.sqrt(wDiagW), solver.maximum(diagSet, zero, w, f0, y, result), tol);
            assertEquals(f0 - r * Math.sqrt(wEw), solver.minimum(fullSet, zero, w, f0, y, result), tol);
            assertTrue(fullSet.contains(y, FEASIBILITY_TOL));
            assertEquals(f0 - r * Math.sqrt(wEw), Samples.eval(m, zero, w, f0, y), tol);
            assertEquals(f0 + r * Math.sqrt(wEw), solver.maximum(fullSet, zero, w, f0, y, result), tol);
            assertEquals(f0 - boxSpan, solver.minimum(box, zero, w, f0, y, result), tol);
            assertEquals(f0 + boxSpan, solver.maximum(box, zero, w, f0, y, result), tol);
            double minFull = f0 - r * Math.sqrt(wEw);
            for (int s = 0; s < 500; s++) {
                double[] z = Samples.ballPoint(rnd, ell, s % 2 == 0);
                for (int i = 0; i < ell; i++) {
                    z[i] *= r;
                }
                double v = Samples.eval(m, zero, w, f0, Samples.plus(m, Samples.times(l, z)));
                assertTrue(minFull <= v + tol);
            }
        }
    }

    // ---------------------------------------------------------------- early exit, degenerate sets, contracts

    @Test
    void minAtLeastZeroAgreesWithTheSignOfTheExactMinimum() {
        SplittableRandom rnd = new SplittableRandom(51);
        QuadraticMinMax solver = new QuadraticMinMax(5);
        TauSet[] sets = {new TauSet(5), new TauSet(5), new TauSet(5)};
        int positives = 0;
        int negatives = 0;
        for (int inst = 0; inst < 600; inst++) {
            int ell = 1 + inst % 5;
            double[] m = Samples.gaussianVector(rnd, ell, 1.0);
            double[] var = Samples.uniformVector(rnd, ell, 0.1, 2.0);
            double r = 0.2 + 2.0 * rnd.nextDouble();
            double[] a = Samples.uniformVector(rnd, ell, -1.0, 1.0);
            double[] g = Samples.gaussianVector(rnd, ell, 1.0);
            sets[0].setDiagonalEllipsoid(m, var, r);
            sets[1].setFullEllipsoid(m, Samples.randomSpd(rnd, ell, 0.1, 2.0), r);
            sets[2].setBox(m, var, r);
            for (TauSet set : sets) {
                double min0 = solver.minimum(set, a, g, 0.0, null, result);
                // Shift so that the minimum lands on either side of zero.
                double f0 = -min0 + (rnd.nextDouble() - 0.5) * 2.0;
                double exact = min0 + f0;
                if (Math.abs(exact) < 1e-6) {
                    continue;
                }
                boolean sign = solver.minAtLeastZero(set, a, g, f0, result);
                assertEquals(exact >= 0, sign, "instance " + inst + " " + set.shape() + ": min " + exact);
                // Whatever exit was taken, the reported bound is a certified lower bound.
                assertTrue(result.bound() <= exact + 1e-12, "instance " + inst + " " + set.shape());
                if (sign) {
                    positives++;
                } else {
                    negatives++;
                }
            }
        }
        assertTrue(positives > 300 && negatives > 300, positives + " / " + negatives);
    }

    @Test
    void zeroCovarianceGivesThePointSetAndZeroVarianceFixesACoordinate() {
        QuadraticMinMax solver = new QuadraticMinMax(3);
        TauSet set = new TauSet(3);
        double[] m = {1.0, -2.0, 0.5};
        double[] a = {-1.0, 2.0, -0.5};
        double[] g = {0.3, -0.7, 1.1};
        set.setDiagonalEllipsoid(m, new double[3], 2.0);
        assertEquals(TauSet.Shape.POINT, set.shape());
        double[] y = new double[3];
        assertEquals(0.25, solver.minimum(set, a, g, 0.25, y, result));
        assertEquals(1.0, y[0]);
        set.setFullEllipsoid(m, new DMatrixRMaj(3, 3), 2.0);
        assertEquals(TauSet.Shape.POINT, set.shape());
        assertEquals(0.25, solver.maximum(set, a, g, 0.25, y, result));
        set.setBox(m, new double[3], 2.0);
        assertEquals(TauSet.Shape.POINT, set.shape());
        assertTrue(solver.minAtLeastZero(set, a, g, 0.0, result));
        assertFalse(solver.minAtLeastZero(set, a, g, -1e-300, result));

        set.setDiagonalEllipsoid(m, new double[] {1.0, 0.0, 1.0}, 2.0);
        solver.minimum(set, a, g, 0.0, y, result);
        assertEquals(-2.0, y[1], "the exactly known coordinate stays at m");
        DMatrixRMaj e = new DMatrixRMaj(new double[][] {{1, 0, 0.5}, {0, 0, 0}, {0.5, 0, 1}});
        set.setFullEllipsoid(m, e, 2.0);
        solver.minimum(set, a, g, 0.0, y, result);
        assertEquals(-2.0, y[1], 1e-12, "the exactly known coordinate stays at m (full path)");
        assertTrue(set.contains(y, FEASIBILITY_TOL));
    }

    @Test
    void diagonalShapesDoNotAllocatePerCall() {
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        SplittableRandom rnd = new SplittableRandom(61);
        int ell = 30;
        QuadraticMinMax solver = new QuadraticMinMax(ell);
        TauSet ellipsoid = new TauSet(ell);
        TauSet box = new TauSet(ell);
        double[] m = Samples.gaussianVector(rnd, ell, 1.0);
        double[] var = Samples.uniformVector(rnd, ell, 0.1, 2.0);
        double[] a = Samples.uniformVector(rnd, ell, -1.0, 1.0);
        double[] g = Samples.gaussianVector(rnd, ell, 1.0);
        double[] y = new double[ell];
        Runnable work = () -> {
            for (int k = 0; k < 2000; k++) {
                ellipsoid.setDiagonalEllipsoid(m, var, 1.0 + 0.001 * k);
                box.setBox(m, var, 1.0 + 0.001 * k);
                solver.minimum(ellipsoid, a, g, 0.0, y, result);
                solver.minAtLeastZero(ellipsoid, a, g, 0.1 * k, result);
                solver.maximum(box, a, g, 0.0, y, result);
            }
        };
        work.run();
        long tid = Thread.currentThread().getId();
        long before = bean.getThreadAllocatedBytes(tid);
        work.run();
        long allocated = bean.getThreadAllocatedBytes(tid) - before;
        // 10,000 calls: even one 16-byte object per call would show as 160 kB; allow a little JVM noise.
        assertTrue(allocated < 4096, allocated + " bytes allocated");
    }

    @Test
    void shapeMismatchesNameBothSizes() {
        QuadraticMinMax solver = new QuadraticMinMax(4);
        TauSet set = new TauSet(4);
        set.setDiagonalEllipsoid(new double[4], new double[] {1, 1, 1, 1}, 1.0);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> solver.minimum(set, new double[3], new double[4], 0, null, result));
        assertTrue(e.getMessage().contains("3") && e.getMessage().contains("4"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> solver.minimum(set, new double[4], new double[] {0, Double.NaN, 0, 0}, 0, null, result));
        IllegalArgumentException big = assertThrows(
                IllegalArgumentException.class, () -> new TauSet(2).setBox(new double[3], new double[3], 1));
        assertTrue(big.getMessage().contains("3") && big.getMessage().contains("2"), big.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> set.setDiagonalEllipsoid(new double[2], new double[] {1, -0.5}, 1.0));
        DMatrixRMaj indefinite = new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}});
        assertThrows(IllegalArgumentException.class, () -> set.setFullEllipsoid(new double[2], indefinite, 1.0));
    }

    // ---------------------------------------------------------------- helpers

    static void assertAttained(
            TauSet set,
            double[] m,
            double[] a,
            double[] g,
            double f0,
            double[] y,
            double value,
            double scale,
            String what) {
        assertTrue(set.contains(y, FEASIBILITY_TOL), what + ": optimiser outside the set");
        assertEquals(value, Samples.eval(m, a, g, f0, y), VALUE_TOL * scale, what + ": value not attained");
    }

    static double[] diagonalSample(SplittableRandom rnd, double[] m, double[] var, double r, boolean boundary) {
        double[] z = Samples.ballPoint(rnd, m.length, boundary);
        double[] y = m.clone();
        // Coordinates with zero variance contribute nothing; the rest of z still has norm ≤ 1.
        for (int i = 0; i < m.length; i++) {
            y[i] += Math.sqrt(var[i]) * r * z[i];
        }
        return y;
    }

    private static double scaleOf(double[] a, double[] g, double f0, double[] var, double r) {
        double s = 1.0 + Math.abs(f0);
        double gEg = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i]) * var[i] * r * r;
            gEg += g[i] * g[i] * var[i];
        }
        return s + r * Math.sqrt(gEg);
    }

    /** Like {@link #scaleOf} for a full E, with λ_max(E) ≤ trace(E) and gᵀEg ≤ trace(E)‖g‖². */
    private static double scaleOfFull(double[] a, double[] g, double f0, DMatrixRMaj e, double r) {
        double trace = 0;
        for (int i = 0; i < e.numRows; i++) {
            trace += e.get(i, i);
        }
        double s = 1.0 + Math.abs(f0) + r * Math.sqrt(trace * Samples.dot(g, g));
        for (double v : a) {
            s += Math.abs(v) * trace * r * r;
        }
        return s;
    }

    static double[] half(double[] h) {
        double[] a = new double[h.length];
        for (int i = 0; i < h.length; i++) {
            a[i] = 0.5 * h[i];
        }
        return a;
    }
}
