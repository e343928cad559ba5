package io.vigil.classify.qda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The anchor cache on queries that move like the any-order conditional mean: many series, each a walk whose steps
 * shrink as values accumulate and point in random directions, with occasional large jumps (a value far from those
 * seen) and series handed over without a reset. Every query's Gaussians must equal the full search's bit for bit,
 * and the certificates must actually settle most class searches, so the shortcut is what is tested.
 */
class AnchorCacheTest {
    @Test
    void givesTheFullSearchGaussiansOnRandomWalksAndCertifiesMostSearches() {
        SplittableRandom rnd = new SplittableRandom(26);
        int dim = 12;
        int classes = 4;
        int n = 240;
        double[][] centres = new double[classes][dim];
        for (double[] c : centres) {
            for (int t = 0; t < dim; t++) {
                c[t] = 4 * rnd.nextGaussian();
            }
        }
        double[][] pts = new double[n][dim];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % classes;
            for (int t = 0; t < dim; t++) {
                pts[i][t] = centres[y[i]][t] + rnd.nextGaussian();
            }
        }
        for (int k : new int[] {1, 7, 40}) {
            LocalQda model = LocalQda.fit(pts, y, classes, k);
            AnchorCache cache = model.newAnchorCache();
            LocalQda.Workspace ws = model.newWorkspace();
            ClassGaussians got = model.newClassGaussians();
            ClassGaussians want = model.newClassGaussians();
            long searches = 0;
            for (int series = 0; series < 30; series++) {
                double[] q = new double[dim];
                for (int t = 0; t < dim; t++) {
                    q[t] = 3 * rnd.nextGaussian();
                }
                int values = 200;
                for (int v = 1; v <= values; v++) {
                    double scale = (rnd.nextInt(50) == 0 ? 3.0 : 0.5) / Math.sqrt(v);
                    for (int t = 0; t < dim; t++) {
                        q[t] += scale * rnd.nextGaussian();
                    }
                    cache.find(q, -1, 0.0, ws, got);
                    model.classGaussians(q, ws, want);
                    searches += classes;
                    for (int g = 0; g < classes; g++) {
                        String what = "k = " + k + ", series " + series + ", value " + v + ", class " + g;
                        assertArrayEquals(want.mean(g), got.mean(g), 0.0, what);
                        assertArrayEquals(want.variance(g), got.variance(g), 0.0, what);
                    }
                }
            }
            assertTrue(
                    cache.fullSearches() < searches / 3,
                    "k = " + k + ": " + cache.fullSearches() + " of " + searches + " class searches were full");
        }
    }
}
