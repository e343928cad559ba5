package io.vigil.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.recording.HaptImport;
import io.vigil.flink.cli.CommandLines;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code vigil import}: converts a public data set's own layout into the recording layout of docs/recordings.md
 * (one file per recording plus {@code events.tsv}), so it can be trained on, evaluated and replayed like a user's
 * own recordings.
 */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        description = "Convert a public data set into the recording layout (DIR/NAME.tsv[.gz] + DIR/events.tsv).",
        subcommands = {ImportCommand.Hapt.class})
public final class ImportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CommandLines.usageError(spec, "name the data set to import (see vigil import --help)");
    }

    /** {@code vigil import hapt}: UCI HAPT raw data into recordings with the official subject split. */
    @Command(
            name = "hapt",
            mixinStandardHelpOptions = true,
            description = "UCI HAPT (RawData/acc_expXX_userYY.txt, gyro_..., labels.txt, activity_labels.txt) into one"
                    + " recording per experiment (acc_x..gyro_z, time in ms, 50 Hz), every labelled interval an event"
                    + " named by its activity, and the official subject split (test users 2, 4, 9, 10, 12, 13, 18,"
                    + " 20, 24).")
    static final class Hapt implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(
                names = "--from",
                required = true,
                paramLabel = "DIR",
                description = "The HAPT directory (holding RawData/ and activity_labels.txt), files optionally .gz.")
        Path from;

        @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output recording directory.")
        Path out;

        @Option(names = "--json", description = "Print one JSON object instead of the one-line summary.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            HaptImport.Summary s = HaptImport.convert(from, out);
            int test = s.recordings() - s.trainRecordings();
            Result r = new Result(
                    s.recordings(),
                    s.trainRecordings(),
                    test,
                    s.events(),
                    s.samples(),
                    HaptImport.SAMPLING_RATE_HZ,
                    out.toString());
            return CommandOutput.print(
                    spec,
                    json,
                    r,
                    "imported HAPT: " + s.recordings() + " recordings ("
                            + s.trainRecordings() + " train, " + test + " test), " + s.samples() + " samples at 50 Hz, "
                            + s.events() + " events -> " + out);
        }
    }

    /** {@code import hapt --json}'s object. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Result(
            int recordings,
            int trainRecordings,
            int testRecordings,
            int events,
            long samples,
            double samplingRateHz,
            String dir) {}
}
