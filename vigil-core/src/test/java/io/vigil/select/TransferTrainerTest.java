package io.vigil.select;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.classify.Knn;
import io.vigil.data.Dataset;
import io.vigil.model.GridScores;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transfer LDG training (thesis §4.5.2 selection): a shifted two-domain problem where the few target series alone
 * cannot place the class boundary and the source domain can, the model's pooled training set and its coordinates,
 * fixed values, the model file, and bad input.
 */
class TransferTrainerTest {
    private static final int D = 12;

    /**
     * Two classes differing in features 0–1 by ±1.5; the target domain is the source shifted by +3 in feature 2 and
     * scaled ×2 in feature 3; noise N(0, 1) everywhere, so without the class signal the features are pure noise.
     */
    private static Dataset domain(String name, int perClass, boolean target, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[2 * perClass][D];
        String[] labels = new String[x.length];
        for (int i = 0; i < x.length; i++) {
            int c = i % 2;
            labels[i] = c == 0 ? "a" : "b";
            for (int t = 0; t < D; t++) {
                x[i][t] = r.nextGaussian();
            }
            x[i][0] += c == 0 ? -1.5 : 1.5;
            x[i][1] += c == 0 ? 1.5 : -1.5;
            if (target) {
                x[i][2] += 3;
                x[i][3] *= 2;
            }
        }
        return Dataset.of(name, x, labels);
    }

    private static TrainParams.Builder transfer() {
        return TrainParams.builder().reducer(Reducer.TRANSFER_LDG);
    }

    @Test
    void selectsAlphaThenGammaOnTheTargetAndClassifiesHeldOutTargetSeries() {
        Dataset target = domain("T", 3, true, 1);
        Dataset source = domain("S", 40, false, 2);
        Dataset test = domain("T", 100, true, 3);
        VigilModel m = TransferTrainer.train(target, source, transfer().build(), Instant.EPOCH, Progress.none(), 2)
                .model();
        assertEquals("transfer-ldg", m.projection().reducer());
        TransferSource ts = m.projection().transfer().orElseThrow();
        assertEquals(6, ts.targetSize());
        assertEquals(80, ts.size());
        assertEquals("S", ts.dataset());
        assertEquals(86, m.trainSize(), "training set = target then source series");
        GridScores alpha = ts.alphaScores();
        assertEquals(GridScores.CV, alpha.source());
        assertArrayEquals(TransferTrainer.ALPHA_GRID, alpha.candidates());
        assertArrayEquals(TransferTrainer.GAMMA_GRID, m.selection().gamma().candidates());
        assertEquals(2 + TransferTrainer.EXTRA_DIMS, m.selection().gammaDims(), "α and γ scored at G + 5");
        Knn knn = Knn.fit(m.trainingPoints(), m.trainingClasses(), 2);
        double[][] q = m.projection().projectAll(test.rows());
        int[] y = test.withClasses(m.classNames()).classIndices();
        int ok = 0;
        for (int i = 0; i < q.length; i++) {
            ok += knn.predict(q[i], 3) == y[i] ? 1 : 0;
        }
        // The class signal is 3 noise standard deviations wide: a map that keeps it classifies ≥ 90 %; one that
        // lost it (e.g. to the target's shifted or scaled features) would sit near 50 %.
        assertTrue(ok >= 180, "held-out target accuracy " + ok + "/200");
    }

