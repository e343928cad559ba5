package io.vigil.cli;

import io.vigil.data.DataFormat;
import io.vigil.data.DatasetWriter;
import io.vigil.data.TrainTest;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.cli.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code vigil generate}: writes a seeded synthetic train/test pair (CBF, SyntheticControl, TwoPatterns) in
 * the UCR archive layout {@code DIR/Name/Name_TRAIN.<ext>}, so {@code --data DIR --dataset Name} reads it
 * back, or ({@code --kind event-stream}) a synthetic recording set in the recording layout of docs/recordings.md,
 * for demos, tests and experiments that must not depend on the archive or on real recordings.
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description =
                "Write a synthetic data set (train and test split) in the UCR archive layout DIR/Name/Name_TRAIN.tsv,"
                        + " or (--kind event-stream) a synthetic recording set DIR/rec-NN.tsv + DIR/events.tsv.")
public final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--kind",
            required = true,
            paramLabel = "KIND",
            converter = KindConverter.class,
            description = "cbf (Cylinder-Bell-Funnel), synthetic-control, two-patterns, multi-cbf (3 channels of CBF"
                    + " events with channel-specific shapes and lags; written as .ts, the one format with channels)"
                    + " or event-stream (recordings with CBF events at random times in an AR(1) + sinusoid + drift"
                    + " background, written in the recording layout with a train/test split).")
    Kind kind;

    @Option(
            names = "--train",
            paramLabel = "N",
            description = "Training series (≥ number of classes; required but for event-stream).")
    Integer nTrain;

    @Option(names = "--test", paramLabel = "N", description = "Test series (≥ 1; required but for event-stream).")
    Integer nTest;

    @Option(
            names = "--recordings",
            paramLabel = "N",
            description = "Recordings to write (event-stream only; default 10, about 30 %% of them in the test split).")
    Integer recordings;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "DIR",
            description = "Output directory: the archive, or for event-stream the recording directory.")
    Path out;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "1",
            description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            description = "tsv (UCR 2018), ucr2015 (comma-separated .txt), ts (sktime/aeon) or arff (default tsv;"
                    + " ts for multi-cbf, whose channels only ts holds).")
    DataFormat format;

    @Option(
            names = "--length",
            paramLabel = "L",
            description = "Series length per channel (cbf and multi-cbf only; default: the kind's own, 128 for cbf)."
                    + " CBF's shapes stretch with the time axis; another length names the data set e.g. CBF20000."
                    + " For event-stream: samples per recording (default 10000, 200 s at 50 Hz).")
    Integer length;

    @Option(names = "--gzip", description = "Gzip the files (adds .gz).")
    boolean gzip;

    @Option(names = "--raw", description = "Keep raw generator values instead of z-normalising each series.")
    boolean raw;

    @Option(names = "--json", description = "Print one JSON object instead of the one-line summary.")
    boolean json;

    /** The event-stream kind's command-line name. */
    static final String EVENT_STREAM = "event-stream";

    /** Default samples per event-stream recording. */
    static final int EVENT_STREAM_LENGTH = 10_000;

    /** Default number of event-stream recordings. */
    static final int EVENT_STREAM_RECORDINGS = 10;

    /**
     * What {@code --kind} names: a synthetic series family, or (series null) the event-stream recording set.
     *
     * @param series the series family, null for event-stream
     */
    record Kind(SyntheticKind series) {
        boolean eventStream() {
            return series == null;
        }
    }

    /** Parses {@code --kind} so an unknown kind is a usage error naming the valid ones. */
    static final class KindConverter implements CommandLine.ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            if (EVENT_STREAM.equalsIgnoreCase(value)) {
                return new Kind(null);
            }
            try {
                return new Kind(SyntheticKind.fromName(value));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage() + " or " + EVENT_STREAM);
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        if (kind.eventStream()) {
            return eventStream();
        }
        if (recordings != null) {
            throw new ParameterException(spec.commandLine(), "--recordings is for --kind " + EVENT_STREAM + " only");
        }
        if (nTrain == null || nTest == null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--train and --test are required for --kind "
                            + kind.series().cliName());
        }
        return series(kind.series(), nTrain, nTest);
    }

    private Integer eventStream() throws IOException {
        if (nTrain != null || nTest != null || format != null || raw) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--kind " + EVENT_STREAM + " takes --recordings and --length (the split is per recording);"
                            + " --train, --test, --format and --raw are for the series kinds");
        }
        int n = recordings == null ? EVENT_STREAM_RECORDINGS : recordings;
        int d = length == null ? EVENT_STREAM_LENGTH : length;
        RecordingSet set;
        try {
            set = EventStream.generate(n, d, seed);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        RecordingWriter.writeSet(set, out, gzip);
        int train = set.split("train").recordings().size();
        int events = set.events().size();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", EVENT_STREAM);
            m.put("recordings", n);
            m.put("train_recordings", train);
            m.put("test_recordings", n - train);
            m.put("length", d);
            m.put("channels", 1);
            m.put("labels", EventStream.LABELS);
            m.put("events", events);
            m.put("sampling_rate_hz", EventStream.SAMPLING_RATE_HZ);
            m.put("seed", seed);
            m.put("dir", out.toString());
            spec.commandLine().getOut().println(Json.line(m));
        } else {
            spec.commandLine()
                    .getOut()
                    .println("generated event-stream (seed " + seed + "): " + n + " recordings (" + train + " train, "
                            + (n - train) + " test) of " + d + " samples at 50 Hz, " + events
                            + " events (cylinder, bell, funnel) -> " + out);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    private Integer series(SyntheticKind kind, int nTrain, int nTest) throws IOException {
        int classes = kind.classes().size();
        if (nTrain < classes) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--train must be at least " + classes + " (one series per class of " + kind.cliName() + "), got "
                            + nTrain);
        }
        if (nTest < 1) {
            throw new ParameterException(spec.commandLine(), "--test must be at least 1, got " + nTest);
        }
        int d = length == null ? kind.length() : length;
        DataFormat fmt = format != null ? format : kind.channels() > 1 ? DataFormat.TS : DataFormat.TSV;
        if (kind.channels() > 1 && fmt != DataFormat.TS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--kind " + kind.cliName() + " has " + kind.channels() + " channels; only --format ts holds"
                            + " several channels");
        }
        TrainTest data;
        try {
            data = SyntheticData.generate(kind, nTrain, nTest, seed, raw, d);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--length: " + e.getMessage(), e);
        }
        String name = SyntheticData.datasetName(kind, d);
        String suffix = fmt.extension() + (gzip ? ".gz" : "");
        Path dir = out.resolve(name);
        Path trainFile = dir.resolve(name + "_TRAIN" + suffix);
        Path testFile = dir.resolve(name + "_TEST" + suffix);
        DatasetWriter.write(data.train(), trainFile, fmt, gzip);
        DatasetWriter.write(data.test(), testFile, fmt, gzip);
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dataset", name);
            m.put("kind", kind.cliName());
            m.put("train_size", nTrain);
            m.put("test_size", nTest);
            m.put("length", d);
            m.put("channels", kind.channels());
            m.put("classes", kind.classes());
            m.put("seed", seed);
            m.put("train_file", trainFile.toString());
            m.put("test_file", testFile.toString());
            spec.commandLine().getOut().println(Json.line(m));
        } else {
            spec.commandLine()
                    .getOut()
                    .println("generated " + name + " (" + kind.cliName() + ", seed " + seed + "): " + nTrain
                            + " train + "
                            + nTest + " test series of " + (kind.channels() > 1 ? kind.channels() + " channels × " : "")
                            + "length " + d + ", " + classes + " classes"
                            + (raw ? ", raw" : ", z-normalised") + " -> " + trainFile + ", " + testFile);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
