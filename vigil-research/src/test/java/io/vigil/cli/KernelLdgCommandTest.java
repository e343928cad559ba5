package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.model.Projection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil train --reducer kernel-ldg} end to end on generated CBF: the model file holds the kernel map and reads
 * back, {@code classify} and {@code inspect} use it, the early-decision commands refuse it with the reason, and the
 * kernel flags are usage errors without kernel LDG.
 */
class KernelLdgCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path data;
    static Path model;
    static Run train;

    @BeforeAll
    static void trainOnce() {
        data = dir.resolve("archive");
        model = dir.resolve("kernel.json");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "30", "--seed", "3", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        train = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--out",
                model.toString(),
                "--reducer",
                "kernel-ldg",
                "--kernel",
                "rbf",
                "--json");
        assertEquals(0, train.exit(), train.err());
    }

    @Test
    void trainRecordsTheKernelChosenByCrossValidation() throws Exception {
        JsonNode o = JSON.readTree(train.out());
        assertEquals("kernel-ldg", o.get("reducer").asText());
        assertEquals("rbf", o.get("kernel").asText());
        assertTrue(o.get("kernel_param").asDouble() > 0);
        assertTrue(train.err().contains("kernel LDG is non-linear"), train.err());
        JsonNode file = JSON.readTree(Files.readAllBytes(model));
        JsonNode ldg = file.get("ldg");
        assertEquals("kernel-ldg", ldg.get("reducer").asText());
        assertEquals("cv", ldg.get("kernel").get("scores").get("source").asText());
        assertEquals(4, ldg.get("kernel").get("scores").get("candidates").size(), "four widths tried");
        assertFalse(ldg.has("basis"));
        assertTrue(file.get("sections").isEmpty(), "no early-decision sections: " + file.get("sections"));
    }

    @Test
    void classifyAndInspectUseTheKernelMap() throws Exception {
        Run c = ModelCommandsTest.run(
                "classify", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF", "--json");
        assertEquals(0, c.exit(), c.err());
        assertTrue(JSON.readTree(c.out()).get("accuracy_3nn").asDouble() > 0.6, c.out());
        Run i = ModelCommandsTest.run("inspect", model.toString());
        assertEquals(0, i.exit(), i.err());
        assertTrue(i.out().contains("kernel LDG, rbf kernel with width = "), i.out());
        Run j = ModelCommandsTest.run("inspect", model.toString(), "--json");
        assertEquals("kernel-ldg", JSON.readTree(j.out()).get("reducer").asText());
    }

    @Test
    void earlyDecisionCommandsSayWhyTheyCannotUseIt() {
        Run e = ModelCommandsTest.run(
                "evaluate", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF");
        assertEquals(1, e.exit(), e.err());
        assertTrue(e.err().contains(Projection.NON_LINEAR), e.err());
        assertEquals(1, e.err().strip().lines().count(), e.err());
    }

    @Test
    void kernelFlagsNeedKernelLdg() {
        for (String[] extra : new String[][] {{"--kernel", "poly"}, {"--kernel-param", "2"}}) {
            Run r = ModelCommandsTest.run(
                    "train",
                    "--data",
                    data.toString(),
                    "--dataset",
                    "CBF",
                    "--out",
                    dir.resolve("x.json").toString(),
                    extra[0],
                    extra[1]);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains("--kernel and --kernel-param apply to --reducer kernel-ldg only"), r.err());
        }
        Run refine = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--out",
                dir.resolve("y.json").toString(),
                "--reducer",
                "kernel-ldg",
                "--refine");
        assertEquals(2, refine.exit(), refine.err());
        assertTrue(refine.err().contains("--refine applies to --reducer ldg only"), refine.err());
        Run unknown = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--out",
                dir.resolve("z.json").toString(),
                "--reducer",
                "sparse");
        assertEquals(2, unknown.exit(), unknown.err());
        assertTrue(unknown.err().contains("reducer"), unknown.err());
    }

    @Test
    void table33ComparesReducersOnTheSameSplits() throws Exception {
        Path out = dir.resolve("t33");
        Run r = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "3",
                "--out",
                out.toString(),
                "--reducers",
                "ldg,kernel-ldg,pca,reg-fda",
                "--kernel",
                "poly",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode means = JSON.readTree(r.out()).get("reducer_means");
        assertEquals(List.of("ldg", "kernel-ldg", "pca", "reg-fda"), iterable(means.fieldNames()));
        for (JsonNode m : means) {
            assertTrue(m.asDouble() > 50 && m.asDouble() <= 100, means.toString());
        }
        String md = Files.readString(out.resolve("table33.md"));
        assertTrue(md.contains("## Reducers on the same splits"), md);
        assertTrue(md.contains("| Dataset | ldg | kernel-ldg | pca | reg-fda |"), md);
        assertTrue(md.contains("--reducers ldg,kernel-ldg,pca,reg-fda"), md);
        List<String> csv = Files.readAllLines(out.resolve("table33.csv"));
        assertTrue(
                csv.get(0).endsWith(",kernel-ldg_mean,kernel-ldg_std,pca_mean,pca_std,reg-fda_mean,reg-fda_std"),
                csv.get(0));
        List<String> splits = Files.readAllLines(out.resolve("table33-splits.csv"));
        assertEquals(1 + 4 * 3, splits.size(), "a row per split of each reducer");
        assertTrue(splits.get(4).endsWith(",kernel-ldg"), splits.get(4));
        String[][] bad = {
            {"--reducers", "ldg,ldg"},
            {"--reducers", "ldg,transfer-ldg"},
            {"--reducers", "pca,ldg"},
            {"--reducer", "ldg", "--reducers", "kernel-ldg"}
        };
        for (String[] b : bad) {
            List<String> a = new java.util.ArrayList<>(
                    List.of("experiment", "table33", "--data", data.toString(), "--out", out.toString()));
            a.addAll(List.of(b));
            Run e = ModelCommandsTest.run(a.toArray(new String[0]));
            assertEquals(2, e.exit(), String.join(" ", b) + ": " + e.err());
        }
    }

    /**
     * The comparison methods of the thesis's chapter 3 as table33 columns on generated CBF (n = 24 &lt; d = 128): plain
     * FDA is ill-posed there and reported "nc" (null in --json, nc in both CSVs); the others give accuracies, and the
     * legend names each column.
     */
    @Test
    void table33ComparesTheSeedsPeersAndMarksIllPosedFdaNotComputable() throws Exception {
        Path out = dir.resolve("t33-peers");
        Run r = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "3",
                "--out",
                out.toString(),
                "--reducers",
                "ldg,fda,pca-fda,lfda,mmc,dlda,nca",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        JsonNode means = o.get("reducer_means");
        assertEquals(List.of("ldg", "fda", "pca-fda", "lfda", "mmc", "dlda", "nca"), iterable(means.fieldNames()));
        assertTrue(means.get("fda").isNull(), means.toString());
        for (String k : List.of("ldg", "pca-fda", "lfda", "mmc", "dlda", "nca")) {
            assertTrue(means.get(k).asDouble() > 50 && means.get(k).asDouble() <= 100, means.toString());
        }
        assertEquals("{\"fda\":[\"CBF\"]}", o.get("not_computable").toString());
        String md = Files.readString(out.resolve("table33.md"));
        assertTrue(md.contains("| Dataset | ldg | fda | pca-fda | lfda | mmc | dlda | nca |"), md);
        assertTrue(md.matches("(?s).*\\| CBF \\| [0-9.]+ ± [0-9.]+ \\| nc \\| [0-9.]+ ± .*"), md);
        assertTrue(md.contains("| **Mean (thesis datasets)** | **"), md);
        assertTrue(md.contains(" | **nc** | **"), md);
        assertTrue(
                md.contains("| *Thesis Table 3.3, same datasets* | 88.30 | – | 85.50 | 92.40 | – | 83.00 | – |"), md);
        assertTrue(md.contains("- dlda: direct LDA"), md);
        assertTrue(md.contains("- nca: neighbourhood components analysis"), md);
        List<String> csv = Files.readAllLines(out.resolve("table33.csv"));
        assertTrue(
                csv.get(0)
                        .endsWith(",fda_mean,fda_std,pca-fda_mean,pca-fda_std,lfda_mean,lfda_std,mmc_mean,"
                                + "mmc_std,dlda_mean,dlda_std,nca_mean,nca_std"),
                csv.get(0));
        assertTrue(csv.get(1).contains(",nc,nc,"), csv.get(1));
        List<String> splits = Files.readAllLines(out.resolve("table33-splits.csv"));
        assertEquals(1 + 7 * 3, splits.size(), "a row per split of each reducer");
        for (String row : splits.subList(4, 7)) {
            assertTrue(row.endsWith(",fda") && row.contains(",nc,nc,"), row);
        }
        for (String row : splits.subList(7, 22)) {
            assertFalse(row.contains(",nc,"), row);
        }
        Path cvOut = dir.resolve("t33-peers-cv");
        Run cv = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "2",
                "--dims",
                "cv",
                "--out",
                cvOut.toString(),
                "--reducers",
                "ldg,lfda,mmc,dlda",
                "--json");
        assertEquals(0, cv.exit(), cv.err());
        List<String> cvSplits = Files.readAllLines(cvOut.resolve("table33-splits.csv"));
        for (String row : cvSplits.subList(3, 9)) {
            int dims = Integer.parseInt(row.split(",")[8]);
            assertTrue(row.endsWith(",dlda") ? dims == 2 : dims >= 2 && dims <= 3 + 32, row);
        }
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
