package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparseLdgBenchTest {
    private static int run(StringWriter out, StringWriter err, String... args) {
        return VigilCli.commandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
    }

    @Test
    void printsTheTableWithOneRowPerColumn() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = run(
                out,
                err,
                "bench",
                "sparse-ldg",
                "--n",
                "40",
                "--d",
                "12",
                "--dims",
                "3",
                "--sparsity",
                "5",
                "--deflation",
                "orthonormal");
        assertEquals(0, exit, err.toString());
        String text = out.toString();
        assertTrue(text.contains("coh_mean") && text.contains("orthonormal") && text.contains("nonzeros"), text);
        assertEquals(2 + 1 + 3, text.strip().lines().count(), text);
    }

    @Test
    void readsALabelFirstTsvAndRejectsBadOptions(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("t.tsv");
        StringBuilder sb = new StringBuilder();
        java.util.Random r = new java.util.Random(2);
        for (int i = 0; i < 20; i++) {
            sb.append(i % 2 + 1);
            for (int t = 0; t < 6; t++) {
                sb.append('\t').append(r.nextGaussian() + (i % 2) * t);
            }
            sb.append('\n');
        }
        Files.writeString(tsv, sb.toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "bench", "sparse-ldg", "--tsv", tsv.toString(), "--dims", "2"), err.toString());
        assertTrue(out.toString().contains("20      6      2"), out.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(new StringWriter(), err2, "bench", "sparse-ldg", "--sparsity", "-1"));
        assertTrue(err2.toString().contains("sparsity λ must be finite and >= 0"), err2.toString());
    }
}
