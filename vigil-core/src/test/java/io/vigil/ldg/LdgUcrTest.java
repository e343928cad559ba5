package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.Knn;
import io.vigil.data.Folds;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End-to-end check on UCR standard splits (skipped without the data): LOO-refit selection of γ at ℓ = G − 1
 * and of ℓ over the thesis grid (§3.5.2), then LDG + 3-NN on the test split. Thresholds sit three points
 * below the thesis's Table 3.4 means (CBF 88.8, GunPoint 88.0; averages over 10 re-splits whose spread is
 * a few points), so a broken fit or a leaking CV fails while split-to-split noise does not.
 */
class LdgUcrTest {
    private static final double[] GAMMAS = {0.01, 0.1, 0.3, 0.5, 0.7, 0.9};

    private static Path ucr() {
        return Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
    }

    @ParameterizedTest
    @CsvSource({"CBF, 0.85", "GunPoint, 0.85"})
    void selectedModelReachesThesisAccuracy(String name, double minAccuracy) throws IOException {
        Path dir = ucr().resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir + "; skipping");
        Map<String, Integer> classes = new TreeMap<>();
        List<double[]> trainRows = new ArrayList<>();
        List<Integer> trainLabels = new ArrayList<>();
        List<double[]> testRows = new ArrayList<>();
        List<Integer> testLabels = new ArrayList<>();
        read(dir.resolve(name + "_TRAIN.tsv"), classes, trainRows, trainLabels);
        read(dir.resolve(name + "_TEST.tsv"), classes, testRows, testLabels);
        double[][] x = trainRows.toArray(new double[0][]);
        int[] y = trainLabels.stream().mapToInt(Integer::intValue).toArray();
        int g = classes.size();
        int[] dims = {Math.max(1, g - 1), g, g + 1, g + 2, g + 4, g + 8, g + 16, g + 32};
        double[][] acc = LdgCrossValidation.knnAccuracy(
                x, y, g, 5, GAMMAS, dims, 3, Folds.leaveOneOut(x.length), Progress.none());
        int bestGamma = 0;
        for (int i = 0; i < GAMMAS.length; i++) {
            if (acc[i][0] >= acc[bestGamma][0]) {
                bestGamma = i;
            }
        }
        int bestDims = 0;
        for (int c = 0; c < dims.length; c++) {
            if (acc[bestGamma][c] > acc[bestGamma][bestDims]) {
                bestDims = c;
            }
        }
        LdgBasis basis = Ldg.fit(x, y, g, new LdgParams(5, GAMMAS[bestGamma]));
        int l = Math.min(dims[bestDims], basis.rank());
        Knn knn = Knn.fit(basis.project(x, l), y, g);
        int ok = 0;
        double[] q = new double[l];
        for (int i = 0; i < testRows.size(); i++) {
            basis.project(testRows.get(i), l, q);
            ok += knn.predict(q, 3) == testLabels.get(i) ? 1 : 0;
        }
        double accuracy = (double) ok / testRows.size();
        assertTrue(accuracy >= minAccuracy, name + ": test accuracy " + accuracy + " < " + minAccuracy);
    }

    private static void read(Path file, Map<String, Integer> classes, List<double[]> rows, List<Integer> labels)
            throws IOException {
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            classes.putIfAbsent(f[0], classes.size());
            labels.add(classes.get(f[0]));
            double[] row = new double[f.length - 1];
            for (int t = 1; t < f.length; t++) {
                row[t - 1] = Double.parseDouble(f[t]);
            }
            rows.add(row);
        }
    }
}
