package io.vigil.select;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.model.CvScheme;
import org.junit.jupiter.api.Test;

class GridsTest {
    @Test
    void dimsCandidatesFollowTheThesisAndAreCapped() {
        assertArrayEquals(new int[] {2, 3, 4, 5, 7, 11, 19, 35}, Grids.dimsCandidates(3, 1000));
        assertArrayEquals(new int[] {1, 2, 3, 4, 6}, Grids.dimsCandidates(2, 6));
        assertArrayEquals(new int[] {1}, Grids.dimsCandidates(2, 1));
    }

    @Test
    void smallSampleIsNBelowDPlusG() {
        assertTrue(Grids.isSmallSample(30, 128, 3));
        assertFalse(Grids.isSmallSample(131, 128, 3));
        assertTrue(Grids.isSmallSample(130, 128, 3));
        assertEquals(2, Grids.gammaDims(30, 128, 3, 100));
        assertEquals(8, Grids.gammaDims(300, 60, 3, 100));
        assertEquals(5, Grids.gammaDims(300, 60, 3, 5));
    }

    @Test
    void tieRules() {
        double[] s = {0.5, 0.9, 0.9, 0.1};
        assertEquals(2, Grids.argmaxPreferLast(s));
        assertEquals(1, Grids.argmaxPreferFirst(s));
        assertArrayEquals(new int[] {1, 2, 4, 8, 16}, Grids.capGrid(new int[] {1, 2, 4, 8, 16, 32}, 10));
        assertArrayEquals(new int[] {1, 2, 4, 8}, Grids.capGrid(new int[] {1, 2, 4, 8, 16, 32}, 8));
        assertArrayEquals(new int[] {4}, Grids.capGrid(new int[] {4, 8}, 2));
        assertArrayEquals(new int[] {1, 2}, Grids.capGrid(new int[] {1, 2}, 50));
    }

    @Test
    void unscoredCandidatesRankBelowEveryScore() {
        double[] s = {Double.NaN, 0.2, 0.2, Double.NaN};
        assertEquals(1, Grids.argmaxPreferFirst(s));
        assertEquals(2, Grids.argmaxPreferLast(s));
        assertEquals(0, Grids.argmaxPreferLast(new double[] {0.0, Double.NaN}));
    }

    @Test
    void cvSchemesParseAndPrint() {
        assertEquals(CvScheme.LOO, CvScheme.parse("loo"));
        assertEquals(CvScheme.kFold(10), CvScheme.parse("10"));
        assertEquals(CvScheme.kFold(7), CvScheme.parse(CvScheme.kFold(7).toString()));
        assertEquals(CvScheme.LOO, CvScheme.auto(100));
        assertEquals(CvScheme.kFold(10), CvScheme.auto(101));
        assertThrows(IllegalArgumentException.class, () -> CvScheme.parse("1"));
        assertThrows(IllegalArgumentException.class, () -> CvScheme.parse("ten"));
    }

    @Test
    void paramsValidate() {
        assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().gamma(1.5).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().dims(0).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().gammaGrid(DoubleGrid.of(0.5, 0.1)).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().kGrid(IntGrid.of()).build());
        assertEquals(TrainParams.defaults(), TrainParams.defaults());
    }
}
