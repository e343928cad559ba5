package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.DataFormat;
import io.vigil.data.Dataset;
import io.vigil.data.DatasetWriter;
import io.vigil.data.TrainTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class DataOptionsTest {
    /** A command shaped like train/evaluate: mixes in DataOptions and reports what it loaded. */
    @Command(name = "probe", mixinStandardHelpOptions = true, description = "test command")
    static final class Probe implements Callable<Integer> {
        @Mixin
        DataOptions data;

        @Option(names = "--what")
        String what = "both";

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            switch (what) {
                case "train" -> out.println(describe(data.loadTrain()));
                case "test" -> out.println(describe(data.loadTest()));
                case "name" -> out.println(data.datasetName());
                default -> {
                    TrainTest tt = data.load();
                    out.println(describe(tt.train()) + " " + describe(tt.test()));
                }
            }
            return 0;
        }

        private static String describe(Dataset ds) {
            return ds.name() + ":" + ds.size() + "x" + ds.length() + ":" + ds.classNames();
        }
    }

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void data() throws IOException {
        Dataset train = Dataset.of("Toy", new double[][] {{1, 2}, {3, 4}, {5, 6}}, new String[] {"a", "b", "a"});
        Dataset test = Dataset.of("Toy", new double[][] {{1, 2}}, new String[] {"b"});
        DatasetWriter.write(train, dir.resolve("Toy/Toy_TRAIN.tsv"), DataFormat.TSV, false);
        DatasetWriter.write(test, dir.resolve("Toy/Toy_TEST.tsv"), DataFormat.TSV, false);
        Files.writeString(dir.resolve("Gap_TRAIN.tsv"), "a\t1\tNaN\t3\nb\t1\t2\t3\n");
    }

    private int run(String... args) {
        CommandLine cl = VigilCli.commandLine();
        cl.addSubcommand(new Probe());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] full = new String[args.length + 1];
        full[0] = "probe";
        System.arraycopy(args, 0, full, 1, args.length);
        return cl.execute(full);
    }

    @Test
    void archiveDirectoryAndNameLoadBothSplits() {
        assertEquals(0, run("--data", dir.toString(), "--dataset", "Toy"), err.toString());
        assertEquals("Toy:3x2:[a, b] Toy:1x2:[a, b]", out.toString().strip());
    }

    @Test
    void explicitFilesLoadAndNameTheDataset() {
        String train = dir.resolve("Toy/Toy_TRAIN.tsv").toString();
        String test = dir.resolve("Toy/Toy_TEST.tsv").toString();
        assertEquals(0, run("--train", train, "--test", test), err.toString());
        assertEquals("Toy:3x2:[a, b] Toy:1x2:[a, b]", out.toString().strip());
        out.getBuffer().setLength(0);
        assertEquals(0, run("--train", train, "--what", "name"));
        assertEquals("Toy", out.toString().strip());
        out.getBuffer().setLength(0);
        assertEquals(0, run("--test", test, "--what", "test"), err.toString());
        assertEquals("Toy:1x2:[b]", out.toString().strip());
    }

    @Test
    void invalidCombinationsAreUsageErrors() {
        String train = dir.resolve("Toy/Toy_TRAIN.tsv").toString();
        String[][] bad = {
            {},
            {"--data", dir.toString()},
            {"--dataset", "Toy"},
            {"--data", dir.toString(), "--dataset", "Toy", "--train", train},
            {"--train", train},
            {"--test", train, "--what", "train"},
        };
        String[] reasons = {
            "no data given",
            "needs --dataset NAME",
            "needs --data DIR",
            "not both",
            "--test FILE is required",
            "--train FILE is required"
        };
        for (int k = 0; k < bad.length; k++) {
            err.getBuffer().setLength(0);
            assertEquals(2, run(bad[k]), String.join(" ", bad[k]));
            assertTrue(err.toString().contains(reasons[k]), err.toString());
        }
    }

    @Test
    void unreadableDataIsAFailureNamingFileAndLine() {
        String gap = dir.resolve("Gap_TRAIN.tsv").toString();
        assertEquals(1, run("--train", gap, "--what", "train"));
        assertTrue(err.toString().contains("vigil probe: " + gap + ":1: column 3: missing value"), err.toString());
        assertTrue(err.toString().contains("--interpolate-missing"), err.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("--train", gap, "--what", "train", "--interpolate-missing"), err.toString());
        assertEquals("Gap:2x3:[a, b]", out.toString().strip());
        err.getBuffer().setLength(0);
        assertEquals(1, run("--data", dir.toString(), "--dataset", "Nope"));
        assertTrue(err.toString().contains("no train file for dataset 'Nope'"), err.toString());
    }
}
