package io.vigil.reliability;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;

/** Test helpers: evaluation of expanded quadratics, random instances and point sampling of sets. */
final class Samples {
    private Samples() {}

    /** f(y) = f0 + Σ g_i (y_i − m_i) + Σ a_i (y_i − m_i)². */
    static double eval(double[] m, double[] a, double[] g, double f0, double[] y) {
        double s = f0;
        for (int i = 0; i < m.length; i++) {
            double u = y[i] - m[i];
            s += g[i] * u + a[i] * u * u;
        }
        return s;
    }

    static double gaussian(SplittableRandom rnd) {
        // Box–Muller; fine for tests.
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2.0 * Math.log(1.0 - u1)) * Math.cos(2.0 * Math.PI * u2);
    }

    static double[] gaussianVector(SplittableRandom rnd, int n, double scale) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = scale * gaussian(rnd);
        }
        return v;
    }

    static double[] uniformVector(SplittableRandom rnd, int n, double lo, double hi) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + (hi - lo) * rnd.nextDouble();
        }
        return v;
    }

    /** A unit-ball point: uniform inside when {@code boundary} is false, uniform on the sphere when true. */
    static double[] ballPoint(SplittableRandom rnd, int k, boolean boundary) {
        double[] z = gaussianVector(rnd, k, 1.0);
        double n = 0.0;
        for (double v : z) {
            n += v * v;
        }
        n = Math.sqrt(n);
        double rad = boundary ? 1.0 : Math.pow(rnd.nextDouble(), 1.0 / k);
        for (int i = 0; i < k; i++) {
            z[i] *= rad / n;
        }
        return z;
    }

    /** Random SPD matrix Q diag(λ) Qᵀ with eigenvalues in [lo, hi] (Q from Gram–Schmidt of a Gaussian matrix). */
    static DMatrixRMaj randomSpd(SplittableRandom rnd, int n, double lo, double hi) {
        double[][] q = new double[n][];
        for (int j = 0; j < n; j++) {
            double[] v = gaussianVector(rnd, n, 1.0);
            for (int p = 0; p < j; p++) {
                double d = dot(v, q[p]);
                for (int i = 0; i < n; i++) {
                    v[i] -= d * q[p][i];
                }
            }
            double nv = Math.sqrt(dot(v, v));
            for (int i = 0; i < n; i++) {
                v[i] /= nv;
            }
            q[j] = v;
        }
        double[] lambda = uniformVector(rnd, n, lo, hi);
        DMatrixRMaj e = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                double s = 0.0;
                for (int j = 0; j < n; j++) {
                    s += q[j][i] * lambda[j] * q[j][k];
                }
                e.set(i, k, s);
            }
        }
        return e;
    }

    /** Lower Cholesky factor of an SPD matrix (plain textbook loop, independent of EJML). */
    static double[][] cholesky(DMatrixRMaj e) {
        int n = e.numRows;
        double[][] l = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = 0.5 * (e.get(i, j) + e.get(j, i));
                for (int k = 0; k < j; k++) {
                    s -= l[i][k] * l[j][k];
                }
                l[i][j] = i == j ? Math.sqrt(s) : s / l[j][j];
            }
        }
        return l;
    }

    static double[] times(double[][] l, double[] z) {
        double[] y = new double[l.length];
        for (int i = 0; i < l.length; i++) {
            for (int j = 0; j < z.length; j++) {
                y[i] += l[i][j] * z[j];
            }
        }
        return y;
    }

    static double dot(double[] a, double[] b) {
        double s = 0.0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double[] plus(double[] m, double[] u) {
        double[] y = m.clone();
        for (int i = 0; i < m.length; i++) {
            y[i] += u[i];
        }
        return y;
    }
}
