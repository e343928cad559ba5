package io.vigil.classify.qda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link ClassGaussianSearch} shares: bit-for-bit the Gaussians of {@link
 * LocalQda#classGaussians} along a query walk that moves by known steps (the joint estimator's m_y), is reset to
 * the start (the next series) and jumps (a state handed to another series), on points with exact ties; and a
 * workspace or storage of another model is rejected.
 */
class ClassGaussianSearchContractTest {
    private static final int DIM = 5;
    private static final int STEPS = 120;

    record Setup(LocalQda model, double[][] gains) {}

    static Stream<Arguments> searches() {
        Function<Setup, ClassGaussianSearch> full = s -> s.model().fullSearch();
        Function<Setup, ClassGaussianSearch> cache = s -> s.model().newNeighborCache(0);
        Function<Setup, ClassGaussianSearch> defaultCache =
                s -> s.model().searches(null).newSearch();
        Function<Setup, ClassGaussianSearch> anchored = s -> s.model().newAnchorCache();
        Function<Setup, ClassGaussianSearch> dots =
                s -> s.model().searches(s.gains()).newSearch();
        Function<Setup, ClassGaussianSearch> trees = s -> s.model().newTreeSearch(1);
        return Stream.of(
                Arguments.of("full search", full),
                Arguments.of("neighbor cache (bounds for every class)", cache),
                Arguments.of("neighbor cache (default)", defaultCache),
                Arguments.of("anchor cache", anchored),
                Arguments.of("dot screening", dots),
                Arguments.of("k-d trees", trees));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("searches")
    void givesTheFullSearchGaussiansBitForBit(String name, Function<Setup, ClassGaussianSearch> make) {
        SplittableRandom rnd = new SplittableRandom(5);
        int n = 300;
        int classes = 3;
        double[][] pts = new double[n][DIM];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = rnd.nextInt(classes);
            for (int t = 0; t < DIM; t++) {
                pts[i][t] = rnd.nextInt(5) - 2 + y[i]; // a small grid: many tied distances
            }
        }
        double[][] gains = new double[STEPS][DIM];
        for (int s = 0; s < STEPS; s++) {
            for (int t = 0; t < DIM; t++) {
                gains[s][t] = rnd.nextGaussian() * 0.4 / Math.sqrt(s + 1.0);
            }
        }
        for (int k : new int[] {1, 9, 150}) {
            LocalQda model = LocalQda.fit(pts, y, classes, k);
            ClassGaussianSearch search = make.apply(new Setup(model, gains));
            assertEquals(model, search.model());
            LocalQda.Workspace ws = model.newWorkspace();
            ClassGaussians got = model.newClassGaussians();
            ClassGaussians want = model.newClassGaussians();
            double[] q = new double[DIM];
            int step = 0;
            for (int iter = 0; iter < 600; iter++) {
                if (step == STEPS || rnd.nextInt(100) == 0) {
                    step = 0;
                    for (int t = 0; t < DIM; t++) {
                        q[t] = rnd.nextInt(3) - 1;
                    }
                } else if (rnd.nextInt(100) == 0) {
                    q[0] += 3; // a jump the step does not explain
                }
                double e = rnd.nextGaussian();
                for (int t = 0; t < DIM; t++) {
                    q[t] += gains[step][t] * e;
                }
                search.find(q, step, e, ws, got);
                model.classGaussians(q, ws, want);
                for (int g = 0; g < classes; g++) {
                    String what = name + ", k = " + k + ", iteration " + iter + ", class " + g;
                    assertArrayEquals(want.mean(g), got.mean(g), 0.0, what);
                    assertArrayEquals(want.variance(g), got.variance(g), 0.0, what);
                    assertEquals(want.logPrior(g), got.logPrior(g), 0.0, what);
                }
                step++;
            }
            LocalQda other = LocalQda.fit(pts, y, classes, k);
            assertThrows(IllegalArgumentException.class, () -> search.find(q, -1, 0, other.newWorkspace(), got));
            assertThrows(IllegalArgumentException.class, () -> search.find(q, -1, 0, ws, new ClassGaussians(2, DIM)));
        }
    }
}
