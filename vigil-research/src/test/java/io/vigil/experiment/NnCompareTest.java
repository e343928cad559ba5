package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The 1-NN Euclidean baseline and the goal column of {@code experiment nn-compare}. */
class NnCompareTest {
    @Test
    void oneNnEuclideanTakesTheNearestTrainingSeries() {
        Dataset train =
                Dataset.of("T", new double[][] {{0, 0}, {0, 1}, {5, 5}, {6, 5}}, new String[] {"a", "a", "b", "b"});
        // (2.4, 2.4) is nearer (0, 1) than (5, 5): 1-NN says a, a 3-NN vote would say b.
        Dataset test = Dataset.of("T", new double[][] {{2.4, 2.4}, {5, 6}, {0, -1}}, new String[] {"a", "b", "b"})
                .withClasses(train.classNames());
        assertEquals(2.0 / 3, NnCompare.oneNnEuclidean(train, test), 1e-12);
    }

    @Test
    void aSetMoreThanTheToleranceBelowOneNnMissesTheGoal() {
        NnCompare.Row at = new NnCompare.Row("A", 10, 1, 5, "off/local-qda", 1, 1, 0.80, 0.8, 0.81, 1);
        NnCompare.Row below = new NnCompare.Row("B", 10, 1, 5, "on/3nn", 1, 1, 0.75, 0.8, 0.81, 1);
        assertTrue(at.meetsGoal());
        assertFalse(below.meetsGoal());
        String md = NnCompare.markdown(List.of(at, below));
        assertTrue(md.contains("More than 0.01 below 1-NN ED: B\n"), md);
        assertTrue(md.contains("| B | 10 | 1 × 5 | on/3nn | 1 | 1 | 0.750 |"), md);
    }
}
