package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.util.Progress;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Calibrating the per-class mixture (thesis 5.20) instead of the joint Gaussian (5.19): the folds refit the mixture, the
 * inflation κ is learned from its moments, the curves and the operating point name it, and only rules conditioning
 * with it are certified and inflated.
 */
class GmmCalibrationTest {
    /** Generated CBF: 120 training series for the model and its cross-fitting, 200 held-out series to check it. */
    private static final TrainTest DATA = CrossFitCalibratorTest.DATA;

    private static final VigilModel BASE = CrossFitCalibratorTest.uncalibrated();

    private static final VigilModel GMM = calibrate(EstimatorType.GMM);

    private static VigilModel calibrate(EstimatorType e) {
        CalibrationParams cp =
                CalibrationParams.defaults(1L).withFoldsAndDelta(5, 0.1).withEstimator(e);
        return CrossFitCalibrator.calibrate(
                BASE.toBuilder().build(), DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
    }

    private static DecisionParams params(double tau, EstimatorType e) {
        return new DecisionParams(tau, SetKind.NB_QUADRATIC, e, ClassifierKind.LOCAL_QDA, null, DecisionRule.SET);
    }

    @Test
    void curvesAndOperatingPointNameTheMixtureAndOnlyItsRulesAreCertified() throws IOException {
        CalibrationSection cal = GMM.section(CalibrationSection.class).orElseThrow();
        assertFalse(cal.curves().isEmpty());
        for (CalibrationSection.Curve c : cal.curves()) {
            assertEquals(EstimatorType.GMM, c.estimator(), c.toString());
        }
        assertEquals(EstimatorType.GMM, cal.operatingPoint().orElseThrow().estimator());
        assertTrue(cal.inflates(EstimatorType.GMM));
        assertFalse(cal.inflates(EstimatorType.JOINT), "κ was learned for the mixture's moments");
        EarlyClassifier gmm = EarlyClassifier.of(GMM, params(0.8, EstimatorType.GMM));
        assertTrue(gmm.thresholds().calibrated());
        assertTrue(gmm.thresholds().certified(), "120 series certify τ = 0.8");
        EarlyClassifier joint = EarlyClassifier.of(GMM, params(0.8, EstimatorType.JOINT));
        assertFalse(joint.thresholds().calibrated(), "the joint Gaussian was not replayed: no certificate to inherit");
        ModelFile file = ModelFile.standard();
        assertEquals(GMM, file.read(file.toBytes(GMM), "memory"), "the gmm curves round-trip");
        // A Vigil reading calibration version 1 would certify the mixture's curves without their κ: it must refuse.
        assertEquals(2, calibrationVersion(file.toBytes(GMM)));
        assertEquals(1, calibrationVersion(file.toBytes(calibrate(EstimatorType.JOINT))), "joint files stay readable");
    }

    /**
     * The mixture's κ is its own: learned from the held-out distances of its moment-matched Gaussian, it makes the
     * inflated 0.9-set cover held-out generated series (never seen by the model or its folds) at 0.9 within sampling
     * error — the same check, with the same tolerance, as the joint Gaussian's in {@code CrossFitCalibratorTest} — and
     * it differs from the joint Gaussian's κ on the same folds.
     */
    @Test
    void inflationIsLearnedFromTheMixturesMomentsAndCoversHeldOutSeries() {
        CalibrationSection cal = GMM.section(CalibrationSection.class).orElseThrow();
        CalibrationSection jointCal =
                calibrate(EstimatorType.JOINT).section(CalibrationSection.class).orElseThrow();
        assertFalse(Arrays.equals(cal.inflation(), jointCal.inflation()), "one κ per estimator");
        assertEquals(0.9, cal.coverageAfter()[2], 0.02, "cross-fitted coverage at 0.9 is matched by construction");
        double[] after =
                HeldOutCoverage.perSeries(GMM, EarlyClassifier.estimator(GMM, EstimatorType.GMM), cal, DATA.test())[1];
        double mean = Arrays.stream(after).average().orElseThrow();
        double var = Arrays.stream(after).map(a -> (a - mean) * (a - mean)).sum() / (after.length - 1);
        assertEquals(0.9, mean, 3 * Math.sqrt(var / after.length) + 0.02, "held-out coverage after inflation");
    }

    /**
     * The certified mixture rule on held-out series: an uncertifiable τ waits for every series' end, a certified one
     * decides earlier on some, and its agreement with the complete-series label is not significantly below τ.
     */
    @Test
    void certifiedMixtureRuleHoldsOnHeldOutSeries() {
        EarlyClassifier never = EarlyClassifier.of(GMM, params(0.999, EstimatorType.GMM));
        assertTrue(never.thresholds().neverEarly());
        for (SeriesDecision d : EarlyReplay.replay(never, DATA.test())) {
            assertEquals(GMM.length(), d.t());
        }
        EarlyClassifier c = EarlyClassifier.of(GMM, params(0.8, EstimatorType.GMM));
        List<SeriesDecision> ds = EarlyReplay.replay(c, DATA.test());
        long agree = ds.stream().filter(SeriesDecision::reliable).count();
        long early = ds.stream().filter(d -> d.t() < GMM.length()).count();
        assertTrue(early > 0, "a certified τ decides some series early");
        // One-sided binomial at 5 %: 200 series at rate 0.8 have standard deviation √(200·0.8·0.2) ≈ 5.7, so below
        // 160 − 1.645·5.7 ≈ 150.7 agreements would be significantly below τ.
        assertTrue(agree >= 151, agree + " of 200 agree");
    }

    private static int calibrationVersion(byte[] file) throws IOException {
        return new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(file)
                .at("/sections/calibration/version")
                .asInt();
    }

    /**
     * Calibrated for values missing at random, the replays go through the mixture's any-order form (thesis 5.20 on the
     * observed set): the section names the pattern and the mixture, and on 200 held-out series observed under the same
     * pattern the certified rule decides some early and agrees with the complete-series label not significantly below
     * τ. τ = 0.7, not 0.8: a series that loses values may end undecided and is then labelled at E[x | observed], which
     * disagrees with its complete label on ≈ 15 % of the replayed series whatever the rule (18–19 of 120 for the joint
     * Gaussian too), so 0.8 cannot be certified under this pattern on 120 series.
     */
    @Test
    void theMixtureIsCalibratedForAnObservationPatternAndHoldsOnHeldOutSeriesUnderIt() {
        ObservationPattern missing =
                ObservationPattern.builder().missing(0.2).seed(26).build();
        CalibrationParams cp = CalibrationParams.defaults(1L)
                .withFoldsAndDelta(5, 0.1)
                .withEstimator(EstimatorType.GMM)
                .withPattern(missing);
        VigilModel m = CrossFitCalibrator.calibrate(
                BASE.toBuilder().build(), DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
        CalibrationSection cal = m.section(CalibrationSection.class).orElseThrow();
        assertEquals(missing, cal.pattern());
        assertEquals(EstimatorType.GMM, cal.operatingPoint().orElseThrow().estimator());
        EarlyClassifier c = EarlyClassifier.of(m, params(0.7, EstimatorType.GMM));
        assertTrue(c.thresholds().certified(), "120 series certify τ = 0.7 under the pattern");
        List<SeriesDecision> ds =
                EarlyReplay.run(c, DATA.test(), missing, "CBF/test/").decisions();
        long agree = ds.stream().filter(SeriesDecision::reliable).count();
        long early = ds.stream().filter(SeriesDecision::early).count();
        assertTrue(early > 0, "a certified τ decides some series early");
        // One-sided binomial at 5 %: 200 series at rate 0.7 have standard deviation √(200·0.7·0.3) ≈ 6.5, so below
        // 140 − 1.645·6.5 ≈ 129.3 agreements would be significantly below τ.
        assertTrue(agree >= 130, agree + " of 200 agree");
    }

    @Test
    void oneSectionHoldsOneEstimator() {
        CalibrationSection cal = GMM.section(CalibrationSection.class).orElseThrow();
        CalibrationSection.Curve gmm = cal.curves().get(0);
        CalibrationSection.Curve joint = calibrate(EstimatorType.JOINT)
                .section(CalibrationSection.class)
                .orElseThrow()
                .curves()
                .get(0);
        assertNotEquals(gmm.estimator(), joint.estimator());
        IllegalArgumentException mixed = assertThrows(
                IllegalArgumentException.class,
                () -> new CalibrationSection(
                        cal.folds(),
                        cal.seed(),
                        cal.delta(),
                        cal.inflation(),
                        cal.thresholds(),
                        List.of(gmm, joint),
                        cal.coverageTaus(),
                        cal.coverageBefore(),
                        cal.coverageAfter(),
                        cal.operatingPoint(),
                        cal.guarantee(),
                        cal.selection(),
                        cal.candidates(),
                        new int[0],
                        new int[0],
                        cal.pattern(),
                        cal.crcDraw(),
                        io.vigil.reliability.risk.DrawSource.implied(cal.crcDraw()),
                        0));
        assertTrue(mixed.getMessage().contains("mix"), mixed.getMessage());
    }
}
