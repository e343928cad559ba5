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
 * @param length values per series C·d ≥ 1 (the series length d when univariate): the length of the model's input
 *     vector, laid out time-major (channel c at time t is value t·C + c, see {@link io.vigil.data.Dataset})
 * @param fingerprint {@code sha256:<hex>} of the raw training data
 * @param channelNames the C ≥ 1 channel names, distinct; C divides {@code length} ({@code ["0"]} for a univariate
 *     model, and for every model file written before channels existed)
 */
public record DatasetInfo(
        String name,
        List<String> classNames,
        int[] classCounts,
        int trainSize,
        int length,
        String fingerprint,
        List<String> channelNames) {
    /** The one channel name of a univariate model. */
    public static final List<String> UNIVARIATE = List.of("0");

    /** A univariate model's data. */
    public DatasetInfo(
            String name, List<String> classNames, int[] classCounts, int trainSize, int length, String fingerprint) {
        this(name, classNames, classCounts, trainSize, length, fingerprint, UNIVARIATE);
    }

    /** Validates (messages name the model-file field) and copies. */
    public DatasetInfo {
        ModelChecks.require(channelNames, "dataset.channels");
        channelNames = List.copyOf(channelNames);
        if (channelNames.isEmpty() || new HashSet<>(channelNames).size() != channelNames.size()) {
            throw new IllegalArgumentException(
                    "dataset.channels must be distinct names, at least one: " + channelNames);
        }
        if (length % channelNames.size() != 0) {
            throw new IllegalArgumentException("dataset.length " + length + " is not a multiple of the "
                    + channelNames.size() + " dataset.channels");
        }
        ModelChecks.require(name, "dataset.name");
        ModelChecks.require(classNames, "dataset.classes");
        ModelChecks.require(classCounts, "dataset.class_counts");
        ModelChecks.require(fingerprint, "dataset.fingerprint");
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
        ModelChecks.sizeCheck("dataset.class_counts", classCounts.length, "entries", "dataset.classes", g);
    }

    /** Number of channels C. */
    public int channels() {
        return channelNames.size();
    }

    /** Samples per channel d = length / C. */
    public int seriesLength() {
        return length / channelNames.size();
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
                && fingerprint.equals(d.fingerprint)
                && channelNames.equals(d.channelNames);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                name, classNames, Arrays.hashCode(classCounts), trainSize, length, fingerprint, channelNames);
    }

    @Override
    public String toString() {
        String shape = channels() == 1 ? "d=" + length : "C=" + channels() + ", d=" + seriesLength();
        return "DatasetInfo[" + name + ", G=" + classNames.size() + ", n=" + trainSize + ", " + shape + "]";
    }
}
