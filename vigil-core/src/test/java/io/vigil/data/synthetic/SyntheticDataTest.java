package io.vigil.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SyntheticDataTest {
    /** Exact-arithmetic shapes are built from a handful of operations on small numbers. */
    private static final double EXACT = 1e-12;
    /** Z-normalised mean and sd are within rounding of 0 and 1 for series of ≤ 128 samples. */
    private static final double NORMALISED = 1e-9;

    @ParameterizedTest
    @EnumSource(SyntheticKind.class)
    void shapeCountsAndNormalisation(SyntheticKind kind) {
        int g = kind.classes().size();
        TrainTest tt = SyntheticData.generate(kind, 2 * g + 1, 5 * g, 7);
        assertEquals(kind.datasetName(), tt.name());
        assertEquals(2 * g + 1, tt.train().size());
        assertEquals(5 * g, tt.test().size());
        assertEquals(kind.length(), tt.train().seriesLength());
        assertEquals(kind.channels(), tt.train().channels());
        assertEquals(kind.classes(), tt.train().classNames());
        assertEquals(kind.classes(), tt.test().classNames());
        int[] trainCounts = new int[g];
        Arrays.fill(trainCounts, 2);
        trainCounts[0] = 3;
        assertArrayEquals(trainCounts, tt.train().classCounts());
        int[] testCounts = new int[g];
        Arrays.fill(testCounts, 5);
        assertArrayEquals(testCounts, tt.test().classCounts());
        for (Dataset ds : List.of(tt.train(), tt.test())) {
            for (int i = 0; i < ds.size(); i++) {
                double[] x = channel(ds, i, ds.channels() - 1);
                double mean = Arrays.stream(x).average().orElseThrow();
                double ss = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum();
                assertEquals(0, mean, NORMALISED);
                assertEquals(1, Math.sqrt(ss / (x.length - 1)), NORMALISED);
            }
        }
    }

    /** Channel c of series i: each channel is z-normalised on its own. */
    private static double[] channel(Dataset ds, int i, int c) {
        double[] x = new double[ds.seriesLength()];
        for (int t = 0; t < x.length; t++) {
            x[t] = ds.value(i, c, t);
        }
        return x;
    }

    @ParameterizedTest
    @EnumSource(SyntheticKind.class)
    void sameSeedSameDataOtherSeedOtherData(SyntheticKind kind) {
        TrainTest a = SyntheticData.generate(kind, 12, 12, 99);
        TrainTest b = SyntheticData.generate(kind, 12, 12, 99);
        TrainTest c = SyntheticData.generate(kind, 12, 12, 100);
        assertTrue(Arrays.deepEquals(a.train().rows(), b.train().rows()));
        assertTrue(Arrays.deepEquals(a.test().rows(), b.test().rows()));
        assertFalse(Arrays.deepEquals(a.train().rows(), c.train().rows()));
        assertFalse(Arrays.deepEquals(a.test().rows(), c.test().rows()));
        assertFalse(Arrays.deepEquals(a.train().rows(), a.test().rows()), "train and test must differ");
        // Series i does not depend on the split size.
        TrainTest longer = SyntheticData.generate(kind, 20, 3, 99);
        assertArrayEquals(a.train().series(11), longer.train().series(11));
        assertArrayEquals(a.test().series(2), longer.test().series(2));
    }

    @Test
    void sizesAreValidated() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SyntheticData.generate(SyntheticKind.CBF, 2, 10, 1));
        assertTrue(e.getMessage().contains("at least 3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SyntheticData.generate(SyntheticKind.CBF, 3, 0, 1));
        assertEquals(SyntheticKind.SYNTHETIC_CONTROL, SyntheticKind.fromName("synthetic-control"));
        assertEquals(SyntheticKind.TWO_PATTERNS, SyntheticKind.fromName("TwoPatterns"));
        IllegalArgumentException k = assertThrows(IllegalArgumentException.class, () -> SyntheticKind.fromName("sine"));
        assertTrue(k.getMessage().contains("cbf, synthetic-control, two-patterns"), k.getMessage());
    }

    @Test
    void cbfNoiselessShapesMatchTheDefinition() {
        SplittableRandom rnd = new SplittableRandom(3);
        double[] x = new double[Cbf.LENGTH];
        for (int rep = 0; rep < 200; rep++) {
            for (int cls = 0; cls < 3; cls++) {
                Cbf.Shape s = Cbf.draw(cls, rnd, 0.0, x);
                assertTrue(s.a() >= 16 && s.a() <= 32, "a = " + s.a());
                assertTrue(s.b() - s.a() >= 32 && s.b() - s.a() <= 96 && s.b() <= 128, "b = " + s.b());
                double h = 6 + s.eta();
                for (int t = 1; t <= 128; t++) {
                    double expected = 0;
                    if (t >= s.a() && t <= s.b()) {
                        expected = switch (cls) {
                            case Cbf.CYLINDER -> h;
                            case Cbf.BELL -> h * (t - s.a()) / (s.b() - s.a());
                            default -> h * (s.b() - t) / (s.b() - s.a());
                        };
                    }
                    assertEquals(expected, x[t - 1], EXACT, "class " + cls + " t " + t);
                }
            }
        }
    }

    @Test
    void cbfRawNoisyClassesShowTheirShapeOnTheEvent() {
        // Compare the mean of the first and second half of [a, b] on the raw noisy series: flat for a cylinder,
        // rising for a bell, falling for a funnel. Each half has >= 16 samples of N(0,1) noise, so the
        // difference has sd <= 0.36 while a bell/funnel differs by (6 + eta)/2 ~ 3.
        SplittableRandom rnd = new SplittableRandom(11);
        double[] x = new double[Cbf.LENGTH];
        for (int rep = 0; rep < 100; rep++) {
            for (int cls = 0; cls < 3; cls++) {
                Cbf.Shape s = Cbf.draw(cls, rnd, 1.0, x);
                int mid = (s.a() + s.b()) / 2;
                double first = mean(x, s.a() - 1, mid);
                double second = mean(x, mid, s.b());
                double diff = second - first;
                switch (cls) {
                    case Cbf.CYLINDER -> assertTrue(Math.abs(diff) < 1.5, "cylinder not flat: " + diff);
                    case Cbf.BELL -> assertTrue(diff > 1.0, "bell not rising: " + diff);
                    default -> assertTrue(diff < -1.0, "funnel not falling: " + diff);
                }
                assertTrue(Math.abs(mean(x, 0, s.a() - 1)) < 1.5, "background not centred");
            }
        }
    }

    @Test
    void syntheticControlNoiselessPatternsMatchTheDefinition() {
        SplittableRandom rnd = new SplittableRandom(5);
        double[] x = new double[SyntheticControl.LENGTH];
        for (int rep = 0; rep < 100; rep++) {
            for (int cls = 0; cls < 6; cls++) {
                SyntheticControl.Params p = SyntheticControl.draw(cls, rnd, 0.0, x);
                for (int t = 1; t <= 60; t++) {
                    double expected = 30
                            + switch (cls) {
                                case SyntheticControl.CYCLIC -> p.amplitude() * Math.sin(2 * Math.PI * t / p.period());
                                case SyntheticControl.INCREASING -> p.slope() * t;
                                case SyntheticControl.DECREASING -> -p.slope() * t;
                                case SyntheticControl.UP_SHIFT -> t >= p.shiftTime() ? p.shift() : 0;
                                case SyntheticControl.DOWN_SHIFT -> t >= p.shiftTime() ? -p.shift() : 0;
                                default -> 0;
                            };
                    assertEquals(expected, x[t - 1], EXACT, "class " + cls + " t " + t);
                }
                if (cls == SyntheticControl.CYCLIC) {
                    assertTrue(p.amplitude() >= 10 && p.amplitude() < 15 && p.period() >= 10 && p.period() < 15);
                } else if (cls == SyntheticControl.INCREASING || cls == SyntheticControl.DECREASING) {
                    assertTrue(p.slope() >= 0.2 && p.slope() < 0.5, "slope " + p.slope());
                } else if (cls >= SyntheticControl.UP_SHIFT) {
                    assertTrue(p.shift() >= 7.5 && p.shift() < 20 && p.shiftTime() >= 20 && p.shiftTime() < 40);
                }
            }
        }
    }

    @Test
    void syntheticControlRawTrendSlopeSignAndShiftDirection() {
        // Raw generator output through the public API: classes "3"/"4" have least-squares slopes >= 0.2 in
        // magnitude (noise U(-6,6) gives slope sd ~0.026 over 60 samples); "5"/"6" shift the second third.
        TrainTest tt = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 60, 6, 21, true);
        Dataset ds = tt.train();
        for (int i = 0; i < ds.size(); i++) {
            double[] x = ds.series(i);
            double slope = slope(x);
            double shift = mean(x, 40, 60) - mean(x, 0, 20);
            switch (ds.labelOf(i)) {
                case "1" -> assertTrue(Math.abs(slope) < 0.12 && Math.abs(shift) < 4, "normal: " + slope);
                case "3" -> assertTrue(slope > 0.12, "increasing trend slope " + slope);
                case "4" -> assertTrue(slope < -0.12, "decreasing trend slope " + slope);
                case "5" -> assertTrue(shift > 5, "upward shift " + shift);
                case "6" -> assertTrue(shift < -5, "downward shift " + shift);
                default -> assertEquals("2", ds.labelOf(i));
            }
            for (double v : x) {
                assertTrue(Double.isFinite(v));
            }
        }
    }

    @Test
    void twoPatternsNoiselessStepsAndOrder() {
        SplittableRandom rnd = new SplittableRandom(8);
        double[] x = new double[TwoPatterns.LENGTH];
        for (int rep = 0; rep < 200; rep++) {
            for (int cls = 0; cls < 4; cls++) {
                TwoPatterns.Placement p = TwoPatterns.draw(cls, rnd, 0.0, x);
                assertTrue(p.start1() + p.length1() <= p.start2(), "patterns overlap or out of order: " + p);
                assertTrue(p.start2() + p.length2() <= 128);
                assertEquals(cls == 0 || cls == 1, p.up1());
                assertEquals(cls == 0 || cls == 2, p.up2());
                for (int t = 0; t < 128; t++) {
                    double expected = 0;
                    if (t >= p.start1() && t < p.start1() + p.length1()) {
                        boolean firstHalf = t < p.start1() + p.length1() / 2;
                        expected = (firstHalf == p.up1()) ? -5 : 5;
                    } else if (t >= p.start2() && t < p.start2() + p.length2()) {
                        boolean firstHalf = t < p.start2() + p.length2() / 2;
                        expected = (firstHalf == p.up2()) ? -5 : 5;
                    }
                    assertEquals(expected, x[t], EXACT, "class " + cls + " t " + t);
                }
            }
        }
    }

    @Test
    void twoPatternsRawPatternOrderIsReadableFromTheData() {
        // In raw output the patterns are the only samples exactly equal to +-5 (the background is continuous
        // Gaussian noise). Each pattern is two equal runs of opposite sign; adjacent patterns may merge runs of
        // the same sign, so runs are consumed half by half. The directions read off must spell the class.
        TrainTest tt = SyntheticData.generate(SyntheticKind.TWO_PATTERNS, 200, 4, 13, true);
        Dataset ds = tt.train();
        String[] names = {"up-up", "up-down", "down-up", "down-down"};
        for (int i = 0; i < ds.size(); i++) {
            assertEquals(names[ds.classOf(i)], readPatterns(ds.series(i)), "series " + i + " label " + ds.labelOf(i));
        }
    }

    /** Reads the pattern directions from runs of exactly +-5, e.g. "up-down". */
    private static String readPatterns(double[] x) {
        List<double[]> runs = new java.util.ArrayList<>(); // {value, length}
        for (int t = 0; t < x.length; t++) {
            if (Math.abs(x[t]) != TwoPatterns.LEVEL) {
                continue;
            }
            double[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last[0] == x[t] && t > 0 && x[t - 1] == x[t]) {
                last[1]++;
            } else {
                runs.add(new double[] {x[t], 1});
            }
        }
        StringBuilder order = new StringBuilder();
        int k = 0;
        while (k < runs.size()) {
            double[] first = runs.get(k);
            double[] second = runs.get(k + 1);
            assertEquals(-first[0], second[0], "a pattern is two runs of opposite sign");
            assertTrue(second[1] >= first[1], "second half shorter than the first");
            order.append(order.length() > 0 ? "-" : "").append(first[0] < 0 ? "up" : "down");
            second[1] -= first[1];
            k += second[1] == 0 ? 2 : 1;
        }
        return order.toString();
    }

    @Test
    void zNormaliseHandlesConstantSeries() {
        double[] c = {3, 3, 3};
        SyntheticData.zNormalise(c);
        assertArrayEquals(new double[] {0, 0, 0}, c);
        double[] x = {1, 2, 3};
        SyntheticData.zNormalise(x);
        assertArrayEquals(new double[] {-1, 0, 1}, x, EXACT);
    }

    private static double mean(double[] x, int from, int to) {
        double s = 0;
        for (int t = from; t < to; t++) {
            s += x[t];
        }
        return s / (to - from);
    }

    private static double slope(double[] x) {
        double tm = (x.length - 1) / 2.0;
        double xm = mean(x, 0, x.length);
        double num = 0;
        double den = 0;
        for (int t = 0; t < x.length; t++) {
            num += (t - tm) * (x[t] - xm);
            den += (t - tm) * (t - tm);
        }
        return num / den;
    }
}
