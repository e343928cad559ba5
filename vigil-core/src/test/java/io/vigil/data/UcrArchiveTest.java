package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
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

    /**
     * 1-NN (Euclidean) accuracy a generated training split must reach on the archive's test split. The
     * archive's own training split reaches 0.852 (CBF, 30 series) and 0.880 (SyntheticControl, 300); 300
     * generated series reached 0.966 and 0.907. A wrong class order, formula or normalisation drops far
     * below (chance is 0.33 and 0.17).
     */
    private static final double MIN_GENERATED_ACCURACY = 0.85;

    @Test
    void generatorsReproduceTheArchiveCopies() throws IOException {
        Path dir = ucr();
        for (SyntheticKind kind : List.of(SyntheticKind.CBF, SyntheticKind.SYNTHETIC_CONTROL)) {
            Path sub = dir.resolve(kind.datasetName());
            Assumptions.assumeTrue(Files.isDirectory(sub), kind.datasetName() + " not in " + dir + "; skipping");
            TrainTest archive = DatasetFiles.resolve(dir, kind.datasetName()).load(ReadOptions.DEFAULT);
            assertEquals(kind.classes(), archive.train().classNames());
            assertEquals(kind.length(), archive.train().length());
            Dataset generated = SyntheticData.generate(kind, 300, 1, 1).train();
            double accuracy = nearestNeighborAccuracy(generated, archive.test());
            assertTrue(
                    accuracy >= MIN_GENERATED_ACCURACY,
                    kind + ": 1-NN trained on generated data scores " + accuracy + " on the archive test split");
        }
    }

    private static double nearestNeighborAccuracy(Dataset train, Dataset test) {
        double[][] a = train.rows();
        double[][] b = test.rows();
        int correct = 0;
        for (int i = 0; i < b.length; i++) {
            double best = Double.POSITIVE_INFINITY;
            int label = -1;
            for (int j = 0; j < a.length; j++) {
                double s = 0;
                for (int t = 0; t < b[i].length; t++) {
                    double diff = b[i][t] - a[j][t];
                    s += diff * diff;
                }
                if (s < best) {
                    best = s;
                    label = train.classOf(j);
                }
            }
            if (train.classNames().get(label).equals(test.labelOf(i))) {
                correct++;
            }
        }
        return correct / (double) b.length;
    }
}
