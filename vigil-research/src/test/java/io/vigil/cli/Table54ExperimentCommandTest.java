package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Table54ExperimentCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes a split as a UCR 2018 TSV file by hand: label first, tab-separated values. */
    private static void writeTsv(Dataset data, Path file) throws IOException {
        StringBuilder b = new StringBuilder();
        double[][] rows = data.rows();
        int[] y = data.classIndices();
        for (int i = 0; i < rows.length; i++) {
            b.append(data.classNames().get(y[i]));
            for (double v : rows[i]) {
                b.append('\t').append(String.format(Locale.ROOT, "%.6f", v));
            }
            b.append('\n');
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    /** A tiny archive: SyntheticControl (a Table 5.4 dataset, d = 60) and Toy (not in the thesis, d = 32). */
    private static Path archive(Path dir) throws IOException {
        Path data = dir.resolve("data");
        TrainTest sc = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 30, 8, 7);
        writeTsv(sc.train(), data.resolve("SyntheticControl/SyntheticControl_TRAIN.tsv"));
        writeTsv(sc.test(), data.resolve("SyntheticControl/SyntheticControl_TEST.tsv"));
        TrainTest toy = SyntheticData.generate(SyntheticKind.CBF, 24, 6, 3, false, 32);
        writeTsv(toy.train(), data.resolve("Toy/Toy_TRAIN.tsv"));
        writeTsv(toy.test(), data.resolve("Toy/Toy_TEST.tsv"));
        return data;
    }

    @Test
    void writesTable54BesideTheThesisAndResumesFromTheCache(@TempDir Path dir) throws Exception {
        Path data = archive(dir);
        Path out = dir.resolve("out");
        String[] args = {
            "experiment",
            "table54",
            "--data",
            data.toString(),
            "--max-series",
            "5",
            "--warmup",
            "0",
            "--out",
            out.toString(),
            "--json"
        };
        Run first = ModelCommandsTest.run(args);
        assertEquals(0, first.exit(), first.err());
        JsonNode o = JSON.readTree(first.out());
        assertEquals(0, o.get("resumed_timings").asInt());
        assertEquals("[\"SyntheticControl\",\"Toy\"]", o.get("datasets").toString());
        assertEquals("[\"SyntheticControl\"]", o.get("thesis_datasets").toString());
        assertTrue(o.get("speed_up").get("SyntheticControl").asDouble() > 0, first.out());

        String md = Files.readString(out.resolve("table54.md"));
        assertTrue(
                md.contains("| dataset | d | ℓ | thesis ℓ | without LDG, ms | thesis | with LDG, ms | thesis |"
                        + " speed-up | thesis |"),
                md);
        String scRow = md.lines()
                .filter(l -> l.startsWith("| SyntheticControl | 60 | "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no SyntheticControl row in\n" + md));
        // The thesis's Synthetic Control: ℓ = 7, 9 ms without LDG, 1 ms with LDG, a 9× speed-up.
        String[] sc = scRow.split(" \\| ");
        assertEquals(List.of("7", "9", "1", "9×"), List.of(sc[3], sc[5], sc[7], sc[9]), scRow);
        assertTrue(sc[4].matches("[0-9.]+ / [0-9.]+") && sc[8].matches("\\d+\\.\\d+×"), scRow);
        assertTrue(scRow.endsWith("| 5 of 8 |"), scRow);
        String toyRow = md.lines()
                .filter(l -> l.startsWith("| Toy | 32 | "))
                .findFirst()
                .orElseThrow();
        String[] toy = toyRow.split(" \\| ");
        assertEquals(List.of("", "", "", ""), List.of(toy[3], toy[5], toy[7], toy[9]), "no thesis figures: " + toyRow);
        assertTrue(md.contains("first 5 test series"), md);

        List<String> csv = Files.readAllLines(out.resolve("table54.csv"));
        assertEquals(
                "dataset,generated,length,train_size,test_size,timed_series,timed_at_t,ldg_dims,raw_qda_neighbors,"
                        + "ldg_qda_neighbors,raw_median_ms,raw_mean_ms,ldg_median_ms,ldg_mean_ms,speed_up,"
                        + "raw_decided_at_t1,ldg_decided_at_t1,raw_skipped,thesis_length,thesis_ldg_dims,"
                        + "thesis_raw_ms,thesis_ldg_ms,thesis_speed_up",
                csv.get(0));
        assertEquals(3, csv.size(), csv.toString());
        String[] line = csv.get(1).split(",", -1);
        assertEquals(23, line.length, csv.get(1));
        assertEquals("SyntheticControl", line[0]);
        assertEquals(List.of("false", "60", "30", "8", "5", "1"), List.of(line).subList(1, 7));
        assertTrue(Double.parseDouble(line[10]) > 0 && Double.parseDouble(line[12]) > 0, csv.get(1));
        assertEquals(List.of("", "60", "7", "9", "1", "9.00"), List.of(line).subList(17, 23));
        assertTrue(csv.get(2).startsWith("Toy,false,32,24,6,5,1,") && csv.get(2).endsWith(",,,,,,"), csv.get(2));

        Run again = ModelCommandsTest.run(args);
        assertEquals(0, again.exit(), again.err());
        assertEquals(4, JSON.readTree(again.out()).get("resumed_timings").asInt(), "two datasets × two classifiers");
        assertEquals(csv, Files.readAllLines(out.resolve("table54.csv")), "a resumed run reports the same timings");
        assertTrue(Files.readString(out.resolve("table54.md")).contains("timings taken from the cache: 4 of 4"));

        String[] fresh = args.clone();
        fresh[fresh.length - 1] = "--no-resume";
        Run recomputed = ModelCommandsTest.run(fresh);
        assertEquals(0, recomputed.exit(), recomputed.err());
        assertTrue(recomputed.out().contains("SyntheticControl: d = 60, l = "), recomputed.out());
        assertTrue(Files.readString(out.resolve("table54.md")).contains("timings taken from the cache: 0 of 4"));
    }

    @Test
    void anUnknownDatasetIsAUsageErrorNamingItAndWhatIsThere(@TempDir Path dir) throws Exception {
        Path data = archive(dir);
        Run r = ModelCommandsTest.run(
                "experiment",
                "table54",
                "--data",
                data.toString(),
                "--datasets",
                "SyntheticControl,TwoPaterns",
                "--out",
                dir.resolve("o").toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(
                r.err()
                        .contains("--datasets: no dataset 'TwoPaterns' under " + data
                                + " (found: SyntheticControl, Toy)"),
                r.err());
        assertTrue(!Files.exists(dir.resolve("o").resolve("table54.md")), "nothing is written");
    }

    @Test
    void badKnobsAreUsageErrors(@TempDir Path dir) throws Exception {
        Path data = archive(dir);
        String o = dir.resolve("o").toString();
        Run series = ModelCommandsTest.run(
                "experiment", "table54", "--data", data.toString(), "--max-series", "0", "--out", o);
        assertEquals(2, series.exit());
        assertTrue(series.err().contains("--max-series: the number of timed series must be ≥ 1"), series.err());
        Run repeats =
                ModelCommandsTest.run("experiment", "table54", "--data", data.toString(), "--repeats", "0", "--out", o);
        assertEquals(2, repeats.exit());
        assertTrue(repeats.err().contains("--repeats: the number of timed repeats must be ≥ 1"), repeats.err());
        Run tau = ModelCommandsTest.run("experiment", "table54", "--data", data.toString(), "--tau", "1", "--out", o);
        assertEquals(2, tau.exit());
        assertTrue(tau.err().contains("--tau: τ must lie in (0, 1)"), tau.err());
    }
}
