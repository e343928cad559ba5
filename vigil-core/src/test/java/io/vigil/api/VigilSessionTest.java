package io.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionOverrides;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A session decides every series as {@code vigil evaluate} does ({@link EarlyReplay}, the replay behind {@code
 * EarlyEvaluation}): same label, same t, same earliness, on generated CBF and on three-channel generated CBF, in
 * time-major order and under an observation pattern with values missing and arriving shuffled.
 */
class VigilSessionTest {
    private static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 40, 60, 3L);
    private static final TrainTest MULTI = SyntheticData.generate(SyntheticKind.MULTI_CBF, 40, 30, 4L);
    private static final VigilModel CBF_MODEL = train(CBF, ObservationPattern.complete());
    private static final VigilModel MULTI_MODEL = train(MULTI, ObservationPattern.complete());

    /** Fixed LDG/QDA parameters keep it fast; the calibration is train's default, so the model has an operating point. */
    static VigilModel train(TrainTest data, ObservationPattern pattern) {
        TrainOptions o = TrainOptions.builder()
                .selection(TrainParams.builder()
                        .gamma(0.3)
                        .dims(4)
                        .neighbors(8)
                        .qdaNeighbors(8)
                        .build())
                .calibration(TrainOptions.defaultCalibration(1).withPattern(pattern))
                .created(Instant.EPOCH)
                .build();
        return VigilTrainer.train(data.train(), o, Progress.none());
    }

    @Test
    void theOperatingPointIsResolvedFromTheModel() {
        Vigil vigil = Vigil.of(CBF_MODEL);
        CalibrationSection.OperatingPoint op = CBF_MODEL
                .section(CalibrationSection.class)
                .flatMap(CalibrationSection::operatingPoint)
                .orElseThrow();
        assertEquals(op.tau(), vigil.params().tau());
        assertEquals(op.rule(), vigil.params().rule());
        assertEquals(op.estimator(), vigil.params().estimator());
        assertEquals(DecisionOverrides.none().resolve(CBF_MODEL), vigil.params());
        assertEquals(
                0.5,
                Vigil.of(CBF_MODEL, DecisionOverrides.none().withTau(0.5))
                        .params()
                        .tau());
    }

    @Test
    void cbfInTimeOrderDecidesAsEvaluate() {
        assertSameAsReplay(CBF_MODEL, CBF.test());
    }

    @Test
    void multichannelInTimeMajorOrderDecidesAsEvaluate() {
        assertSameAsReplay(MULTI_MODEL, MULTI.test());
    }

    @Test
    void multichannelWithValuesMissingAndShuffledDecidesAsEvaluateUnderThePattern() {
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.2).shuffled(true).seed(9).build();
        assertSameUnderPattern(MULTI_MODEL, MULTI.test(), pattern);
    }

    @Test
    void univariateWithValuesMissingDecidesAsEvaluateUnderThePattern() {
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).seed(2).build();
        assertSameUnderPattern(CBF_MODEL, CBF.test(), pattern);
    }

    @Test
    void missingValuesGivenAsNanInTimeMajorOrderDecideAsTheirPattern() {
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).seed(5).build();
        Vigil vigil = Vigil.of(CBF_MODEL);
        EarlyClassifier c = vigil.classifier();
        List<SeriesDecision> expected =
                EarlyReplay.run(c, CBF.test(), pattern, "s/").decisions();
        VigilSession s = vigil.newSession();
        for (int i = 0; i < CBF.test().size(); i++) {
            double[] x = CBF.test().series(i);
            boolean[] seen = new boolean[x.length];
            for (int j : pattern.order("s/" + i, 1, x.length)) {
                seen[j] = true;
            }
            s.reset();
            Optional<EarlyDecision> d = Optional.empty();
            for (int j = 0; j < x.length && d.isEmpty(); j++) {
                d = s.observe(seen[j] ? x[j] : Double.NaN);
            }
            EarlyDecision got = d.or(s::end).orElseThrow();
            assertEquals(expected.get(i).label(), got.classIndex(), "series " + i);
            assertEquals(expected.get(i).t(), got.t(), "series " + i);
        }
    }

    @Test
    void aSeriesIsDecidedOnceAndThenNeverAgain() {
        VigilSession s = Vigil.of(CBF_MODEL).newSession();
        double[] x = CBF.test().series(0);
        int decisions = 0;
        for (double v : x) {
            decisions += s.observe(v).isPresent() ? 1 : 0;
        }
        assertEquals(1, decisions);
        assertTrue(s.isDecided());
        assertTrue(s.end().isEmpty(), "end() after the decision says nothing");
        assertThrows(IllegalStateException.class, () -> s.observe(1.0), "a complete series takes no more values");
        s.reset();
        assertFalse(s.isDecided());
        assertTrue(s.observe(x[0]).isEmpty() || s.isDecided());
    }

    @Test
    void aSeriesEndingEarlyIsDecidedByEnd() {
        VigilSession s = Vigil.of(CBF_MODEL).newSession();
        double[] x = CBF.test().series(1);
        s.observe(x[0]);
        s.observe(x[1]);
        EarlyDecision d = s.end().orElseThrow();
        assertFalse(d.early());
        assertFalse(d.complete());
        assertEquals(2, d.t());
        assertEquals(2, d.observed());
        assertTrue(s.end().isEmpty());
    }

    @Test
    void badValuesAreRefusedNamingThem() {
        VigilSession s = Vigil.of(MULTI_MODEL).newSession();
        s.observe(0, 1, 0.5);
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class, () -> s.observe(0, 1, 0.5));
        assertTrue(dup.getMessage().contains("already observed"), dup.getMessage());
        IllegalArgumentException ch = assertThrows(IllegalArgumentException.class, () -> s.observe(3, 1, 0.5));
        assertTrue(ch.getMessage().contains("channel 3"), ch.getMessage());
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class, () -> s.observe(0, 129, 0.5));
        assertTrue(t.getMessage().contains("t=129"), t.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.observe(1, 1, Double.POSITIVE_INFINITY));
    }

    /** Every series fed value by value in time-major order: the session's decision is the replay's. */
    private static void assertSameAsReplay(VigilModel model, Dataset test) {
        Vigil vigil = Vigil.of(model);
        List<SeriesDecision> expected =
                EarlyReplay.run(vigil.classifier(), test).decisions();
        VigilSession s = vigil.newSession();
        int early = 0;
        for (int i = 0; i < test.size(); i++) {
            s.reset();
            double[] x = test.series(i);
            Optional<EarlyDecision> d = Optional.empty();
            for (int j = 0; j < x.length && d.isEmpty(); j++) {
                d = s.observe(x[j]);
            }
            EarlyDecision got = d.orElseThrow(() -> new AssertionError("a complete series always gets a decision"));
            SeriesDecision want = expected.get(i);
            assertEquals(want.label(), got.classIndex(), "series " + i);
            assertEquals(want.t(), got.t(), "series " + i);
            assertEquals(want.early(), got.early(), "series " + i);
            assertEquals(model.classNames().get(want.label()), got.label());
            early += got.early() ? 1 : 0;
        }
        assertTrue(early > 0, "some series are decided early, so the comparison is not only at t = d");
    }

    /** Every series fed in the pattern's arrival order by (channel, t), then ended: the replay's decision. */
    private static void assertSameUnderPattern(VigilModel model, Dataset test, ObservationPattern pattern) {
        Vigil vigil = Vigil.of(model);
        int channels = vigil.channels();
        List<SeriesDecision> expected =
                EarlyReplay.run(vigil.classifier(), test, pattern, "id/").decisions();
        VigilSession s = vigil.newSession();
        for (int i = 0; i < test.size(); i++) {
            s.reset();
            double[] x = test.series(i);
            Optional<EarlyDecision> d = Optional.empty();
            for (int j : pattern.order("id/" + i, channels, x.length)) {
                d = s.observe(j % channels, j / channels + 1, x[j]);
                if (d.isPresent()) {
                    break;
                }
            }
            if (d.isEmpty()) {
                d = s.end();
            }
            EarlyDecision got = d.orElseThrow();
            SeriesDecision want = expected.get(i);
            assertEquals(want.label(), got.classIndex(), "series " + i);
            assertEquals(want.t(), got.t(), "series " + i);
            assertEquals(want.early(), got.early(), "series " + i);
        }
    }
}
