package io.vigil.select;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.model.CvScheme;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TrainerTest {
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    /**
     * Two classes in d = 4: coordinate 0 is near-constant noise (std 0.01, no class information), coordinate
     * 1 separates the classes (means ±1, std 0.25), coordinates 2–3 are unit noise. Series come in mirror
     * pairs (x0 → −x0), so coordinate 0 is exactly uncorrelated with the others. At ℓ = 1 a tiny γ weights
     * within-class scatter only and picks coordinate 0 (chance accuracy); γ ≥ 0.1 lets the between-class
     * term win and picks coordinate 1 (near-perfect).
     */
    private static Dataset gammaCase() {
        SplittableRandom rnd = new SplittableRandom(5);
        int n = 40;
        double[][] x = new double[n][];
        String[] labels = new String[n];
        for (int p = 0; p < n / 2; p++) {
            int c = p % 2;
            double e = 0.01 * rnd.nextGaussian();
            double s = (c == 0 ? -1 : 1) + 0.25 * rnd.nextGaussian();
            double u = rnd.nextGaussian();
            double v = rnd.nextGaussian();
            x[2 * p] = new double[] {e, s, u, v};
            x[2 * p + 1] = new double[] {-e, s, u, v};
            labels[2 * p] = c == 0 ? "neg" : "pos";
            labels[2 * p + 1] = labels[2 * p];
        }
        return Dataset.of("gamma-case", x, labels);
    }

    /**
     * Three classes whose means sit on a triangle in coordinates 0–1 (radius 4, std 0.5), plus six noise
     * coordinates with std 3 and no class information: ℓ = G − 1 = 2 holds everything, more dimensions add
     * only noise to the 3-NN distances.
     */
    @Test
    void automaticSelectionSearchesTimeSegmentsForSeveralChannelsOnly() {
        Dataset multi =
                SyntheticData.generate(SyntheticKind.MULTI_CBF, 12, 3, 5L).train();
        Dataset uni = SyntheticData.generate(SyntheticKind.CBF, 12, 3, 5L).train();
        TrainParams auto = TrainParams.defaults();
        assertEquals(List.of(128, 32, 16, 8, 4, 2, 1), Trainer.segmentCandidates(multi, auto));
        assertEquals(List.of(uni.length()), Trainer.segmentCandidates(uni, auto));
        assertEquals(
                List.of(4),
                Trainer.segmentCandidates(multi, auto.toBuilder().segments(4).build()));
        assertThrows(IllegalArgumentException.class, () -> TrainParams.builder()
                .reducer(Reducer.KERNEL_LDG)
                .segments(4)
                .build());
    }

    @Test
    void sparseLdgChoosesItsSparsityByCrossValidationOnTheTrainingSeries() throws java.io.IOException {
        TrainParams params = TrainParams.builder()
                .gamma(0.5)
                .dims(2)
                .neighbors(4)
                .qdaNeighbors(3)
                .reducer(Reducer.SPARSE_LDG)
                .build();
        VigilModel m = Trainer.train(dimsCase(), params, T0, Progress.none());
        var info = m.projection().sparse().orElseThrow();
        GridScores scores = info.sparsityScores();
        assertEquals(GridScores.CV, scores.source());
        assertArrayEquals(TrainParams.SPARSITY_GRID.toArray(), scores.candidates());
        int best = 0;
        for (int i = 0; i < scores.accuracy().length; i++) {
            assertTrue(scores.accuracy()[i] >= 0 && scores.accuracy()[i] <= 1, Arrays.toString(scores.accuracy()));
            if (scores.accuracy()[i] > scores.accuracy()[best]) {
                best = i;
            }
        }
        assertEquals(scores.candidates()[best], scores.chosen(), "the best score wins, ties to the smaller λ");
        assertEquals(scores.chosen(), info.sparsity());
        // The classes differ in coordinates 0-1 only: 3-NN in any of these sparse spaces separates them.
        assertTrue(scores.accuracy()[best] > 0.9, Arrays.toString(scores.accuracy()));
        ModelFile file = ModelFile.standard();
        assertEquals(m, file.read(file.toBytes(m), "memory"), "the scores survive the model file");
        VigilModel fixed = Trainer.fitFixed(
                dimsCase(), params.toBuilder().sparsity(info.sparsity()).build(), T0);
        assertArrayEquals(m.basis().data, fixed.basis().data, "the chosen λ refits the same basis");
    }

    @Test
    void selectionAutoKeepsTheProtocolThatScoresBestOnFreshFolds() throws java.io.IOException {
        TrainParams auto = TrainParams.builder()
                .dims(2)
                .protocol(SelectionProtocol.ALL)
                .gammaGrid(DoubleGrid.of(0.1, 0.5, 0.9))
                .build();
        VigilModel m = Trainer.train(dimsCase(), auto, T0, Progress.none());
        var p = m.selection().protocol();
        assertEquals(java.util.List.of("off/local-qda", "on/local-qda", "off/3nn", "on/3nn"), p.candidates());
        int best = ProtocolScores.best(p.accuracy(), p.fresh3nn(), p.freshLocalQda());
        assertEquals(p.candidates().get(best), p.chosen(), p.toString());
        VigilModel given = Trainer.train(dimsCase(), candidate(auto, p.chosen()), T0, Progress.none());
        assertArrayEquals(given.basis().data, m.basis().data, "the kept model is the chosen protocol's own");
        assertEquals(p.accuracy()[best], m.selection().cvAccuracy());
        assertEquals(p.chosen().startsWith("on/"), m.standardizer().isPresent());
        for (int i = 0; i < 4; i++) {
            TrainParams own = candidate(auto, p.candidates().get(i));
            VigilModel each = Trainer.train(dimsCase(), own, T0, Progress.none());
            assertEquals(
                    each.selection().cvAccuracy(),
                    p.accuracy()[i],
                    "candidate " + p.candidates().get(i));
            // The fresh-fold check, recomputed through train() with the candidate's choices fixed: 3 repeats of
            // stratified 10-fold CV (every class of dimsCase has 20 series) with seeds 7919·r away from the
            // selection's.
            double knn = 0;
            double qda = 0;
            for (int r = 1; r <= 3; r++) {
                VigilModel check = Trainer.train(
                        dimsCase(),
                        own.toBuilder()
                                .gamma(each.gamma())
                                .dims(each.dims())
                                .neighbors(each.ldgNeighbors())
                                .cv(CvScheme.kFold(10))
                                .seed(auto.seed() + 7919L * r)
                                .build(),
                        T0,
                        Progress.none());
                knn += check.selection().cvAccuracy();
                qda += check.selection().qdaNeighbors().chosenAccuracy();
            }
            // Tolerance: the same sums of the same counts, divided in another order.
            assertEquals(
                    knn / 3,
                    p.fresh3nn()[i],
                    1e-12,
                    "fresh 3-NN of " + p.candidates().get(i));
            assertEquals(
                    qda / 3,
                    p.freshLocalQda()[i],
                    1e-12,
                    "fresh local QDA of " + p.candidates().get(i));
        }
        ModelFile file = ModelFile.standard();
        assertEquals(m, file.read(file.toBytes(m), "memory"), "the protocol scores survive the model file");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> auto.toBuilder().standardize(true).build());
        assertTrue(e.getMessage().contains("--selection all chooses --standardize and --neighbor-selection"));
    }

    /** {@code params} with the protocol of candidate {@code name} ("on/3nn", …) given. */
    private static TrainParams candidate(TrainParams params, String name) {
        String[] c = name.split("/");
        return params.toBuilder()
                .protocol(SelectionProtocol.GIVEN)
                .standardize(c[0].equals("on"))
                .neighborSelection(NeighborSelection.parse(c[1]))
                .build();
    }

    @Test
    void theDefaultProtocolSearchesWhereItIsAffordableAndNothingInItIsFixed() {
        TrainParams d = TrainParams.defaults();
        assertEquals(SelectionProtocol.AUTO, d.protocol());
        assertTrue(SelectionProtocol.searchesFor(d, 300, 11_000), "300² · 11,000 < 10⁹");
        assertFalse(SelectionProtocol.searchesFor(d, 300, 20_000), "300² · 20,000 > 10⁹: one selection only");
        assertTrue(SelectionProtocol.skippedForSize(d, 300, 20_000), "and train says why");
        assertFalse(SelectionProtocol.skippedForSize(d, 300, 11_000));
        assertFalse(
                SelectionProtocol.skippedForSize(d.toBuilder().standardize(true).build(), 300, 20_000));
        assertFalse(
                SelectionProtocol.searchesFor(d.toBuilder().standardize(true).build(), 30, 100),
                "standardisation given fixes the protocol");
        assertFalse(
                SelectionProtocol.searchesFor(
                        d.toBuilder().neighborSelection(NeighborSelection.KNN).build(), 30, 100),
                "the neighbour rule given fixes the protocol");
        assertFalse(
                SelectionProtocol.searchesFor(
                        d.toBuilder().reducer(Reducer.SPARSE_LDG).build(), 30, 100),
                "auto searches for linear LDG only");
        TrainParams all = d.toBuilder().protocol(SelectionProtocol.ALL).build();
        assertTrue(SelectionProtocol.searchesFor(all, 300, 20_000), "all searches whatever the size");
        assertTrue(SelectionProtocol.searchesFor(
                all.toBuilder().reducer(Reducer.SPARSE_LDG).build(), 30, 100));
        assertFalse(SelectionProtocol.searchesFor(
                d.toBuilder().protocol(SelectionProtocol.GIVEN).build(), 30, 100));
        VigilModel m = Trainer.train(
                dimsCase(), d.toBuilder().dims(2).gammaGrid(DoubleGrid.of(0.5)).build(), T0, Progress.none());
        assertEquals(4, m.selection().protocol().candidates().size(), "training by default ran the search");
    }

    private static Dataset dimsCase() {
        SplittableRandom rnd = new SplittableRandom(9);
        int n = 60;
        double[][] x = new double[n][8];
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            int c = i % 3;
            labels[i] = "c" + c;
            double angle = 2 * Math.PI * c / 3;
            x[i][0] = 4 * Math.cos(angle) + 0.5 * rnd.nextGaussian();
            x[i][1] = 4 * Math.sin(angle) + 0.5 * rnd.nextGaussian();
            for (int t = 2; t < 8; t++) {
                x[i][t] = 3 * rnd.nextGaussian();
            }
        }
        return Dataset.of("dims-case", x, labels);
    }

    @Test
    void picksAWorkingGammaAndKeepsEveryScore() {
        TrainParams params =
                TrainParams.builder().dims(1).neighbors(4).qdaNeighbors(4).build();
        VigilModel m = Trainer.train(gammaCase(), params, T0, Progress.none());
        SelectionReport s = m.selection();
        GridScores g = s.gamma();
        assertEquals(GridScores.CV, g.source());
        assertArrayEquals(TrainParams.DEFAULT_GAMMA_GRID.toArray(), g.candidates(), 0);
        assertEquals(TrainParams.DEFAULT_GAMMA_GRID.values().size(), g.accuracy().length);
        assertTrue(g.accuracy()[0] < 0.7, "γ = 0.01 should pick the constant coordinate: " + g);
        assertTrue(m.gamma() >= 0.1, "chosen γ " + m.gamma());
        assertTrue(g.chosenAccuracy() > 0.95, g.toString());
        assertEquals(Arrays.stream(g.accuracy()).max().orElseThrow(), g.chosenAccuracy());
        // Ties go to the larger γ: nothing after the chosen index may score as high.
        double[] acc = g.accuracy();
        int chosen = Arrays.binarySearch(g.candidates(), m.gamma());
        for (int i = chosen + 1; i < acc.length; i++) {
            assertTrue(acc[i] < acc[chosen], "tie must go to the larger γ: " + g);
        }
        assertEquals(1, s.gammaDims(), "γ is scored at the user's ℓ");
        assertEquals(GridScores.USER, s.dims().source());
        assertEquals(GridScores.USER, s.ldgNeighbors().source());
        assertEquals(CvScheme.LOO, s.cv(), "n = 40 ≤ 100 uses leave-one-out");
        // The basis points (mostly) along coordinate 1 and ignores the near-constant coordinate 0.
        assertTrue(Math.abs(m.basis().get(1, 0)) > 0.95, "basis " + m.basis());
        assertTrue(Math.abs(m.basis().get(0, 0)) < 0.01, "basis " + m.basis());
    }

    @Test
    void picksGMinusOneDimensionsWhenTheRestIsNoise() {
        TrainParams params =
                TrainParams.builder().gamma(0.5).cv(CvScheme.kFold(5)).build();
        VigilModel m = Trainer.train(dimsCase(), params, T0, Progress.none());
        SelectionReport s = m.selection();
        assertEquals(2, m.dims());
        GridScores dims = s.dims();
        assertArrayEquals(new double[] {2, 3, 4, 5, 7, 8}, dims.candidates(), 0);
        assertTrue(dims.chosenAccuracy() > 0.95, dims.toString());
        assertTrue(dims.accuracy()[dims.accuracy().length - 1] < dims.chosenAccuracy(), dims.toString());
        for (double a : dims.accuracy()) {
            assertFalse(Double.isNaN(a));
        }
        // Every grid was searched (except the user's γ, which is still scored) and kept.
        assertEquals(GridScores.USER, s.gamma().source());
        assertFalse(Double.isNaN(s.gamma().accuracy()[0]));
        assertEquals(GridScores.CV, s.ldgNeighbors().source());
        assertArrayEquals(new double[] {1, 2, 4, 8, 16, 32}, s.ldgNeighbors().candidates(), 0, "k grid up to 32 ≥ 20");
        assertEquals(GridScores.CV, s.qdaNeighbors().source());
        assertEquals(6, s.qdaNeighbors().accuracy().length);
        assertEquals(8, s.gammaDims(), "not small-sample (60 ≥ 8 + 3): γ at G + 5 = 8");
        assertEquals(s.dims().chosenAccuracy(), s.cvAccuracy());
        assertEquals(CvScheme.kFold(5), s.cv());
    }

    @Test
    void jointNeighborSelectionScoresEveryKAtItsBestGamma() {
        Dataset train = SyntheticData.generate(SyntheticKind.CBF, 24, 3, 79).train();
        TrainParams base = TrainParams.builder()
                .dims(2)
                .qdaNeighbors(2)
                .cv(CvScheme.kFold(4))
                .protocol(SelectionProtocol.GIVEN)
                .build();
        VigilModel joint = Trainer.train(
                train, base.toBuilder().neighborSelection(NeighborSelection.KNN).build(), T0, Progress.none());
        SelectionReport s = joint.selection();
        assertEquals("3nn", s.neighborMethod());
        assertEquals(CvScheme.kFold(4), s.neighborCv(), "the 3-NN rule uses the γ/ℓ folds");
        assertArrayEquals(new double[] {1, 2, 4, 8}, s.ldgNeighbors().candidates(), 0, "up to 8 ≥ class size 8");
        double best = Arrays.stream(s.ldgNeighbors().accuracy()).max().orElseThrow();
        assertEquals(best, s.ldgNeighbors().chosenAccuracy());
        assertEquals(best, s.gamma().chosenAccuracy(), "k's score is its best γ's score at ℓ_γ");
        // Each k's score equals a run with that k fixed.
        double[] cand = s.ldgNeighbors().candidates();
        for (int i = 0; i < cand.length; i++) {
            VigilModel fixed = Trainer.train(
                    train, base.toBuilder().neighbors((int) cand[i]).build(), T0, Progress.none());
            assertEquals(
                    s.ldgNeighbors().accuracy()[i], fixed.selection().gamma().chosenAccuracy(), "k=" + cand[i]);
        }
        assertEquals(
                "local-qda",
                Trainer.train(train, base, T0, Progress.none()).selection().neighborMethod());
    }

    @Test
    void sameInputAndSeedGiveTheSameModelAndBytes() {
        Dataset train = SyntheticData.generate(SyntheticKind.CBF, 24, 3, 77).train();
        TrainParams params = TrainParams.builder().seed(5).cv(CvScheme.kFold(4)).build();
        VigilModel a = Trainer.train(train, params, T0, Progress.none());
        VigilModel b = Trainer.train(train, params, T0, Progress.none());
        assertEquals(a, b);
        assertArrayEquals(ModelFile.standard().toBytes(a), ModelFile.standard().toBytes(b));
        assertEquals(5, a.seed());
    }

    @Test
    void standardisationIsRecordedAndApplied() {
        Dataset train = SyntheticData.generate(SyntheticKind.CBF, 24, 3, 78).train();
        TrainParams params = TrainParams.builder()
                .standardize(true)
                .gamma(0.5)
                .dims(2)
                .neighbors(4)
                .qdaNeighbors(2)
                .build();
        VigilModel m = Trainer.train(train, params, T0, Progress.none());
        assertTrue(m.standardizer().isPresent());
        assertEquals(train.length(), m.standardizer().get().dim());
        // The stored training points are the projections of the standardised training series.
        double[] y = new double[m.dims()];
        double[][] pts = m.trainingPoints();
        for (int i = 0; i < train.size(); i++) {
            m.project(train.series(i), y);
            assertArrayEquals(pts[i], y, 1e-9);
        }
    }

    @Test
    void rejectsUnusableInput() {
        Dataset one = Dataset.of("x", new double[][] {{1}, {2}, {3}}, new String[] {"a", "a", "a"});
        assertThrows(
                IllegalArgumentException.class, () -> Trainer.train(one, TrainParams.defaults(), T0, Progress.none()));
        Dataset missing =
                Dataset.of("x", new double[][] {{1}, {2}, {3}, {4}}, new int[] {0, 0, 1, 1}, List.of("a", "b", "c"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Trainer.train(missing, TrainParams.defaults(), T0, Progress.none()));
        assertTrue(e.getMessage().contains("class 'c' has no training series"), e.getMessage());
        Dataset small = SyntheticData.generate(SyntheticKind.CBF, 12, 3, 1).train();
        IllegalArgumentException tooMany = assertThrows(
                IllegalArgumentException.class,
                () -> Trainer.train(
                        small, TrainParams.builder().gamma(0.5).dims(40).build(), T0, Progress.none()));
        assertTrue(tooMany.getMessage().contains("exceeds the LDG rank"), tooMany.getMessage());
    }

    /** With every selected parameter fixed, the fit alone gives the model {@link Trainer#train} gives, bit for bit. */
    @Test
    void fitFixedGivesTrainsProjectionAndLocalQdaWithoutScoring() {
        TrainParams params = TrainParams.builder()
                .protocol(SelectionProtocol.GIVEN)
                .gamma(0.5)
                .dims(2)
                .neighbors(4)
                .qdaNeighbors(3)
                .build();
        VigilModel trained = Trainer.train(dimsCase(), params, T0, Progress.none());
        VigilModel fitted = Trainer.fitFixed(dimsCase(), params, T0);
        assertEquals(trained.projection(), fitted.projection());
        assertEquals(trained.qdaNeighbors(), fitted.qdaNeighbors());
        assertTrue(Arrays.deepEquals(trained.trainingPoints(), fitted.trainingPoints()));
        assertTrue(Double.isNaN(fitted.selection().cvAccuracy()), "no cross-validation ran");
        TrainParams searched =
                TrainParams.builder().dims(2).neighbors(4).qdaNeighbors(3).build();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Trainer.fitFixed(dimsCase(), searched, T0));
        assertEquals("fitFixed needs gamma, dims, neighbors and qdaNeighbors fixed", e.getMessage());
    }

    /** {@code --refine}: the stored basis is the refined one, its record survives the model file, ℓ directions kept. */
    @Test
    void refinedModelsKeepTheirRefinementThroughTheModelFile() throws java.io.IOException {
        TrainParams params = TrainParams.builder()
                .gamma(0.5)
                .dims(2)
                .neighbors(4)
                .qdaNeighbors(3)
                .refine(true)
                .build();
        VigilModel m = Trainer.train(dimsCase(), params, T0, Progress.none());
        var rec = m.projection().refinement().orElseThrow();
        assertTrue(rec.objectiveAfter() <= rec.objectiveBefore(), rec.toString());
        assertEquals(2, m.eigenvalues().length, "the refined basis keeps the eigenvalues of its ℓ starting directions");
        VigilModel plain =
                Trainer.train(dimsCase(), params.toBuilder().refine(false).build(), T0, Progress.none());
        assertTrue(plain.projection().refinement().isEmpty());
        assertFalse(Arrays.equals(plain.basis().data, m.basis().data), "refinement moved B");
        ModelFile file = ModelFile.standard();
        VigilModel back = file.read(file.toBytes(m), "memory");
        assertEquals(m, back);
        assertEquals(rec, back.projection().refinement().orElseThrow());
        assertFalse(
                new String(file.toBytes(plain), java.nio.charset.StandardCharsets.UTF_8).contains("refinement"),
                "unrefined model files are unchanged");
    }

    /**
     * Sparse LDG at the selected k, γ, ℓ: λ = 0 gives LDG's projections (up to sign); the dims case's class signal
     * lives in coordinates 0–1 only, so a moderate λ keeps it in two non-zeros per column and the classes stay apart;
     * the record survives the model file; calibration's fixed refit follows it.
     */
    @Test
    void sparseLdgKeepsItsSparsityThroughTheModelFileAndFitFixed() throws java.io.IOException {
        TrainParams base = TrainParams.builder()
                .protocol(SelectionProtocol.GIVEN) // the LDG and sparse LDG fits compared below use the same protocol
                .gamma(0.5)
                .dims(2)
                .neighbors(4)
                .qdaNeighbors(3)
                .build();
        VigilModel ldg = Trainer.train(dimsCase(), base, T0, Progress.none());
        TrainParams sparse0 =
                base.toBuilder().reducer(Reducer.SPARSE_LDG).sparsity(0).build();
        VigilModel dense = Trainer.train(dimsCase(), sparse0, T0, Progress.none());
        for (int c = 0; c < 2; c++) {
            double dot = 0;
            for (int t = 0; t < 8; t++) {
                dot += ldg.basis().get(t, c) * dense.basis().get(t, c);
            }
            // Both are unit eigenvectors of the same Z (ADMM's tolerance 1e-5 bounds the angle at λ = 0).
            assertEquals(1, Math.abs(dot), 1e-4, "column " + c);
        }
        TrainParams sparse = base.toBuilder()
                .reducer(Reducer.SPARSE_LDG)
                .sparsity(0.05)
                .deflation(io.vigil.ldg.SparseLdg.Deflation.SPARSE)
                .build();
        VigilModel m = Trainer.train(dimsCase(), sparse, T0, Progress.none());
        assertEquals("sparse-ldg", m.projection().reducer());
        var info = m.projection().sparse().orElseThrow();
        assertEquals(0.05, info.sparsity());
        assertArrayEquals(
                new int[] {8, 8}, dense.projection().sparse().orElseThrow().nonZeros(), "λ = 0 is dense");
        for (int c = 0; c < 2; c++) {
            assertTrue(info.nonZeros()[c] <= 2, "column " + c + ": " + Arrays.toString(info.nonZeros()));
            double signal =
                    Math.pow(m.basis().get(0, c), 2) + Math.pow(m.basis().get(1, c), 2);
            // The sample's noise coordinates correlate weakly with the signal (n = 60), so a small weight may stay
            // on one of them; the column's mass must sit on the class coordinates.
            assertTrue(signal > 0.98, "column " + c + " keeps " + signal + " on coordinates 0-1: " + m.basis());
        }
        ModelFile file = ModelFile.standard();
        VigilModel back = file.read(file.toBytes(m), "memory");
        assertEquals(m, back);
        assertEquals(info, back.projection().sparse().orElseThrow());
        VigilModel fixed = Trainer.fitFixed(dimsCase(), sparse.toBuilder().build(), T0);
        assertEquals(
                info.nonZeros().length,
                fixed.projection().sparse().orElseThrow().nonZeros().length);
        assertArrayEquals(m.basis().data, fixed.basis().data, "the same fit without the selection");
        assertEquals(GridScores.USER, info.sparsityScores().source(), "a given λ is the user's");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> TrainParams.builder().sparsity(0.1).build());
        assertTrue(e.getMessage().contains("--sparsity and --deflation apply to --reducer sparse-ldg only"));
        e = assertThrows(
                IllegalArgumentException.class,
                () -> base.toBuilder().reducer(Reducer.SPARSE_LDG).sparsity(-1).build());
        assertTrue(e.getMessage().contains("--sparsity must be finite and ≥ 0"), e.getMessage());
    }
}
