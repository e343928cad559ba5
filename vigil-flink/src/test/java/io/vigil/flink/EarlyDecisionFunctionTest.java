package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import io.vigil.util.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The keyed function in Flink's operator test harness: state per key, timers, expiry, snapshot and restore. */
class EarlyDecisionFunctionTest {
    static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));
    private static final long IDLE_MS = SETTINGS.idleTimeout().toMillis();

    static KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> harness() throws Exception {
        EarlyDecisionFunction fn =
                new EarlyDecisionFunction(StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, SETTINGS);
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(fn), e -> e.series, Types.STRING);
    }

    /**
     * The gauge {@code vigil_operating_point_certified} is 1 when the job's τ is certified on the model's calibration
     * and 0 when not (the job then decides every series only at t = d), and 0 for a model without calibration.
     */
    @Test
    void operatingPointCertifiedGaugeSaysWhetherTheTauIsCertified() throws Exception {
        VigilModel calibrated = CrossFitCalibrator.calibrate(
                EarlyFixtures.CBF_MODEL,
                EarlyFixtures.CBF.train(),
                EarlyModelTrainer.Params.defaults(),
                CalibrationParams.defaults(1L).withFoldsAndDelta(5, 0.1),
                Progress.none());
        byte[] bytes = ModelFile.standard().toBytes(calibrated);
        assertEquals(1, certifiedGauge(bytes, DecisionParams.defaults().withTau(0.5)), "tau 0.5 on 60 series");
        assertEquals(0, certifiedGauge(bytes, DecisionParams.defaults().withTau(0.999)), "tau 0.999 on 60 series");
        assertTrue(EarlyClassifier.of(calibrated, DecisionParams.defaults().withTau(0.999))
                .thresholds()
                .neverEarly());
        assertEquals(0, certifiedGauge(StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS), "no calibration");
    }

    private static long certifiedGauge(byte[] model, DecisionParams params) throws Exception {
        OperatorMetrics metrics = new OperatorMetrics();
        try (MockEnvironment env = environment(metrics);
                var h = new KeyedOneInputStreamOperatorTestHarness<>(
                        new EarlyDecisionOperator(new EarlyDecisionFunction(model, params, SETTINGS)),
                        (SampleEvent e) -> e.series,
                        Types.STRING,
                        env)) {
            h.open();
            return metrics.value(JobMetrics.OPERATING_POINT_CERTIFIED);
        }
    }

    /** The production operator ({@link EarlyDecisionOperator}) of the fixture model, reporting to {@code env}. */
    private static KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> operatorHarness(
            MockEnvironment env) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new EarlyDecisionOperator(
                        new EarlyDecisionFunction(StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, SETTINGS)),
                (SampleEvent e) -> e.series,
                Types.STRING,
                env);
    }

    private static MockEnvironment environment(OperatorMetrics metrics) {
        return metrics.environment();
    }

    /** The undecided record the tracker gives series i after its first {@code cut} samples (what the job must emit). */
    private static DecisionRecord undecidedAfter(int i, int cut) {
        io.vigil.stream.SeriesTracker tracker =
                new io.vigil.stream.SeriesTracker(StreamFixtures.classifier(), SETTINGS, "m", 1L);
        io.vigil.stream.SeriesTracker.Workspace ws = tracker.newWorkspace();
        List<DecisionRecord> out = new ArrayList<>();
        io.vigil.stream.SeriesTracker.Output sink = new io.vigil.stream.SeriesTracker.Output() {
            @Override
            public void decision(DecisionRecord record) {
                out.add(record);
            }

            @Override
            public void deadLetter(DeadLetter letter) {}
        };
        io.vigil.stream.SeriesSession s = null;
        for (SampleEvent e : StreamFixtures.events(i, 0).subList(0, cut)) {
            s = tracker.onSample(s, e, 0L, sink, ws);
        }
        tracker.onEndOfInput(s, StreamFixtures.id(i), 0L, sink, ws);
        assertEquals(1, out.size());
        return out.get(0);
    }

    private static DecisionRecord only(List<DecisionRecord> records, int i) {
        List<DecisionRecord> mine = records.stream()
                .filter(r -> r.series.equals(StreamFixtures.id(i)))
                .toList();
        assertEquals(1, mine.size(), "records of series " + i + ": " + mine);
        return mine.get(0);
    }

    /**
     * The end of a bounded input (processing-time timers do not fire then): every undecided series gets one undecided
     * record with its current label, buffered samples are dead-lettered, a series decided early gets nothing more, and
     * state, timers and the in-flight gauge go to zero.
     */
    @Test
    void endOfInputGivesEveryUndecidedSeriesOneRecordAndClearsTheState() throws Exception {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        int a = 1;
        int b = 0;
        int c = 2;
        int cutA = offline.get(a).t() - 1;
        assertTrue(cutA >= 1 && offline.get(b).t() + 2 < 128 && offline.get(c).t() > 2, "fixture decision times");
        OperatorMetrics metrics = new OperatorMetrics();
        try (MockEnvironment env = environment(metrics);
                var h = operatorHarness(env)) {
            h.open();
            h.setProcessingTime(1_000L);
            List<SampleEvent> ea = StreamFixtures.events(a, 0);
            List<SampleEvent> eb = StreamFixtures.events(b, 1000);
            List<SampleEvent> ec = StreamFixtures.events(c, 2000);
            ea.subList(0, cutA).forEach(e -> process(h, e));
            eb.subList(0, offline.get(b).t() + 2).forEach(e -> process(h, e));
            ec.subList(0, 2).forEach(e -> process(h, e));
            process(h, ec.get(4)); // t = 5 waits for t = 3
            process(h, StreamFixtures.event("never-began", 3, 0.5, 77)); // t = 1 never arrives
            assertEquals(1, h.extractOutputValues().size(), "only b decided so far");
            assertEquals(4, metrics.value("seriesInFlight"));
            assertEquals(4, h.numProcessingTimeTimers());

            h.endInput();

            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(3, out.size(), out.toString());
            assertEquals(DecisionRecord.DECIDED, only(out, b).status);
            DecisionRecord ra = only(out, a);
            DecisionRecord want = undecidedAfter(a, cutA);
            assertEquals(DecisionRecord.UNDECIDED, ra.status);
            assertEquals(cutA, ra.t);
            assertEquals(want.label, ra.label);
            assertEquals(want.reliability, ra.reliability, 0.0);
            assertEquals(ea.get(cutA - 1).timestamp, ra.sampleTime);
            DecisionRecord rc = only(out, c);
            assertEquals(DecisionRecord.UNDECIDED, rc.status);
            assertEquals(2, rc.t);
            assertEquals(
                    List.of("gap_unfilled", "late_sample"),
                    deadLetters(h).stream().map(d -> d.reason).sorted().toList());
            assertEquals(0, h.numKeyedStateEntries());
            assertEquals(0, h.numProcessingTimeTimers());
            assertEquals(0, metrics.value("seriesInFlight"));
            assertEquals(2, metrics.value("decisionsUndecided"));
            assertEquals(1, metrics.value("decisionsEarly"));
            assertEquals(0, metrics.value("seriesAbandoned"));
        }
    }

    /** Sessions restored from a snapshot are counted in flight and ended at the end of input like any other. */
    @Test
    void snapshotRestoreThenEndOfInputGivesTheUndecidedRecords() throws Exception {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        int a = 5;
        int b = 0;
        int cutA = Math.min(3, offline.get(a).t() - 1);
        List<SampleEvent> ea = StreamFixtures.events(a, 0);
        OperatorSubtaskState snapshot;
        try (MockEnvironment env = environment(new OperatorMetrics());
                var h = operatorHarness(env)) {
            h.open();
            ea.subList(0, cutA).forEach(e -> process(h, e));
            StreamFixtures.events(b, 1000).subList(0, offline.get(b).t()).forEach(e -> process(h, e));
            assertEquals(1, h.extractOutputValues().size());
            snapshot = h.snapshot(1L, 0L);
        }
        OperatorMetrics metrics = new OperatorMetrics();
        try (MockEnvironment env = environment(metrics);
                var h = operatorHarness(env)) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            assertEquals(2, metrics.value("seriesInFlight"), "recounted at restore");
            h.endInput();
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size(), "the decided series gets nothing more: " + out);
            DecisionRecord want = undecidedAfter(a, cutA);
            assertEquals(DecisionRecord.UNDECIDED, out.get(0).status);
            assertEquals(StreamFixtures.id(a), out.get(0).series);
            assertEquals(cutA, out.get(0).t);
            assertEquals(want.label, out.get(0).label);
            assertEquals(want.reliability, out.get(0).reliability, 0.0);
            assertEquals(0, h.numKeyedStateEntries());
            assertEquals(0, metrics.value("seriesInFlight"));
            assertTrue(deadLetters(h).isEmpty());
        }
    }

    @Test
    void aSampleOutsideTheTrainingRangeMarksTheRecordAndIsCounted() throws Exception {
        OperatorMetrics metrics = new OperatorMetrics();
        try (MockEnvironment env = environment(metrics);
                var h = operatorHarness(env)) {
            h.open();
            process(h, StreamFixtures.event("huge", 1, 1e100, 0));
            StreamFixtures.events(4, 10).forEach(e -> process(h, e));
            assertEquals(1, h.extractOutputValues().size(), "the rejected t = 1 decides nothing");
            assertEquals(
                    List.of("out_of_range"),
                    deadLetters(h).stream().map(d -> d.reason).toList());
            h.endInput();
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(2, out.size());
            assertTrue(!only(out, 4).outOfRange);
            DecisionRecord huge = out.stream()
                    .filter(r -> r.series.equals("huge"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(huge.outOfRange);
            assertEquals(1, huge.outOfRangeSamples, huge.toString() + " " + new String(StreamJson.decision(huge)));
            assertEquals(1, metrics.value("outOfRange"));
            assertEquals(1, metrics.value("deadLetters_out_of_range"));
        }
    }

    private static void process(OneInputStreamOperatorTestHarness<SampleEvent, DecisionRecord> h, SampleEvent e) {
        try {
            h.processElement(e, 0L);
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }

    static List<DeadLetter> deadLetters(OneInputStreamOperatorTestHarness<?, ?> h) {
        ConcurrentLinkedQueue<StreamRecord<DeadLetter>> q = h.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS);
        List<DeadLetter> out = new ArrayList<>();
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    private static String label(SeriesDecision d) {
        return StreamFixtures.classifier().classNames().get(d.label());
    }

    @Test
    void interleavedSeriesKeepSeparateStateAndEachGetsItsOfflineDecision() throws Exception {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        try (var h = harness()) {
            h.open();
            List<List<SampleEvent>> series = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                series.add(StreamFixtures.events(i, 1000L * i));
            }
            for (int t = 0; t < 128; t++) {
                for (List<SampleEvent> s : series) {
                    h.processElement(s.get(t), 0L);
                }
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(6, out.size());
            for (DecisionRecord r : out) {
                int i = Integer.parseInt(r.series.substring(r.series.lastIndexOf('/') + 1));
                assertEquals(offline.get(i).t(), r.t, r.series);
                assertEquals(label(offline.get(i)), r.label, r.series);
            }
            assertEquals(0, h.numKeyedStateEntries(), "state cleared after t = d");
            assertEquals(0, h.numProcessingTimeTimers(), "timers deleted after t = d");
            assertTrue(deadLetters(h).isEmpty());
        }
    }

    /**
     * A model whose calibration certified the per-class mixture (thesis 5.20, {@code train --estimator gmm}): the job
     * decides with the mixture at its operating point, and every series gets exactly the offline decision (t, label)
     * and the same certificate fields as {@code vigil evaluate}.
     */
    @Test
    void mixtureCalibratedModelDecidesAsOfflineWithItsCertificate() throws Exception {
        VigilModel model = CrossFitCalibrator.calibrate(
                EarlyFixtures.CBF_MODEL,
                EarlyFixtures.CBF.train(),
                EarlyModelTrainer.Params.defaults(),
                CalibrationParams.defaults(1L)
                        .withFoldsAndDelta(5, 0.1)
                        .withObjective(CalibrationParams.Objective.EARLIEST_AT_RELIABILITY, 0.8)
                        .withEstimator(EstimatorType.GMM),
                Progress.none());
        var point = model.section(CalibrationSection.class)
                .orElseThrow()
                .operatingPoint()
                .orElseThrow();
        assertEquals(EstimatorType.GMM, point.estimator());
        DecisionParams params =
                new DecisionParams(point.tau(), point.set(), point.estimator(), point.classifier(), null, point.rule());
        EarlyClassifier offlineClassifier = EarlyClassifier.of(model, params);
        assertTrue(offlineClassifier.thresholds().certified(), "60 series certify τ = 0.8 for the mixture");
        List<SeriesDecision> offline = EarlyReplay.replay(offlineClassifier, StreamFixtures.TEST);
        byte[] bytes = ModelFile.standard().toBytes(model);
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new EarlyDecisionFunction(bytes, params, SETTINGS)),
                (SampleEvent e) -> e.series,
                Types.STRING)) {
            h.open();
            int n = 12;
            List<List<SampleEvent>> series = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                series.add(StreamFixtures.events(i, 1000L * i));
            }
            for (int t = 0; t < 128; t++) {
                for (List<SampleEvent> s : series) {
                    h.processElement(s.get(t), 0L);
                }
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(n, out.size());
            boolean early = false;
            for (DecisionRecord r : out) {
                int i = Integer.parseInt(r.series.substring(r.series.lastIndexOf('/') + 1));
                assertEquals(offline.get(i).t(), r.t, r.series);
                assertEquals(offlineClassifier.classNames().get(offline.get(i).label()), r.label, r.series);
                assertTrue(r.certified, r.series);
                assertEquals("pac", r.guarantee, r.series);
                assertEquals(point.tau(), r.target, r.series);
                early |= r.t < 128;
            }
            assertTrue(early, "some series are decided before t = d");
        }
    }

    @Test
    void idleSeriesExpireOnTheirTimerAndLeaveNothingBehind() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(1_000L);
            List<SampleEvent> a = StreamFixtures.events(1, 0);
            h.processElement(a.get(0), 0L);
            h.processElement(a.get(2), 0L); // waits for t = 2
            assertEquals(1, h.numProcessingTimeTimers());
            h.setProcessingTime(20_000L);
            h.processElement(StreamFixtures.events(3, 500).get(0), 0L); // another key, later timer
            assertEquals(2, h.numProcessingTimeTimers());
            h.setProcessingTime(1_000L + IDLE_MS);
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            assertEquals(DecisionRecord.ABANDONED, out.get(0).status);
            assertEquals(StreamFixtures.id(1), out.get(0).series);
            assertEquals(
                    List.of("gap_unfilled"),
                    deadLetters(h).stream().map(d -> d.reason).toList());
            assertEquals(1, h.numKeyedStateEntries(), "only the other series is left");
            assertEquals(1, h.numProcessingTimeTimers());
            h.setProcessingTime(20_000L + IDLE_MS);
            assertEquals(0, h.numKeyedStateEntries());
            assertEquals(0, h.numProcessingTimeTimers());
        }
    }

    @Test
    void activityPostponesExpiryWithASingleTimerPerSeries() throws Exception {
        try (var h = harness()) {
            h.open();
            List<SampleEvent> a = StreamFixtures.events(1, 0);
            h.setProcessingTime(0L);
            h.processElement(a.get(0), 0L);
            h.setProcessingTime(IDLE_MS - 1);
            h.processElement(a.get(1), 0L);
            assertEquals(1, h.numProcessingTimeTimers());
            h.setProcessingTime(IDLE_MS); // the first timer fires, finds activity and re-arms
            assertTrue(h.extractOutputValues().isEmpty());
            assertEquals(1, h.numProcessingTimeTimers());
            h.setProcessingTime(2 * IDLE_MS - 1);
            assertEquals(DecisionRecord.ABANDONED, h.extractOutputValues().get(0).status);
            assertEquals(0, h.numKeyedStateEntries());
        }
    }

    @Test
    void everyBadInputClassGoesToDeadLettersAndGoodSeriesAreUnaffected() throws Exception {
        SeriesDecision good = StreamFixtures.offlineDecisions().get(4);
        try (var router = ProcessFunctionTestHarnesses.forProcessFunction(RejectRouter.samples());
                var h = harness()) {
            h.open();
            List<SampleEvent> events = StreamFixtures.events(4, 0);
            String id = StreamFixtures.id(4);
            List<byte[]> poison = List.of(
                    "".getBytes(),
                    "{\"series\":".getBytes(),
                    "[1,2]".getBytes(),
                    "{\"series\":\"p\"}".getBytes(),
                    "{\"series\":\"p\",\"t\":\"x\",\"value\":1}".getBytes(),
                    "{\"series\":\"p\",\"t\":1,\"value\":NaN}".getBytes(),
                    "{\"series\":\"p\",\"t\":0,\"value\":1}".getBytes());
            long offset = 500;
            for (byte[] p : poison) {
                router.processElement(SampleDeserializer.toEvent("p".getBytes(), p, 7L, 1, offset++), 0L);
            }
            router.processElement(
                    SampleDeserializer.toEvent(
                            "q".getBytes(), "{\"series\":\"p\",\"t\":1,\"value\":1}".getBytes(), 7L, 1, offset++),
                    0L);
            assertTrue(router.extractOutputValues().isEmpty(), "no rejected record passes the router");
            assertEquals(
                    List.of(
                            "empty_value",
                            "unparseable_json",
                            "not_an_object",
                            "missing_field",
                            "wrong_type",
                            "non_finite_value",
                            "t_below_one",
                            "key_mismatch"),
                    deadLetters(router).stream().map(d -> d.reason).toList());
            assertEquals(500, deadLetters(router).get(0).offset);
            assertEquals(1, deadLetters(router).get(0).partition);

            for (int t = 0; t < 10; t++) {
                h.processElement(events.get(t), 0L);
            }
            h.processElement(events.get(3), 0L); // duplicate
            h.processElement(StreamFixtures.event(id, 129, 0.0, 900), 0L); // t > d
            h.processElement(StreamFixtures.event(id, 40, 0.0, 901), 0L); // beyond the reorder window
            for (int t = 10; t < 128; t++) {
                h.processElement(events.get(t), 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            assertEquals(good.t(), out.get(0).t);
            assertEquals(label(good), out.get(0).label);
            assertEquals(
                    List.of("duplicate", "t_beyond_length", "gap_beyond_buffer"),
                    deadLetters(h).stream().map(d -> d.reason).toList());
            assertEquals(0, h.numKeyedStateEntries());
        }
    }

    @Test
    void snapshotAndRestoreMidSeriesGiveTheSameDecisionsAndTimers() throws Exception {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        int a = 0;
        int b = 9;
        List<SampleEvent> ea = StreamFixtures.events(a, 0);
        List<SampleEvent> eb = StreamFixtures.events(b, 1000);
        int cut = 3;
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(5_000L);
            for (int t = 0; t < cut; t++) {
                h.processElement(ea.get(t), 0L);
                h.processElement(eb.get(t), 0L);
            }
            h.processElement(ea.get(cut + 1), 0L); // buffered sample travels in the snapshot
            assertTrue(h.extractOutputValues().isEmpty(), "no decision after " + cut + " samples");
            snapshot = h.snapshot(1L, 5_000L);
        }
        try (var h = harness()) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            h.setProcessingTime(6_000L);
            assertEquals(2, h.numKeyedStateEntries());
            assertEquals(2, h.numProcessingTimeTimers(), "timers restored with the state");
            for (int t = cut; t < 128; t++) {
                if (t != cut + 1) {
                    h.processElement(ea.get(t), 0L);
                }
                h.processElement(eb.get(t), 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(2, out.size());
            DecisionRecord ra = out.stream()
                    .filter(r -> r.series.equals(StreamFixtures.id(a)))
                    .findFirst()
                    .get();
            DecisionRecord rb = out.stream()
                    .filter(r -> r.series.equals(StreamFixtures.id(b)))
                    .findFirst()
                    .get();
            assertEquals(offline.get(a).t(), ra.t);
            assertEquals(label(offline.get(a)), ra.label);
            assertEquals(offline.get(b).t(), rb.t);
            assertEquals(label(offline.get(b)), rb.label);
            assertEquals(0, h.numKeyedStateEntries());
            assertEquals(0, h.numProcessingTimeTimers());
            assertTrue(deadLetters(h).isEmpty());
        }
    }
}
