package io.vigil.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.DataFormat;
import io.vigil.data.DatasetWriter;
import io.vigil.data.TrainTest;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.cli.CommandLines;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            throw CommandLines.usageError(spec, "--recordings is for --kind " + EVENT_STREAM + " only");
        }
        if (nTrain == null || nTest == null) {
            throw CommandLines.usageError(
                    spec,
                    "--train and --test are required for --kind "
                            + kind.series().cliName());
        }
        return series(kind.series(), nTrain, nTest);
    }

    private Integer eventStream() throws IOException {
        if (nTrain != null || nTest != null || format != null || raw) {
            throw CommandLines.usageError(
                    spec,
                    "--kind " + EVENT_STREAM + " takes --recordings and --length (the split"
                            + " is per recording); --train, --test, --format and --raw are for the series kinds");
        }
        int n = recordings == null ? EVENT_STREAM_RECORDINGS : recordings;
        int d = length == null ? EVENT_STREAM_LENGTH : length;
        RecordingSet set = CommandLines.usage(spec, () -> EventStream.generate(n, d, seed));
        RecordingWriter.writeSet(set, out, gzip);
        int train = set.split("train").recordings().size();
        int events = set.events().size();
        EventStreamResult r = new EventStreamResult(
                EVENT_STREAM,
                n,
                train,
                n - train,
                d,
                1,
                EventStream.LABELS,
                events,
                EventStream.SAMPLING_RATE_HZ,
                seed,
                out.toString());
        return CommandOutput.print(
                spec,
                json,
                r,
                "generated event-stream (seed " + seed + "): " + n + " recordings ("
                        + train + " train, " + (n - train) + " test) of " + d + " samples at 50 Hz, " + events
                        + " events (cylinder, bell, funnel) -> " + out);
    }

    private Integer series(SyntheticKind kind, int nTrain, int nTest) throws IOException {
        int classes = kind.classes().size();
        if (nTrain < classes) {
            throw CommandLines.usageError(
                    spec,
                    "--train must be at least " + classes + " (one series per class of " + kind.cliName() + "), got "
                            + nTrain);
        }
        if (nTest < 1) {
            throw CommandLines.usageError(spec, "--test must be at least 1, got " + nTest);
        }
        int d = length == null ? kind.length() : length;
        DataFormat fmt = format != null ? format : kind.channels() > 1 ? DataFormat.TS : DataFormat.TSV;
        if (kind.channels() > 1 && fmt != DataFormat.TS) {
            throw CommandLines.usageError(
                    spec,
                    "--kind " + kind.cliName() + " has " + kind.channels()
                            + " channels; only --format ts holds several channels");
        }
        TrainTest data =
                CommandLines.usage(spec, "--length", () -> SyntheticData.generate(kind, nTrain, nTest, seed, raw, d));
        String name = SyntheticData.datasetName(kind, d);
        String suffix = fmt.extension() + (gzip ? ".gz" : "");
        Path trainFile = out.resolve(name).resolve(name + "_TRAIN" + suffix);
        Path testFile = out.resolve(name).resolve(name + "_TEST" + suffix);
        DatasetWriter.write(data.train(), trainFile, fmt, gzip);
        DatasetWriter.write(data.test(), testFile, fmt, gzip);
        SeriesResult r = new SeriesResult(
                name,
                kind.cliName(),
                nTrain,
                nTest,
                d,
                kind.channels(),
                kind.classes(),
                seed,
                trainFile.toString(),
                testFile.toString());
        return CommandOutput.print(
                spec,
                json,
                r,
                "generated " + name + " (" + kind.cliName() + ", seed " + seed + "): "
                        + nTrain + " train + " + nTest + " test series of "
                        + (kind.channels() > 1 ? kind.channels() + " channels × " : "") + "length " + d + ", " + classes
                        + " classes" + (raw ? ", raw" : ", z-normalised") + " -> " + trainFile + ", " + testFile);
    }

    /** {@code generate --json}'s object for a series kind. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SeriesResult(
            String dataset,
            String kind,
            int trainSize,
            int testSize,
            int length,
            int channels,
            List<String> classes,
            long seed,
            String trainFile,
            String testFile) {}

    /** {@code generate --kind event-stream --json}'s object. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EventStreamResult(
            String kind,
            int recordings,
            int trainRecordings,
            int testRecordings,
            int length,
            int channels,
            List<String> labels,
            int events,
            double samplingRateHz,
            long seed,
            String dir) {}
}
