package io.vigil.data.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vigil.data.DataFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HaptImportTest {
    private static final Set<String> TRANSITIONS =
            Set.of("STAND_TO_SIT", "SIT_TO_STAND", "SIT_TO_LIE", "LIE_TO_SIT", "STAND_TO_LIE", "LIE_TO_STAND");

    @TempDir
    Path dir;

    private void write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        if (p.getFileName().toString().endsWith(".gz")) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            Files.writeString(p, content);
        }
    }

    /** Two experiments: exp01 of user 1 (train), exp02 of user 2 (an official test user), one file gzipped. */
    private Path tinyHapt() throws IOException {
        Path from = dir.resolve("hapt");
        Path raw = from.resolve("RawData");
        write(from.resolve("activity_labels.txt"), "1 WALKING           \n7 STAND_TO_SIT      \n");
        write(raw.resolve("acc_exp01_user01.txt"), "1 2 3\n4 5 6\n7 8 9\n0.5 -0.5 1e-3\n");
        write(raw.resolve("gyro_exp01_user01.txt.gz"), "0.1 0.2 0.3\n0.4 0.5 0.6\n0.7 0.8 0.9\n1 1 1\n");
        write(raw.resolve("acc_exp02_user02.txt"), "1 1 1\n2 2 2\n3 3 3\n");
        write(raw.resolve("gyro_exp02_user02.txt"), "0 0 0\n0 0 0\n0 0 0\n");
        write(raw.resolve("labels.txt"), "1 1 1 1 2\n1 1 7 3 4\n2 2 7 2 3\n");
        return from;
    }

    @Test
    void convertsATinyHaptDirectoryIntoTheLayout() throws IOException {
        Path out = dir.resolve("out");
        HaptImport.Summary s = HaptImport.convert(tinyHapt(), out);
        assertEquals(2, s.recordings());
        assertEquals(1, s.trainRecordings());
        assertEquals(3, s.events());
        assertEquals(7, s.samples());
        RecordingSet set = RecordingSet.read(out, Double.NaN);
        Recording r = set.recording("exp01_user01").orElseThrow();
        assertEquals(HaptImport.CHANNELS, r.channels());
        assertEquals(50.0, r.samplingRateHz().orElseThrow(), 1e-12);
        assertEquals(1e-3, r.value(2, 4));
        assertEquals(0.6, r.value(5, 2));
        assertEquals(60.0, r.timeMs(4));
        assertEquals(
                List.of(
                        new RecordingEvent("exp01_user01", 1, 2, "WALKING"),
                        new RecordingEvent("exp01_user01", 3, 4, "STAND_TO_SIT")),
                set.events("exp01_user01"));
        assertEquals("train", set.splitOf("exp01_user01").orElseThrow());
        assertEquals("test", set.splitOf("exp02_user02").orElseThrow());
        assertEquals(
                List.of(new RecordingEvent("exp02_user02", 2, 3, "STAND_TO_SIT")),
                set.split("test").events());
    }

    @Test
    void badHaptFilesNameFileAndLine() throws IOException {
        Path from = tinyHapt();
        write(from.resolve("RawData/labels.txt"), "1 1 1 1 2\n1 3 7 3 4\n");
        DataFormatException e =
                assertThrows(DataFormatException.class, () -> HaptImport.convert(from, dir.resolve("o")));
        assertEquals(2, e.line(), e.getMessage());
        assertTrue(e.reason().contains("user 3"), e.getMessage());
        write(from.resolve("RawData/labels.txt"), "1 1 1 1 9\n");
        e = assertThrows(DataFormatException.class, () -> HaptImport.convert(from, dir.resolve("o")));
        assertTrue(e.reason().contains("not within 1..4"), e.getMessage());
        write(from.resolve("RawData/acc_exp02_user02.txt"), "1 1 1\n2 x 2\n3 3 3\n");
        e = assertThrows(DataFormatException.class, () -> HaptImport.convert(from, dir.resolve("o")));
        assertEquals("acc_exp02_user02.txt:2", e.file().getFileName() + ":" + e.line(), e.getMessage());
    }

    /** The real HAPT copy, when present: the counts of its README (61 experiments, official split, 108 test transitions). */
    @Test
    void convertsTheRealHaptWithTheOfficialSplit() throws IOException {
        Path hapt = Path.of(System.getProperty("vigil.hapt", "../shared/streams/hapt"));
        assumeTrue(
                Files.isDirectory(hapt.resolve("RawData")),
                "HAPT not present at " + hapt.toAbsolutePath()
                        + " (set -Dvigil.hapt=DIR); skipping the real-data import");
        Path out = dir.resolve("hapt-out");
        HaptImport.Summary s = HaptImport.convert(hapt, out);
        assertEquals(61, s.recordings());
        assertEquals(42, s.trainRecordings());
        assertEquals(1214, s.events());
        assertEquals(1_122_772, s.samples());
        RecordingSet test = RecordingSet.read(out, Double.NaN).split("test");
        assertEquals(19, test.recordings().size());
        assertEquals(
                325_288,
                test.recordings().stream().mapToLong(Recording::samples).sum());
        assertEquals(
                108,
                test.events().stream()
                        .filter(e -> TRANSITIONS.contains(e.label()))
                        .count());
        assertEquals(325_288 / 50.0 / 3600, test.hours().orElseThrow(), 1e-9);
    }
}
