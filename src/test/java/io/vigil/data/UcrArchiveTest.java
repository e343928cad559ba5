package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Reads the real UCR archive copy when present ({@code -Dvigil.ucr=DIR}, default {@code ../shared/ucr}). */
class UcrArchiveTest {
    private static Path ucr() {
        Path dir = Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir.toAbsolutePath() + "; skipping");
        return dir;
    }

    /** name → {n_train, n_test, length, classes}, from the UCR archive's published summary table. */
    private static final Map<String, int[]> KNOWN = Map.of(
            "CBF", new int[] {30, 900, 128, 3},
            "GunPoint", new int[] {50, 150, 150, 2},
            "WordSynonyms", new int[] {267, 638, 270, 25});

    @Test
    void everyDatasetReadsAndKnownShapesMatch() throws IOException {
        Path dir = ucr();
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(Files::isDirectory).forEach(p -> names.add(p.getFileName().toString()));
        }
        assertTrue(!names.isEmpty(), "no dataset directories under " + dir);
        List<String> checked = new ArrayList<>();
        for (String name : names) {
            TrainTest tt = DatasetFiles.resolve(dir, name).load(ReadOptions.DEFAULT);
            assertEquals(name, tt.name());
            assertTrue(tt.train().numClasses() >= 2, name);
            int[] expected = KNOWN.get(name);
            if (expected != null) {
                assertEquals(expected[0], tt.train().size(), name + " n_train");
                assertEquals(expected[1], tt.test().size(), name + " n_test");
                assertEquals(expected[2], tt.train().length(), name + " length");
                assertEquals(expected[3], tt.train().numClasses(), name + " classes");
                checked.add(name);
            }
            if (name.equals("Lightning2")) {
                assertEquals(List.of("-1", "1"), tt.train().classNames());
                checked.add(name);
            }
        }
        Assumptions.assumeTrue(checked.size() == KNOWN.size() + 1, "some reference datasets absent: " + checked);
    }
}
