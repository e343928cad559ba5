package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class MomentAccumulatorTest {
    /**
     * Welford's scatter on data with mean 1e8 and unit spread is accurate to ~n·ε·spread² relative to
     * the spread (not to the mean²); 1e-8 relative is generous for n = 1000 yet the textbook
     * Σxxᵀ − n·x̄x̄ᵀ is off by ~ε·mean² = 1e16·2e-16 ≈ 1 per sample, i.e. O(1) relative — the test below
     * checks that it would fail.
     */
    static final double OFFSET_REL_TOL = 1e-8;

    @Test
    void welfordIsExactWhereTheTextbookFormulaCollapses() {
        int n = 1000;
        int d = 3;
        SplittableRandom rng = new SplittableRandom(5);
        double[][] rows = new double[n][d];
        for (double[] r : rows) {
            for (int i = 0; i < d; i++) {
                r[i] = 1e8 + (i + 1) * rng.nextGaussian();
            }
        }
        MomentAccumulator acc = new MomentAccumulator(d);
        for (double[] r : rows) {
            acc.add(r);
        }
        DMatrixRMaj scatter = new DMatrixRMaj(d, d);
        acc.scatter(scatter);
        double[][] exact = exactScatter(rows);
        double naiveWorst = 0.0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double tol = OFFSET_REL_TOL * Math.sqrt(exact[i][i] * exact[j][j]);
                assertEquals(exact[i][j], scatter.get(i, j), tol, "scatter[" + i + "][" + j + "]");
                double sxx = 0.0;
                double sx = 0.0;
                double sy = 0.0;
                for (double[] r : rows) {
                    sxx += r[i] * r[j];
                    sx += r[i];
                    sy += r[j];
                }
                double naive = sxx - sx * sy / n;
                naiveWorst = Math.max(naiveWorst, Math.abs(naive - exact[i][j]) / tol);
            }
        }
        assertTrue(naiveWorst > 1.0, "the textbook formula must fail this tolerance, else the test is toothless");
        double[] mean = new double[d];
        acc.mean(mean);
        for (int i = 0; i < d; i++) {
            assertEquals(1e8, mean[i], 1.0);
        }
        assertEquals(n, acc.count());
    }

    @Test
    void mergeEqualsSequentialAccumulation() {
        SplittableRandom rng = new SplittableRandom(9);
        int d = 5;
        MomentAccumulator all = new MomentAccumulator(d);
        MomentAccumulator a = new MomentAccumulator(d);
        MomentAccumulator b = new MomentAccumulator(d);
        for (int k = 0; k < 301; k++) {
            double[] x = GaussTestSupport.randomVector(d, 1.0, rng);
            x[0] += 50.0;
            all.add(x);
            (k < 100 ? a : b).add(x);
        }
        a.merge(b);
        a.merge(new MomentAccumulator(d)); // empty: no-op
        DMatrixRMaj sa = new DMatrixRMaj(d, d);
        DMatrixRMaj sall = new DMatrixRMaj(d, d);
        a.scatter(sa);
        all.scatter(sall);
        // 301 O(1) terms summed in two orders: ~1e-13 absolute; the scatter itself is O(300).
        assertArrayEquals(sall.data, sa.data, 1e-10);
        double[] ma = new double[d];
        double[] mall = new double[d];
        a.mean(ma);
        all.mean(mall);
        assertArrayEquals(mall, ma, 1e-12);
        assertEquals(301, a.count());
        MomentAccumulator empty = new MomentAccumulator(d);
        empty.merge(all);
        empty.scatter(sa);
        assertArrayEquals(sall.data, sa.data, 0.0);
    }

    @Test
    void shapeChecksNameBothSizes() {
        MomentAccumulator acc = new MomentAccumulator(4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> acc.add(new double[3]));
        assertTrue(e.getMessage().contains("3") && e.getMessage().contains("4"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> acc.merge(new MomentAccumulator(2)));
        assertThrows(IllegalArgumentException.class, () -> acc.scatter(new DMatrixRMaj(4, 3)));
        assertThrows(IllegalArgumentException.class, () -> acc.add(new double[] {1, 2, Double.NaN, 4}));
        assertThrows(IllegalArgumentException.class, () -> new MomentAccumulator(0));
    }

    /** Exact scatter with BigDecimal (the doubles are exact binary fractions; 50 digits suffice). */
    private static double[][] exactScatter(double[][] rows) {
        int n = rows.length;
        int d = rows[0].length;
        MathContext mc = new MathContext(50);
        BigDecimal[] mean = new BigDecimal[d];
        for (int i = 0; i < d; i++) {
            BigDecimal s = BigDecimal.ZERO;
            for (double[] r : rows) {
                s = s.add(new BigDecimal(r[i]));
            }
            mean[i] = s.divide(BigDecimal.valueOf(n), mc);
        }
        double[][] out = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                BigDecimal s = BigDecimal.ZERO;
                for (double[] r : rows) {
                    s = s.add(new BigDecimal(r[i])
                            .subtract(mean[i])
                            .multiply(new BigDecimal(r[j]).subtract(mean[j]), mc));
                }
                out[i][j] = s.doubleValue();
            }
        }
        return out;
    }
}
