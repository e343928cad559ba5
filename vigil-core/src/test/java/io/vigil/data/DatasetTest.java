package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetTest {
    @Test
    void numericLabelsAreOrderedNumericallyAndKeptVerbatim() {
        Dataset ds = Dataset.of("x", new double[][] {{1}, {2}, {3}, {4}}, new String[] {"10", "-1", "2.0", "-1"});
        assertEquals(List.of("-1", "2.0", "10"), ds.classNames());
        assertArrayEquals(new int[] {2, 0, 1, 0}, ds.classIndices());
        assertEquals("2.0", ds.labelOf(2));
        assertArrayEquals(new int[] {2, 1, 1}, ds.classCounts());
    }

    @Test
    void textLabelsAreOrderedLexicographically() {
        Dataset ds = Dataset.of("x", new double[][] {{1}, {2}}, new String[] {"b", "a"});
        assertEquals(List.of("a", "b"), ds.classNames());
    }

    @Test
    void raggedRowsAreRejectedWithBothLengths() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Dataset.of("x", new double[][] {{1, 2}, {3}}, new String[] {"a", "b"}));
        assertTrue(e.getMessage().contains("series 1 has length 1, series 0 has length 2"), e.getMessage());
    }

    @Test
    void withClassesReindexesAndRejectsUnknownLabels() {
        Dataset test = Dataset.of("x", new double[][] {{1}, {2}}, new String[] {"b", "c"});
        Dataset aligned = test.withClasses(List.of("a", "b", "c"));
        assertArrayEquals(new int[] {1, 2}, aligned.classIndices());
        assertThrows(IllegalArgumentException.class, () -> test.withClasses(List.of("a", "b")));
    }

    @Test
    void inputArraysAreCopied() {
        double[][] rows = {{1, 2}};
        Dataset ds = Dataset.of("x", rows, new String[] {"a"});
        rows[0][0] = 99;
        assertEquals(1, ds.value(0, 0));
    }

    @Test
    void exactRepeatsNameEachRepeatAndItsFirstCopyButNotTheSameValuesOfAnotherClass() {
        Dataset ds = Dataset.of(
                "x", new double[][] {{1, 2}, {3, 4}, {1, 2}, {1, 2}, {3, 4}}, new String[] {"a", "a", "a", "b", "a"});
        List<int[]> repeats = ds.exactRepeats();
        assertEquals(2, repeats.size());
        assertArrayEquals(new int[] {2, 0}, repeats.get(0));
        assertArrayEquals(new int[] {4, 1}, repeats.get(1));
        assertTrue(Dataset.of("y", new double[][] {{1}, {2}}, new String[] {"a", "b"})
                .exactRepeats()
                .isEmpty());
    }
}
