package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.TauSaturation;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several τ that all certify the grid's least conservative threshold are reported as one range, and the grid going
 * down to 10⁻¹² lets a low τ decide earlier where the older grid (from 0.02) ran out; a model replayed at the older
 * grid still loads and decides at its own thresholds.
 */
class TauSaturationTest {
    /** Generated CBF with 120 training series: enough that τ 0.5 and 0.6 certify the older grid's lowest, 0.02. */
    private static final TrainTest DATA = SyntheticData.generate(SyntheticKind.CBF, 120, 40, 5L);

    /** The grid before the thresholds below 0.02 were added: 0.02 … 0.9995, 54 thresholds. */
    static double[] olderGrid() {
        double[] all = CalibrationParams.defaultThresholds();
        return Arrays.copyOfRange(all, all.length - 54, all.length);
    }

    private static VigilModel calibrated(double[] grid) {
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        VigilModel m = Trainer.train(DATA.train(), p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        m = EarlyModelTrainer.addSections(m, DATA.train(), EarlyModelTrainer.Params.defaults());
        CalibrationParams cp = CalibrationParams.defaults(1L).withThresholds(grid);
        return CrossFitCalibrator.calibrate(m, DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
    }

    private static Optional<TauSaturation> saturation(VigilModel m) {
        CalibrationSection s = m.section(CalibrationSection.class).orElseThrow();
        CalibrationSection.Curve c = s.curves().get(0);
        return TauSaturation.of(s, c);
    }

    private static DecisionThresholds at(VigilModel m, double tau) {
        return DecisionThresholds.of(m, DecisionParams.defaults().withTau(tau));
    }

    @Test
    void theOlderGridRunsOutAndSaysSoAndTheNewGridDecidesEarlierThere(@TempDir Path dir) throws IOException {
        VigilModel older = calibrated(olderGrid());
        TauSaturation t = saturation(older).orElseThrow(() -> new AssertionError("the older grid saturates here"));
        assertEquals(0.5, t.fromTau());
        assertTrue(t.toTau() >= 0.51 && t.toTau() < 0.9, "a range of τ from 0.5: " + t);
        assertEquals(0.02, t.threshold());
        assertTrue(t.olderGrid());
        assertTrue(
                t.message()
                        .startsWith("τ 0.5–" + t.toTau() + " all use the least conservative threshold 0.02; "
                                + "the grid cannot go lower: this model was replayed at thresholds from 0.02"),
                t.message());
        assertEquals(at(older, t.fromTau()).threshold(), at(older, t.toTau()).threshold(), "same threshold, same rule");

        // A model file written with the older grid loads and decides at its own thresholds.
        Path file = dir.resolve("older.json");
        ModelFile.standard().save(older, file);
        VigilModel loaded = ModelFile.standard().load(file);
        assertEquals(54, loaded.section(CalibrationSection.class).orElseThrow().thresholds().length);
        assertEquals(0.02, at(loaded, 0.5).threshold());
        assertEquals(saturation(older), saturation(loaded));

        VigilModel current = calibrated(CalibrationParams.defaultThresholds());
        assertEquals(Optional.empty(), saturation(current), "the line is absent when the grid does not run out");
        DecisionThresholds low = at(current, 0.5);
        assertTrue(low.certified() && low.threshold() < 0.02, "τ 0.5 goes below 0.02: " + low.threshold());
        CalibrationSection s = current.section(CalibrationSection.class).orElseThrow();
        CalibrationSection.Curve c = s.curves().get(0);
        assertTrue(
                c.meanFraction(low.index()) < c.meanFraction(s.certify(c, 0.9).index()),
                "τ 0.5 decides earlier than τ 0.9 on the replays");
    }

    @Test
    void aSaturatedRangeAtTheFloorSaysTheRuleCannotDecideEarlier() {
        TauSaturation t = new TauSaturation(0.5, 0.8, TauSaturation.GRID_FLOOR, 0.031, 0.104, false);
        assertEquals(
                "τ 0.5–0.8 all use the least conservative threshold 1.0E-12; the grid cannot go lower: the "
                        + "cross-fitted replays decide there at mean t/d 0.031 with disagreement rate 0.104, so these "
                        + "τ give the same decisions and a lower τ cannot decide earlier",
                t.message());
    }
}
