package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FoldsTest {
    private static int[] labels(int... counts) {
        int n = Arrays.stream(counts).sum();
        int[] y = new int[n];
        int i = 0;
        for (int c = 0; c < counts.length; c++) {
            for (int j = 0; j < counts[c]; j++) {
                y[i++] = c;
            }
        }
        return y;
    }

    @Test
    void partitionIsStratifiedAndBalanced() {
        int[] y = labels(23, 10, 7);
        int[][] folds = Folds.stratifiedKFold(y, 3, 5, 42L);
        assertEquals(5, folds.length);
        boolean[] seen = new boolean[y.length];
        for (int[] fold : folds) {
            assertTrue(fold.length == 8, "40 points in 5 folds → 8 each, got " + fold.length);
            for (int p = 0; p < fold.length; p++) {
                assertFalse(seen[fold[p]], "index " + fold[p] + " in two folds");
                seen[fold[p]] = true;
                if (p > 0) {
                    assertTrue(fold[p - 1] < fold[p], "sorted");
                }
            }
            int[] perClass = new int[3];
            for (int i : fold) {
                perClass[y[i]]++;
            }
            // each class spread as evenly as its size allows: ⌊n_c/5⌋ or ⌈n_c/5⌉
            assertTrue(perClass[0] >= 4 && perClass[0] <= 5, Arrays.toString(perClass));
            assertTrue(perClass[1] == 2, Arrays.toString(perClass));
            assertTrue(perClass[2] >= 1 && perClass[2] <= 2, Arrays.toString(perClass));
        }
        for (boolean s : seen) {
            assertTrue(s);
        }
    }

    @Test
    void seededAndDeterministic() {
        int[] y = labels(30, 30);
        assertTrue(Arrays.deepEquals(Folds.stratifiedKFold(y, 2, 10, 1L), Folds.stratifiedKFold(y, 2, 10, 1L)));
        assertFalse(Arrays.deepEquals(Folds.stratifiedKFold(y, 2, 10, 1L), Folds.stratifiedKFold(y, 2, 10, 2L)));
    }

    @Test
    void kIsCappedByN() {
        int[][] folds = Folds.stratifiedKFold(labels(2, 1), 2, 10, 0L);
        assertEquals(3, folds.length);
        for (int[] f : folds) {
            assertEquals(1, f.length);
        }
        assertThrows(IllegalArgumentException.class, () -> Folds.stratifiedKFold(labels(3), 1, 1, 0L));
        assertThrows(IllegalArgumentException.class, () -> Folds.stratifiedKFold(new int[] {0, 2}, 2, 2, 0L));
    }

    @Test
    void leaveOneOutAndComplement() {
        int[][] loo = Folds.leaveOneOut(4);
        assertEquals(4, loo.length);
        assertArrayEquals(new int[] {2}, loo[2]);
        assertArrayEquals(new int[] {0, 1, 3}, Folds.complement(loo[2], 4));
        assertArrayEquals(new int[] {1, 4}, Folds.complement(new int[] {3, 0, 2}, 5));
        assertThrows(IllegalArgumentException.class, () -> Folds.complement(new int[] {5}, 5));
        assertThrows(IllegalArgumentException.class, () -> Folds.complement(new int[] {1, 1}, 5));
        assertThrows(IllegalArgumentException.class, () -> Folds.leaveOneOut(1));
    }
}
