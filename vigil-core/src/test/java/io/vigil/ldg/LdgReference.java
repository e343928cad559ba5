package io.vigil.ldg;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * A deliberately naive, independent LDG reference for tests: neighbour search with boxed sorting, V and A
 * summed literally as d×d outer products of Δ vectors (thesis eq. 3.9–3.10).
 */
final class LdgReference {
    private LdgReference() {}

    /** μ<sub>i,j</sub> per the rules of the thesis (k capped, self excluded, ties by index); null if empty. */
    static double[] localMean(double[][] x, int[] y, int i, int j, int k) {
        List<Integer> cands = new ArrayList<>();
        for (int q = 0; q < x.length; q++) {
            if (q != i && y[q] == j) {
                cands.add(q);
            }
        }
        if (cands.isEmpty()) {
            return null;
        }
        cands.sort(Comparator.comparingDouble((Integer q) -> dist2(x[i], x[q])).thenComparingInt(q -> q));
        int kk = Math.min(k, cands.size());
        double[] mu = new double[x[0].length];
        for (int p = 0; p < kk; p++) {
            for (int t = 0; t < mu.length; t++) {
                mu[t] += x[cands.get(p)][t] / kk;
            }
        }
        return mu;
    }

    static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            s += (a[t] - b[t]) * (a[t] - b[t]);
        }
        return s;
    }

    /** V (3.9) as a d×d matrix. */
    static DMatrixRMaj within(double[][] x, int[] y, int numClasses, int k) {
        int d = x[0].length;
        DMatrixRMaj v = new DMatrixRMaj(d, d);
        for (int i = 0; i < x.length; i++) {
            double[] mu = localMean(x, y, i, y[i], k);
            if (mu != null) {
                addOuter(v, diff(x[i], mu), 1.0);
            }
        }
        return v;
    }

    /** A (3.10) as a d×d matrix. */
    static DMatrixRMaj between(double[][] x, int[] y, int numClasses, int k) {
        int d = x[0].length;
        int[] counts = new int[numClasses];
        for (int c : y) {
            counts[c]++;
        }
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < numClasses; j++) {
                double[] mu = localMean(x, y, i, j, k);
                if (mu != null) {
                    addOuter(a, diff(x[i], mu), (double) counts[j] / x.length);
                }
            }
        }
        return a;
    }

    /** V − γA. */
    static DMatrixRMaj ldgMatrix(double[][] x, int[] y, int numClasses, LdgParams p) {
        DMatrixRMaj z = new DMatrixRMaj(x[0].length, x[0].length);
        CommonOps_DDRM.add(
                within(x, y, numClasses, p.neighbors()), -p.gamma(), between(x, y, numClasses, p.neighbors()), z);
        return z;
    }

    /** tr(Bᵀ Z B). */
    static double objective(DMatrixRMaj z, DMatrixRMaj b) {
        DMatrixRMaj zb = new DMatrixRMaj(z.numRows, b.numCols);
        CommonOps_DDRM.mult(z, b, zb);
        double s = 0;
        for (int i = 0; i < b.numRows; i++) {
            for (int c = 0; c < b.numCols; c++) {
                s += b.get(i, c) * zb.get(i, c);
            }
        }
        return s;
    }

    private static double[] diff(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int t = 0; t < a.length; t++) {
            out[t] = a[t] - b[t];
        }
        return out;
    }

    private static void addOuter(DMatrixRMaj m, double[] v, double w) {
        for (int a = 0; a < v.length; a++) {
            for (int b = 0; b < v.length; b++) {
                m.add(a, b, w * v[a] * v[b]);
            }
        }
    }

    /** Gaussian classes: row i of class c is means[c] + N(0, diag(sd²)). */
    static double[][] gaussians(int[] y, double[][] means, double[] sd, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[y.length][sd.length];
        for (int i = 0; i < y.length; i++) {
            for (int t = 0; t < sd.length; t++) {
                x[i][t] = means[y[i]][t] + sd[t] * gaussian(r);
            }
        }
        return x;
    }

    static double gaussian(SplittableRandom r) {
        double u1 = r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** Labels 0,0,..,1,1,.. with {@code perClass} of each of {@code classes}. */
    static int[] blocks(int classes, int perClass) {
        int[] y = new int[classes * perClass];
        for (int i = 0; i < y.length; i++) {
            y[i] = i / perClass;
        }
        return y;
    }

    /** Random data set with random class means, for shape/equivalence tests. */
    static double[][] randomData(int[] y, int numClasses, int d, double separation, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] means = new double[numClasses][d];
        for (double[] m : means) {
            for (int t = 0; t < d; t++) {
                m[t] = separation * gaussian(r);
            }
        }
        double[] sd = new double[d];
        for (int t = 0; t < d; t++) {
            sd[t] = 0.5 + r.nextDouble();
        }
        return gaussians(y, means, sd, r.nextLong());
    }
}
