package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Folds#groupedKFold} and {@link Folds#leaveOneGroupOut}: folds of windows grouped by recording. */
class GroupedFoldsTest {
    /** Windows of {@code recordings} recordings: per recording a random count of each class (background common). */
    private static int[][] windows(int recordings, int classes, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] counts = new int[recordings * classes];
        int n = 0;
        for (int r = 0; r < recordings; r++) {
            for (int c = 0; c < classes; c++) {
                counts[r * classes + c] = c == 0 ? 20 + rnd.nextInt(60) : rnd.nextInt(8);
                n += counts[r * classes + c];
            }
        }
        int[] y = new int[n];
        int[] g = new int[n];
        int i = 0;
        for (int r = 0; r < recordings; r++) {
            for (int c = 0; c < classes; c++) {
                for (int j = 0; j < counts[r * classes + c]; j++) {
                    y[i] = c;
                    g[i++] = 100 + 7 * r;
                }
            }
        }
        // interleave so that a recording's windows are not contiguous
        int[] perm = new int[n];
        for (int k = 0; k < n; k++) {
            perm[k] = k;
        }
        for (int k = n - 1; k > 0; k--) {
            int j = rnd.nextInt(k + 1);
            int t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        int[] ys = new int[n];
        int[] gs = new int[n];
        for (int k = 0; k < n; k++) {
            ys[k] = y[perm[k]];
            gs[k] = g[perm[k]];
        }
        return new int[][] {ys, gs};
    }

    @Test
    void noFoldSplitsAGroupOverSeeds() {
        for (long seed = 0; seed < 60; seed++) {
            int recordings = 2 + (int) (seed % 17);
            int[][] w = windows(recordings, 4, seed);
            int[] y = w[0];
            int[] g = w[1];
            int k = 2 + (int) (seed % 9);
            int[][] folds = Folds.groupedKFold(y, 4, g, k, seed * 31);
            assertEquals(Math.min(k, recordings), folds.length, "seed " + seed);
            boolean[] seen = new boolean[y.length];
            Set<Integer> claimed = new HashSet<>();
            for (int[] fold : folds) {
                assertTrue(fold.length > 0, "an empty fold at seed " + seed);
                Set<Integer> mine = new HashSet<>();
                for (int p = 0; p < fold.length; p++) {
                    assertFalse(seen[fold[p]], "index in two folds");
                    seen[fold[p]] = true;
                    if (p > 0) {
                        assertTrue(fold[p - 1] < fold[p], "sorted");
                    }
                    mine.add(g[fold[p]]);
                }
                for (int rec : mine) {
                    assertTrue(claimed.add(rec), "recording " + rec + " on both sides of a fold at seed " + seed);
                }
            }
            for (boolean s : seen) {
                assertTrue(s, "a partition");
            }
        }
    }

    @Test
    void singletonGroupsGiveTheStratifiedFolds() {
        for (long seed = 0; seed < 20; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = 5 + rnd.nextInt(80);
            int[] y = new int[n];
            int[] g = new int[n];
            for (int i = 0; i < n; i++) {
                y[i] = rnd.nextInt(3);
                g[i] = n - i;
            }
            y[0] = 0;
            for (int k : new int[] {2, 5, 10}) {
                int[][] grouped = Folds.groupedKFold(y, 3, g, k, seed);
                int[][] plain = Folds.stratifiedKFold(y, 3, k, seed);
                assertEquals(plain.length, grouped.length);
                for (int f = 0; f < plain.length; f++) {
                    assertArrayEquals(plain[f], grouped[f], "seed " + seed + " k " + k + " fold " + f);
                }
            }
        }
        assertArrayEquals(Folds.leaveOneOut(4), Folds.leaveOneGroupOut(new int[] {3, 2, 1, 0}));
    }

    @Test
    void balancesClassesAsFarAsGroupsAllow() {
        // 10 recordings, each with 30 background and 3 events: 5 folds of 2 recordings each, 6 events per fold.
        int[] y = new int[330];
        int[] g = new int[330];
        for (int r = 0; r < 10; r++) {
            for (int j = 0; j < 33; j++) {
                y[r * 33 + j] = j < 3 ? 1 : 0;
                g[r * 33 + j] = r;
            }
        }
        for (long seed = 0; seed < 10; seed++) {
            int[][] folds = Folds.groupedKFold(y, 2, g, 5, seed);
            for (int[] fold : folds) {
                int events = 0;
                for (int i : fold) {
                    events += y[i];
                }
                assertEquals(66, fold.length);
                assertEquals(6, events);
            }
        }
        // events in only 4 of 8 recordings: 4 folds get one event recording each.
        int[] y2 = new int[80];
        int[] g2 = new int[80];
        for (int r = 0; r < 8; r++) {
            for (int j = 0; j < 10; j++) {
                y2[r * 10 + j] = r % 2 == 0 && j < 4 ? 1 : 0;
                g2[r * 10 + j] = r;
            }
        }
        int[][] folds = Folds.groupedKFold(y2, 2, g2, 4, 3L);
        for (int[] fold : folds) {
            int events = 0;
            for (int i : fold) {
                events += y2[i];
            }
            assertEquals(4, events, "each fold holds one of the four event recordings");
        }
    }

    @Test
    void foldsAreCappedAtTheRecordingsAndOneRecordingIsRefused() {
        int[] y = {0, 1, 0, 1, 0, 1};
        int[] g = {0, 0, 1, 1, 2, 2};
        int[][] folds = Folds.groupedKFold(y, 2, g, 10, 1L);
        assertEquals(3, folds.length);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Folds.groupedKFold(y, 2, new int[6], 5, 1L));
        assertTrue(e.getMessage().contains("at least 2 groups (recordings)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Folds.leaveOneGroupOut(new int[6]));
        assertEquals(3, Folds.leaveOneGroupOut(g).length);
    }

    @Test
    void datasetSubsetsKeepTheirGroups() {
        Dataset d = Dataset.of("d", new double[][] {{1, 2}, {3, 4}, {5, 6}}, new String[] {"a", "b", "a"})
                .withGroups(new int[] {4, 5, 6});
        assertTrue(d.hasGroups());
        assertArrayEquals(new int[] {6, 4}, d.subset(new int[] {2, 0}).groups());
        assertArrayEquals(
                new int[] {4, 5, 6},
                d.withClasses(java.util.List.of("a", "b", "c")).groups());
        assertFalse(Dataset.of("d", new double[][] {{1, 2}}, new String[] {"a"}).hasGroups());
    }
}
