package io.vigil.cli;

import io.vigil.data.DataFormatException;
import io.vigil.data.Dataset;
import io.vigil.data.DatasetFiles;
import io.vigil.data.DatasetReader;
import io.vigil.data.LengthPolicy;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.data.ValueBounds;
import io.vigil.model.VigilModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The data options every command that reads a data set shares ({@code @Mixin DataOptions data;}): either
 * an archive directory and a data set name ({@code --data DIR --dataset NAME}, both UCR layouts and every
 * supported format, see {@link DatasetFiles}) or explicit files ({@code --train FILE}, {@code --test FILE}),
 * plus {@code --interpolate-missing} and {@code --length-policy}. Invalid combinations are usage errors (exit 2); unreadable data is a
 * failure (exit 1) whose message names file, line and reason.
 */
public final class DataOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "Archive directory holding NAME/NAME_TRAIN.tsv (or NAME_TRAIN.txt/.ts/.arff, "
                    + "optionally .gz, in DIR/NAME or DIR); use with --dataset.")
    Path dataDir;

    @Option(names = "--dataset", paramLabel = "NAME", description = "Data set name under --data, e.g. CBF.")
    String dataset;

    @Option(
            names = "--train",
            paramLabel = "FILE",
            description = "Training split file (tsv, UCR 2015 text, .ts or ARFF, optionally gzipped); "
                    + "instead of --data/--dataset.")
    Path trainFile;

    @Option(names = "--test", paramLabel = "FILE", description = "Test split file; instead of --data/--dataset.")
    Path testFile;

    @Option(
            names = "--interpolate-missing",
            description = "Fill missing values (NaN, ?, empty fields) by linear interpolation between observed "
                    + "neighbours (nearest observed value at the ends) instead of rejecting the file.")
    boolean interpolateMissing;

    @Option(
            names = "--length-policy",
            paramLabel = "POLICY",
            defaultValue = "reject",
            converter = LengthPolicyConverter.class,
            description = "Series of unequal lengths: reject (default; the error names the shortest and the longest),"
                    + " truncate (cut every series to the shortest; a test split to the training length) or pad-last"
                    + " (repeat each channel's last value up to the longest; a test split is padded or cut to the training"
                    + " length).")
    LengthPolicy lengthPolicy = LengthPolicy.REJECT;

    /** Parses {@code --length-policy} so an unknown policy is a usage error naming the valid ones. */
    static final class LengthPolicyConverter implements CommandLine.ITypeConverter<LengthPolicy> {
        @Override
        public LengthPolicy convert(String value) {
            try {
                return LengthPolicy.fromCliName(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The read options these flags ask for. */
    public ReadOptions readOptions() {
        return ReadOptions.DEFAULT
                .withInterpolateMissing(interpolateMissing)
                .withLengthPolicy(lengthPolicy)
                .withBounds(ValueBounds.trainingMagnitude());
    }

    /** Both splits, checked to fit together (see {@link TrainTest#load}). */
    public TrainTest load() throws IOException {
        Path[] files = files(true, true);
        return TrainTest.load(files[0], files[1], readOptions());
    }

    /** Whether a training split was given (through --data/--dataset or --train). */
    public boolean hasTrain() {
        return trainFile != null || dataDir != null || dataset != null;
    }

    /** The training split alone. */
    public Dataset loadTrain() throws IOException {
        Path train = files(true, false)[0];
        Dataset ds = DatasetReader.read(train, readOptions());
        if (ds.numClasses() < 2) {
            throw new DataFormatException(
                    train,
                    0,
                    "the training split has a single class '" + ds.classNames().get(0)
                            + "'; at least two classes are needed");
        }
        return ds;
    }

    /**
     * The test split alone, its class list derived from its own labels ({@code --test FILE} may be given
     * without {@code --train}, e.g. to classify with a trained model).
     */
    public Dataset loadTest() throws IOException {
        return DatasetReader.read(files(false, true)[1], readOptions());
    }

    /**
     * The test split read against a model: a label outside its classes is an error naming the label and line, each
     * value is checked against its training range ({@link OutOfRangeOptions}, reported on stderr), and under {@code
     * --length-policy truncate} or {@code pad-last} every series is cut or padded to its length, else a series of
     * another length is an error naming the file ({@link #checkLength}).
     */
    Dataset loadTest(VigilModel model, Path modelFile, OutOfRangeOptions outOfRange) throws IOException {
        Dataset test = loadTest(model.classNames(), model.seriesLength(), outOfRange.bounds(model, spec.commandLine()));
        outOfRange.report(spec.commandLine().getErr());
        checkLength(test, true, model.length(), modelFile);
        return test;
    }

    /**
     * The test split read against a model's classes, each value checked against {@code bounds}; under {@code
     * --length-policy truncate} or {@code pad-last} every series is cut or padded to {@code length}.
     */
    private Dataset loadTest(List<String> classes, int length, ValueBounds bounds) throws IOException {
        ReadOptions options = readOptions().withClasses(classes).withBounds(bounds);
        return DatasetReader.read(
                files(false, true)[1], lengthPolicy == LengthPolicy.REJECT ? options : options.withLength(length));
    }

    /**
     * Fails naming the file and {@code --length-policy} when a split's series do not have a model's length (C·d
     * values); with the policy truncate or pad-last {@link #loadTest(VigilModel, Path, OutOfRangeOptions)} already brought them there.
     *
     * @param test the test split (else the training split)
     */
    public void checkLength(Dataset ds, boolean test, int expected, Path model) throws IOException {
        if (ds.length() == expected) {
            return;
        }
        Path file = test ? files(false, true)[1] : files(true, false)[0];
        String fix = ds.length() < expected
                ? "--length-policy pad-last pads shorter series to it (repeating the last value)"
                : "--length-policy truncate cuts longer series to it";
        throw new IllegalArgumentException(file + ": " + (test ? "test" : "training") + " series have length "
                + ds.length() + " but the model " + model + " expects " + expected + "; " + fix
                + " (--length-policy reject, the default, refuses them)");
    }

    /** Whether any data option was given (commands with a built-in default data set ask this). */
    public boolean given() {
        return dataDir != null || dataset != null || trainFile != null || testFile != null;
    }

    /** The data set name: {@code --dataset}, else derived from the training (or test) file name. */
    public String datasetName() {
        if (dataset != null) {
            return dataset;
        }
        if (trainFile != null) {
            return DatasetReader.datasetName(trainFile);
        }
        if (testFile != null) {
            return DatasetReader.datasetName(testFile);
        }
        throw usage("no data given: use --data DIR --dataset NAME, or --train FILE [--test FILE]");
    }

    /**
     * Validates the option combination and resolves the files; index 0 training, 1 test (null when not
     * needed).
     */
    private Path[] files(boolean needTrain, boolean needTest) throws IOException {
        boolean archive = dataDir != null || dataset != null;
        boolean explicit = trainFile != null || testFile != null;
        if (archive && explicit) {
            throw usage("give either --data DIR --dataset NAME or --train/--test files, not both");
        }
        if (archive) {
            if (dataDir == null) {
                throw usage("--dataset " + dataset + " needs --data DIR (the archive directory)");
            }
            if (dataset == null) {
                throw usage("--data " + dataDir + " needs --dataset NAME");
            }
            DatasetFiles files = DatasetFiles.resolve(dataDir, dataset);
            return new Path[] {files.train(), files.test()};
        }
        if (!explicit) {
            throw usage(
                    "no data given: use --data DIR --dataset NAME, or --train FILE" + (needTest ? " --test FILE" : ""));
        }
        if (needTrain && trainFile == null) {
            throw usage("--train FILE is required (or --data DIR --dataset NAME)");
        }
        if (needTest && testFile == null) {
            throw usage("--test FILE is required (or --data DIR --dataset NAME)");
        }
        return new Path[] {trainFile, testFile};
    }

    private ParameterException usage(String message) {
        CommandLine cl = spec == null ? null : spec.commandLine();
        return new ParameterException(cl, message);
    }
}
