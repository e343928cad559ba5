package io.vigil.model;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * The training data a model describes: name, class labels (verbatim, in class-index order), series per class,
 * number and length of the series, and the fingerprint of the raw data ({@link DataFingerprint}). Immutable.
 *
 * @param name name of the training dataset
 * @param classNames the G labels; distinct
 * @param classCounts training series per class, G entries
 * @param trainSize number of training series n ≥ 1
 * @param length series length d ≥ 1
 * @param fingerprint {@code sha256:<hex>} of the raw training data
 */
public record DatasetInfo(
        String name, List<String> classNames, int[] classCounts, int trainSize, int length, String fingerprint) {
    /** Validates (messages name the model-file field) and copies. */
    public DatasetInfo {
        VigilModel.require(name, "dataset.name");
        VigilModel.require(classNames, "dataset.classes");
        VigilModel.require(classCounts, "dataset.class_counts");
        VigilModel.require(fingerprint, "dataset.fingerprint");
        classNames = List.copyOf(classNames);
        classCounts = classCounts.clone();
        int g = classNames.size();
        if (g < 1) {
            throw new IllegalArgumentException("dataset.classes is empty");
        }
        if (new HashSet<>(classNames).size() != g) {
            throw new IllegalArgumentException("dataset.classes has duplicate labels: " + classNames);
        }
        if (length < 1) {
            throw new IllegalArgumentException("dataset.length must be ≥ 1, got " + length);
        }
        if (trainSize < 1) {
            throw new IllegalArgumentException("dataset.train_size must be ≥ 1, got " + trainSize);
        }
        VigilModel.sizeCheck("dataset.class_counts", classCounts.length, "entries", "dataset.classes", g);
    }

    /** Number of classes G. */
    public int numClasses() {
        return classNames.size();
    }

    /** Training series per class (a copy). */
    @Override
    public int[] classCounts() {
        return classCounts.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DatasetInfo d
                && name.equals(d.name)
                && classNames.equals(d.classNames)
                && Arrays.equals(classCounts, d.classCounts)
                && trainSize == d.trainSize
                && length == d.length
                && fingerprint.equals(d.fingerprint);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, classNames, Arrays.hashCode(classCounts), trainSize, length, fingerprint);
    }

    @Override
    public String toString() {
        return "DatasetInfo[" + name + ", G=" + classNames.size() + ", n=" + trainSize + ", d=" + length + "]";
    }
}