    @Test
    void standardisedSourceSeriesAreStoredInTargetCoordinates() {
        Dataset target = domain("T", 4, true, 5);
        Dataset source = domain("S", 20, false, 6);
        TransferTrainer.Result r = TransferTrainer.train(
                target,
                source,
                transfer().standardize(true).alpha(0.1).gamma(0.5).dims(2).build(),
                Instant.EPOCH,
                Progress.none(),
                1);
        VigilModel m = r.model();
        assertTrue(m.standardizer().isPresent());
        // The model's one standardiser (the target's) must map every stored series onto the point it was fitted at.
        double[][] again = m.projection().projectAll(r.pooled().rows());
        double[][] stored = m.trainingPoints();
        for (int i = 0; i < stored.length; i++) {
            for (int k = 0; k < 2; k++) {
                // Round trip through one scale and shift per feature: relative error of a few ulps of |x| ≈ 10.
                assertEquals(stored[i][k], again[i][k], 1e-12, "series " + i + " coordinate " + k);
            }
        }
        assertEquals(
                GridScores.USER,
                m.projection().transfer().orElseThrow().alphaScores().source());
        assertEquals(0.5, m.gamma());
        assertEquals(2, m.dims());
    }

    @Test
    void theModelFileKeepsTheSourceAndReadsBackEqual(@TempDir Path dir) throws Exception {
        VigilModel m = TransferTrainer.train(
                        domain("T", 3, true, 7),
                        domain("S", 15, false, 8),
                        transfer().build(),
                        Instant.EPOCH,
                        Progress.none(),
                        1)
                .model();
        Path f = dir.resolve("t.json");
        ModelFile.standard().save(m, f);
        VigilModel back = ModelFile.standard().load(f);
        assertEquals(m.projection(), back.projection());
        assertEquals(m.projection().transfer(), back.projection().transfer());
        assertEquals("transfer-ldg", back.projection().reducer());
        ObjectNode tree = (ObjectNode) new ObjectMapper().readTree(Files.readAllBytes(f));
        ((ObjectNode) tree.get("ldg")).remove("transfer");
        byte[] noTransfer = new ObjectMapper().writeValueAsBytes(tree);
        Exception e = assertThrows(Exception.class, () -> ModelFile.standard().read(noTransfer, "edited"));
        assertTrue(e.getMessage().contains("ldg.transfer is missing"), e.getMessage());
        ((ObjectNode) tree.get("ldg")).put("reducer", "sparse-pca");
        byte[] unknown = new ObjectMapper().writeValueAsBytes(tree);
        e = assertThrows(Exception.class, () -> ModelFile.standard().read(unknown, "edited"));
        assertTrue(e.getMessage().contains("ldg.reducer is 'sparse-pca'"), e.getMessage());
    }

    @Test
    void unusableDomainsAndParametersAreNamed() {
        Dataset target = domain("T", 3, true, 1);
        Dataset source = domain("S", 10, false, 2);
        TrainParams p = transfer().build();
        Dataset shorter = Dataset.of(
                "S",
                Arrays.stream(source.rows()).map(r -> Arrays.copyOf(r, D - 1)).toArray(double[][]::new),
                source.classIndices(),
                source.classNames());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferTrainer.train(target, shorter, p, Instant.EPOCH, Progress.none(), 1));
        assertTrue(e.getMessage().contains("length 11") && e.getMessage().contains("length 12"), e.getMessage());
        Dataset oneClass = source.subset(new int[] {0, 2, 4, 6});
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferTrainer.train(target, oneClass, p, Instant.EPOCH, Progress.none(), 1));
        assertTrue(e.getMessage().contains("target class 'b' has no series in the source"), e.getMessage());
        Dataset extra = Dataset.of("S", source.rows(), source.classIndices(), List.of("a", "c"));
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TransferTrainer.train(target, extra, p, Instant.EPOCH, Progress.none(), 1));
        assertTrue(e.getMessage().contains("'c'"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> Trainer.train(target, p, Instant.EPOCH, Progress.none()));
        assertTrue(e.getMessage().contains("needs a source domain"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().alpha(0.3).build());
        assertTrue(e.getMessage().contains("--alpha applies to --reducer transfer-ldg only"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> transfer().alpha(1.5).build());
        assertTrue(e.getMessage().contains("[0, 1]"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> transfer().refine(true).build());
        assertTrue(e.getMessage().contains("--refine"), e.getMessage());
    }
}
