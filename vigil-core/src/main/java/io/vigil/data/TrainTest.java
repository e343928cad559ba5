package io.vigil.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A training split and a test split of one data set that can be used together: the same series length,
 * the same class list (the test split is indexed by the training split's classes, so class index g means
 * the same label in both), and at least two classes in training. {@link #load} reads and checks a pair
 * of files, reporting every violation as a {@link DataFormatException} naming the file and line.
 *
 * @param train the training split (defines the class list)
 * @param test the test split, indexed by {@code train.classNames()}
 */
public record TrainTest(Dataset train, Dataset test) {
    public TrainTest {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        if (train.numClasses() < 2) {
            throw new IllegalArgumentException("the training split of " + train.name() + " has " + train.numClasses()
                    + " class " + train.classNames() + "; at least two are needed");
        }
        if (train.channels() != test.channels()) {
            throw new IllegalArgumentException(
                    "test series have " + test.channels() + " channels but training series have " + train.channels());
        }
        if (train.length() != test.length()) {
            throw new IllegalArgumentException(
                    "test series have length " + test.length() + " but training series have length " + train.length());
        }
        if (!train.classNames().equals(test.classNames())) {
            throw new IllegalArgumentException("the test split's classes " + test.classNames()
                    + " differ from the training split's " + train.classNames()
                    + " (align them with Dataset.withClasses)");
        }
    }

    /** The data set name (the training split's). */
    public String name() {
        return train.name();
    }

    /**
     * Reads a training and a test file and checks they fit together. The test file is read against the
     * training split's classes and length, so an unseen test label or a test row of another length is
     * reported at its line.
     *
     * @param options read options for both files; its {@code classes} and {@code length} are ignored
     * @throws DataFormatException on unusable content, a single training class, an unseen test label or
     *     a length mismatch
     */
    public static TrainTest load(Path trainFile, Path testFile, ReadOptions options) throws IOException {
        Dataset train = DatasetReader.read(trainFile, options.withClasses(null).withLength(0));
        if (train.numClasses() < 2) {
            throw new DataFormatException(
                    trainFile,
                    0,
                    "the training split has a single class '"
                            + train.classNames().get(0) + "' (all " + train.size()
                            + " series); at least two classes are needed");
        }
        Dataset test = DatasetReader.read(
                testFile, options.withClasses(train.classNames()).withLength(train.seriesLength()));
        if (test.channels() != train.channels()) {
            throw new DataFormatException(
                    testFile,
                    0,
                    "the series have " + test.channels() + " channels but the training split's have "
                            + train.channels());
        }
        return new TrainTest(train, test);
    }
}
