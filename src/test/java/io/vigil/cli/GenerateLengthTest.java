package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code vigil generate --length}: long CBF-like series for issue 13; the default lengths stay as published. */
class GenerateLengthTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = VigilCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] full = new String[args.length + 1];
        full[0] = "generate";
        System.arraycopy(args, 0, full, 1, args.length);
        return cl.execute(full);
    }

    @Test
    void longCbfIsWrittenUnderItsOwnNameAndStretchesTheShapes() throws IOException {
        assertEquals(
                0,
                run(
                        "--kind",
                        "cbf",
                        "--train",
                        "6",
                        "--test",
                        "3",
                        "--length",
                        "2000",
                        "--raw",
                        "--out",
                        dir.toString()),
                err.toString());
        assertTrue(out.toString().contains("CBF2000") && out.toString().contains("length 2000"), out.toString());
        TrainTest back = DatasetFiles.resolve(dir, "CBF2000").load(ReadOptions.DEFAULT);
        assertEquals(2000, back.train().length());
        // Raw cylinders (class "1") sit near 6 + η on [a, b] with a ≥ 250 and b − a ≥ 500 and near 0 before a.
        double[] cylinder = back.train().series(0);
        double early = 0;
        double plateau = 0;
        for (int t = 0; t < 200; t++) {
            early += cylinder[t] / 200;
        }
        for (int t = 600; t < 750; t++) {
            plateau += cylinder[t] / 150;
        }
        assertTrue(Math.abs(early) < 0.5 && plateau > 2.5, early + " / " + plateau);
    }

    @Test
    void defaultLengthIsThePublishedDrawAndOtherKindsRefuseALength() {
        TrainTest a = SyntheticData.generate(SyntheticKind.CBF, 9, 3, 5L);
        TrainTest b = SyntheticData.generate(SyntheticKind.CBF, 9, 3, 5L, false, 128);
        for (int i = 0; i < 9; i++) {
            assertArrayEquals(a.train().series(i), b.train().series(i));
        }
        assertEquals("CBF", b.train().name());
        assertNotEquals(
                0,
                run(
                        "--kind",
                        "two-patterns",
                        "--train",
                        "4",
                        "--test",
                        "1",
                        "--length",
                        "500",
                        "--out",
                        dir.toString()));
        assertTrue(err.toString().contains("only cbf"), err.toString());
    }
}
