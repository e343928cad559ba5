package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.experiment.GuaranteeExperiment.Outcome;
import io.vigil.experiment.GuaranteeExperiment.Point;
import io.vigil.experiment.GuaranteeExperiment.Split;
import io.vigil.experiment.GuaranteeExperiment.Variant;
import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's dataset means: over the splits certifying τ, and over every split (what the expected guarantee bounds). */
class GuaranteeReportTest {
    private static final double TAU = 0.9;
    private static final Variant EXPECTED = new Variant(Guarantee.EXPECTED, Selection.FIXED);

    /** One split whose model certifies τ or not, with {@code reliable} of 100 test series agreeing at τ. */
    private static Split split(int index, boolean certified, int reliable) {
        Point at = new Point(TAU, certified, 100, reliable, reliable, certified ? 0.4 : 1.0);
        Point earliest = new Point(0.02, false, 100, 70, 70, 0.1);
        Outcome o = new Outcome(EXPECTED, "set", "local-qda", 0.9, at, earliest, earliest, List.of(at));
        return new Split(index, index, 30, 1.0, List.of(o), "");
    }

    /**
     * The calibration goal's pairs are chosen by the earliest rule's cross-fitted reliability, which the training part
     * shows, not by its test reliability: split 0 is early-unreliable on its replays (0.7) but not on its test part
     * (0.95), split 1 the other way round; only split 0 counts. Split 2 is early-unreliable on its replays and cannot
     * certify τ: it counts over all pairs (as t = d, reliability 1.0), not over certified ones.
     */
    @Test
    void calibrationGoalPairsAreSelectedOnTheCrossFittedReplays() {
        double tau = 0.8;
        Point low = new Point(0.02, false, 100, 70, 70, 0.1);
        Point high = new Point(0.02, false, 100, 95, 95, 0.1);
        Point at0 = new Point(tau, true, 100, 84, 84, 0.5);
        Point at1 = new Point(tau, true, 100, 78, 78, 0.5);
        Point at2 = new Point(tau, false, 100, 100, 100, 1.0);
        List<Split> splits = List.of(
                new Split(
                        0,
                        0,
                        30,
                        1,
                        List.of(new Outcome(EXPECTED, "set", "local-qda", 0.9, at0, high, low, List.of(at0))),
                        ""),
                new Split(
                        1,
                        1,
                        30,
                        1,
                        List.of(new Outcome(EXPECTED, "set", "local-qda", 0.9, at1, low, high, List.of(at1))),
                        ""),
                new Split(
                        2,
                        2,
                        30,
                        1,
                        List.of(new Outcome(EXPECTED, "set", "local-qda", 0.9, at2, low, low, List.of(at2))),
                        ""));
        GuaranteeReport report = new GuaranteeReport(
                List.of(new GuaranteeExperiment.DatasetResult("D", 30, 100, 50, splits)), config(List.of(tau)));
        GuaranteeReport.EarlyUnreliable e = report.earlyUnreliable(EXPECTED).get(0);
        assertEquals(1, e.pairs());
        assertEquals(0.04, e.meanExcess(), 1e-12);
        assertEquals(2, e.pairsAll());
        assertEquals((0.04 + 0.2) / 2, e.meanExcessAll(), 1e-12);
        // Two clusters, values 0.04 and 0.2: SE = |0.2 − 0.04| / 2.
        assertEquals(0.08, e.seAll(), 1e-12);
        assertTrue(Double.isNaN(e.se()), "one certified cluster has no standard error");
        assertTrue(report.markdown(Map.of()).contains("## Power of the 5 % check"));
    }

    /** One draw U per (dataset, split): two datasets of one split get different draws, and a run repeats them. */
    @Test
    void conformalDrawsDifferPerDatasetAndSplit() {
        GuaranteeExperiment.Config c = config(List.of(TAU));
        assertTrue(c.crcDraw("GunPoint", 0) != c.crcDraw("CBF", 0));
        assertTrue(c.crcDraw("GunPoint", 0) != c.crcDraw("GunPoint", 1));
        assertEquals(c.crcDraw("GunPoint", 3), config(List.of(TAU)).crcDraw("GunPoint", 3));
    }

    private static GuaranteeExperiment.Config config(List<Double> taus) {
        return new GuaranteeExperiment.Config(
                4,
                1,
                taus,
                List.of(Guarantee.EXPECTED),
                List.of(Selection.FIXED),
                false,
                EstimatorType.JOINT,
                ObservationPattern.complete(),
                true);
    }

    /**
     * "Sometimes": two splits certify τ = 0.9 and reach 0.85; two cannot certify it and decide at t = d (1.0). Over the
     * certifying splits the mean, 0.85, is below τ − 0.01; over all four, 0.925, it is not — the expected guarantee
     * bounds the latter. "Always": every split certifies and reaches 0.87, below on both readings. "Never": no split
     * certifies, so neither reading lists it.
     */
    @Test
    void dataSetMeansOverCertifyingSplitsAndOverAll() {
        List<GuaranteeExperiment.DatasetResult> results = new ArrayList<>();
        results.add(new GuaranteeExperiment.DatasetResult(
                "Sometimes",
                30,
                100,
                50,
                List.of(split(0, true, 85), split(1, false, 100), split(2, true, 85), split(3, false, 100))));
        results.add(new GuaranteeExperiment.DatasetResult(
                "Always", 30, 100, 50, List.of(split(0, true, 87), split(1, true, 87))));
        results.add(new GuaranteeExperiment.DatasetResult(
                "Never", 30, 100, 50, List.of(split(0, false, 100), split(1, false, 100))));
        GuaranteeReport report = new GuaranteeReport(results, config(List.of(TAU)));
        List<GuaranteeReport.MeanShortfall> certifying = report.meanShortfalls(EXPECTED, false);
        assertEquals(
                List.of("Sometimes", "Always"),
                certifying.stream().map(GuaranteeReport.MeanShortfall::dataset).toList());
        assertEquals(0.85, certifying.get(0).meanReliability(), 1e-12);
        assertEquals(2, certifying.get(0).splits());
        List<GuaranteeReport.MeanShortfall> all = report.meanShortfalls(EXPECTED, true);
        assertEquals(
                List.of("Always"),
                all.stream().map(GuaranteeReport.MeanShortfall::dataset).toList());
        assertEquals(0.87, all.get(0).meanReliability(), 1e-12);
        assertTrue(all.get(0).overAll() && !certifying.get(0).overAll());
        String md = report.markdown(Map.of());
        assertTrue(
                md.contains("over certifying splits below τ − 0.01: Sometimes τ = 0.9 (0.850 ± 0.000 over 2), Always"),
                md);
        assertTrue(
                md.contains(
                        "over all splits (a split that cannot certify τ decides at t = d): Always τ = 0.9 (0.870 ± 0.000 over 2)"),
                md);
    }
}
