package io.vigil.model;

import java.util.Arrays;
import java.util.List;

/**
 * The checks a {@link VigilModel} and its parts run on construction and on load: required fields, sizes across
 * fields (naming both, with the model file's field names), finite values, and the consistency of the training set's
 * points, classes and priors.
 */
final class ModelChecks {
    /**
     * Priors are stored as n_g/n; a stored value farther than this from n_g/n computed from the training
     * classes means a corrupted or hand-edited file. Both sides are one IEEE division, so agreement is
     * exact unless the file was edited; the slack only absorbs decimal round trips by other tools.
     */
    static final double PRIOR_TOLERANCE = 1e-12;

    private ModelChecks() {}

    /** Largest neighbour count a model may record for n training series: any k above a class's size means the whole class, and training never records more than 2n. */
    static int maxNeighbors(int n) {
        return Math.max(1, 2 * n);
    }

    static void require(Object value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
    }

    static void sizeCheck(String field, int actual, String unit, String otherField, int expected) {
        if (actual != expected) {
            throw new IllegalArgumentException(
                    field + " has " + actual + " " + unit + " but " + otherField + " is " + expected);
        }
    }

    /** Rejects NaN and ±∞, naming the field and the first bad index. */
    static void requireFinite(double[] values, String field) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(
                        field + "[" + i + "] is " + values[i] + "; every value must be finite");
            }
        }
    }

    /**
     * The training points (n×ℓ), their classes and the priors n_g/n against the dataset's G classes, size n and class
     * counts.
     *
     * @throws IllegalArgumentException naming the field and both sizes on a missing or inconsistent value
     */
    static void trainingSet(
            int g,
            int trainSize,
            int[] classCounts,
            List<String> classNames,
            int dims,
            double[][] trainingPoints,
            int[] trainingClasses,
            double[] priors) {
        require(trainingPoints, "training_points.points");
        require(trainingClasses, "training_points.classes");
        require(priors, "local_qda.priors");
        sizeCheck("training_points.points", trainingPoints.length, "rows", "dataset.train_size", trainSize);
        for (int i = 0; i < trainingPoints.length; i++) {
            if (trainingPoints[i].length != dims) {
                throw new IllegalArgumentException("training_points.points row " + i + " has "
                        + trainingPoints[i].length + " columns but ldg.dims is " + dims);
            }
        }
        sizeCheck("training_points.classes", trainingClasses.length, "entries", "dataset.train_size", trainSize);
        int[] counted = new int[g];
        for (int i = 0; i < trainingClasses.length; i++) {
            int c = trainingClasses[i];
            if (c < 0 || c >= g) {
                throw new IllegalArgumentException(
                        "training_points.classes[" + i + "] is " + c + " but dataset.classes has " + g + " labels");
            }
            counted[c]++;
        }
        if (!Arrays.equals(counted, classCounts)) {
            throw new IllegalArgumentException("dataset.class_counts " + Arrays.toString(classCounts)
                    + " do not match training_points.classes " + Arrays.toString(counted));
        }
        sizeCheck("local_qda.priors", priors.length, "entries", "dataset.classes", g);
        for (int c = 0; c < g; c++) {
            double expected = (double) counted[c] / trainSize;
            if (!(Math.abs(priors[c] - expected) <= PRIOR_TOLERANCE)) {
                throw new IllegalArgumentException("local_qda.priors[" + c + "] is " + priors[c]
                        + " but class " + classNames.get(c) + " has " + counted[c] + " of " + trainSize
                        + " training series (" + expected + ")");
            }
        }
    }
}
