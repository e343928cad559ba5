package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.util.Progress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SeriesTrackerTest {
    private static final long TAG = 42L;
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));

    private final EarlyClassifier classifier = StreamFixtures.classifier();
    private final SeriesTracker tracker = new SeriesTracker(classifier, SETTINGS, "model-id", TAG);
    private final SeriesTracker.Workspace ws = tracker.newWorkspace();
    private final Recorder out = new Recorder();

    /** Collects what the tracker emits. */
    static final class Recorder implements SeriesTracker.Output {
        final List<DecisionRecord> decisions = new ArrayList<>();
        final List<DeadLetter> deadLetters = new ArrayList<>();
        int restarts;

        @Override
        public void decision(DecisionRecord record) {
            decisions.add(record);
        }

        @Override
        public void deadLetter(DeadLetter letter) {
            deadLetters.add(letter);
        }

        @Override
        public void restartedIncompatible(SeriesSession discarded) {
            restarts++;
        }

        @Override
        public void outOfRange(String series, int t, double value) {
            outOfRange++;
        }

        int outOfRange;

        @Override
        public void endOfInputFailed(String series, RuntimeException failure) {
            failures.add(failure);
        }

        final List<RuntimeException> failures = new ArrayList<>();
    }

    private SeriesSession feed(SeriesSession s, List<SampleEvent> events) {
        SeriesSession cur = s;
        for (SampleEvent e : events) {
            cur = tracker.onSample(cur, e, 0L, out, ws);
        }
        return cur;
    }

    @Test
    void inOrderSamplesGiveTheOfflineDecisionOfEverySeriesAndEndTheSession() {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        for (int i = 0; i < StreamFixtures.TEST.size(); i++) {
            out.decisions.clear();
            SeriesSession end = feed(null, StreamFixtures.events(i, 0));
            assertNull(end, "series " + i + " ends at t = d");
            assertEquals(1, out.decisions.size(), "one decision for series " + i);
            DecisionRecord r = out.decisions.get(0);
            SeriesDecision want = offline.get(i);
            assertEquals(classifier.classNames().get(want.label()), r.label, "label of series " + i);
            assertEquals(want.t(), r.t, "decision time of series " + i);
            assertEquals(want.early(), r.early);
            assertEquals(StreamFixtures.id(i), r.series);
            assertEquals(128, r.length);
            assertEquals("model-id", r.model);
            assertTrue(r.reliability >= StreamFixtures.PARAMS.tau() - 1e-3 || !r.early, "reliability " + r.reliability);
        }
        assertTrue(out.deadLetters.isEmpty());
    }

    /**
     * The probability rule (thesis eq. 5.1) on a cross-fitted, calibrated model gives in the stream exactly the
     * decisions and times of the offline replay — its quasi-Monte-Carlo signs come from the series itself, not from
     * the path it arrives by — and every reported reliability is at least τ; with local QDA and with k-NN.
     */
    @Test
    void probabilityRuleStreamsTheOfflineDecisions() {
        VigilModel calibrated = calibrated();
        for (ClassifierKind kind : List.of(ClassifierKind.LOCAL_QDA, ClassifierKind.KNN)) {
            DecisionParams p = DecisionParams.defaults()
                    .withRule(DecisionRule.PROBABILITY)
                    .withClassifier(kind)
                    .withTau(0.8);
            EarlyClassifier c = EarlyClassifier.of(calibrated, p);
            SeriesTracker t = new SeriesTracker(c, SETTINGS, "model-id", TAG);
            SeriesTracker.Workspace w = t.newWorkspace();
            List<SeriesDecision> offline = EarlyReplay.replay(c, StreamFixtures.TEST);
            for (int i = 0; i < StreamFixtures.TEST.size(); i++) {
                out.decisions.clear();
                SeriesSession cur = null;
                for (SampleEvent e : StreamFixtures.events(i, 0)) {
                    cur = t.onSample(cur, e, 0L, out, w);
                }
                assertEquals(1, out.decisions.size(), kind + ", series " + i);
                DecisionRecord r = out.decisions.get(0);
                assertEquals(c.classNames().get(offline.get(i).label()), r.label, kind + ", series " + i);
                assertEquals(offline.get(i).t(), r.t, kind + ", series " + i);
                assertTrue(r.reliability >= 0.8, kind + ", series " + i + ": reliability " + r.reliability);
            }
        }
    }

    private static VigilModel calibrated;

    /**
     * The fixture model cross-fitted with four folds, Bonferroni-corrected so every replayed rule keeps its curve
     * (computed once for the tests that need it).
     */
    private static synchronized VigilModel calibrated() {
        if (calibrated == null) {
            calibrated = CrossFitCalibrator.calibrate(
                    EarlyFixtures.CBF_MODEL,
                    EarlyFixtures.CBF.train(),
                    EarlyModelTrainer.Params.defaults(),
                    CalibrationParams.defaults(1L)
                            .withFoldsAndDelta(4, 0.1)
                            .withGuarantee(Guarantee.PAC, Selection.BONFERRONI),
                    Progress.none());
        }
        return calibrated;
    }

    /**
     * Every record — decided, undecided at the end of input — carries the certificate of the rule in force: {@code
     * certified}, {@code guarantee} and {@code target} as {@code evaluate} reports them for that τ (stream ≡
     * evaluate); a τ the training series cannot certify and a class-of-interest rule carry none.
     */
    @Test
    void recordsCarryTheCertificateEvaluateReportsForTheirTau() {
        VigilModel m = calibrated();
        DecisionParams base = DecisionParams.defaults().withRule(DecisionRule.PROBABILITY);
        int certified = 0;
        int uncertified = 0;
        for (DecisionParams p : List.of(
                base.withTau(0.5),
                base.withTau(0.8),
                base.withTau(0.999),
                new DecisionParams(0.5, base.set(), base.estimator(), base.classifier(), "1", base.rule()))) {
            EarlyClassifier c = EarlyClassifier.of(m, p);
            io.vigil.evaluate.EarlyEvaluation.TauResult eval = io.vigil.evaluate.EarlyEvaluation.run(
                            "CBF", m, null, StreamFixtures.TEST, List.of(p.tau()), p, Progress.none())
                    .taus()
                    .get(0);
            SeriesTracker t = new SeriesTracker(c, SETTINGS, "model-id", TAG);
            SeriesTracker.Workspace w = t.newWorkspace();
            out.decisions.clear();
            List<SampleEvent> events = StreamFixtures.events(0, 0);
            t.onEndOfInput(feedWith(t, w, events.subList(0, 1)), StreamFixtures.id(0), 1L, out, w);
            feedWith(t, w, StreamFixtures.events(1, 0));
            assertEquals(2, out.decisions.size(), p.toString());
            for (DecisionRecord r : out.decisions) {
                assertEquals(eval.certified(), r.certified, p + ": " + r);
                assertEquals(eval.guarantee(), r.guarantee, p + ": " + r);
                assertEquals(eval.tau(), r.target, 0.0);
                assertEquals(p.tau(), r.tau, 0.0);
            }
            if (p.classOfInterest() != null || p.tau() == 0.999) {
                assertFalse(eval.certified(), p + ": a class of interest and τ = 0.999 on 60 series are uncertified");
                assertEquals("none", eval.guarantee());
            }
            certified += eval.certified() ? 1 : 0;
            uncertified += eval.certified() ? 0 : 1;
        }
        assertTrue(certified > 0 && uncertified > 0, certified + " certified, " + uncertified + " not");
    }

    /** Feeds the events to a tracker of another classifier; returns the session. */
    private SeriesSession feedWith(SeriesTracker t, SeriesTracker.Workspace w, List<SampleEvent> events) {
        SeriesSession cur = null;
        for (SampleEvent e : events) {
            cur = t.onSample(cur, e, 0L, out, w);
        }
        return cur;
    }

    /** Beyond d = 1,000 the rule runs every few samples (DecisionStride); the stream decides where replay does. */
    @Test
    void longSeriesDecideAtTheSameStridePointsAsTheOfflineReplay() {
        Dataset test = EarlyFixtures.LongSeries.DATA.test();
        EarlyClassifier c = EarlyClassifier.of(
                EarlyFixtures.LongSeries.MODEL, DecisionParams.defaults().withTau(0.5));
        SeriesTracker t = new SeriesTracker(c, SETTINGS, "model-id", TAG);
        SeriesTracker.Workspace w = t.newWorkspace();
        List<SeriesDecision> offline = EarlyReplay.replay(c, test);
        int early = 0;
        for (int i = 0; i < test.size(); i++) {
            out.decisions.clear();
            SeriesSession cur = null;
            double[] x = test.series(i);
            for (int s = 1; s <= x.length; s++) {
                cur = t.onSample(cur, StreamFixtures.event("long/" + i, s, x[s - 1], s - 1), 0L, out, w);
            }
            assertEquals(1, out.decisions.size(), "series " + i);
            DecisionRecord r = out.decisions.get(0);
            assertEquals(c.classNames().get(offline.get(i).label()), r.label, "series " + i);
            assertEquals(offline.get(i).t(), r.t, "series " + i);
            assertTrue(r.t % c.stride() == 0 || r.t == x.length, "series " + i + " decided at t = " + r.t);
            early += offline.get(i).early() ? 1 : 0;
        }
        assertTrue(early > 0, "no long series decided early");
    }

    @Test
    void reorderingWithinTheWindowGivesTheSameDecisions() {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        Random rnd = new Random(3);
        for (int i = 0; i < 20; i++) {
            List<SampleEvent> events = new ArrayList<>(StreamFixtures.events(i, 0));
            // Shuffle within blocks of 8: every sample stays within 7 of its place, inside the window of 8.
            for (int b = 0; b < events.size(); b += 8) {
                Collections.shuffle(events.subList(b, Math.min(events.size(), b + 8)), rnd);
            }
            out.decisions.clear();
            assertNull(feed(null, events));
            assertEquals(1, out.decisions.size());
            assertEquals(offline.get(i).t(), out.decisions.get(0).t, "series " + i);
            assertEquals(classifier.classNames().get(offline.get(i).label()), out.decisions.get(0).label);
        }
        assertTrue(out.deadLetters.isEmpty(), () -> "dead letters: " + out.deadLetters);
    }

    @Test
    void absentTimeIndexMeansArrivalOrder() {
        List<SampleEvent> events = StreamFixtures.events(5, 0);
        events.forEach(e -> e.t = 0);
        assertNull(feed(null, events));
        assertEquals(StreamFixtures.offlineDecisions().get(5).t(), out.decisions.get(0).t);
    }

    @Test
    void badSamplesAreDeadLetteredWithTheirReasonAndTheSeriesIsUnaffected() {
        List<SampleEvent> events = StreamFixtures.events(2, 100);
        SeriesSession s = feed(null, events.subList(0, 3));
        s = tracker.onSample(s, events.get(1), 0L, out, ws); // consumed duplicate
        s = tracker.onSample(s, events.get(5), 0L, out, ws); // buffered (t = 6)
        s = tracker.onSample(s, events.get(5), 0L, out, ws); // buffered duplicate
        s = tracker.onSample(s, StreamFixtures.event(StreamFixtures.id(2), 129, 0.1, 999), 0L, out, ws);
        s = tracker.onSample(s, StreamFixtures.event(StreamFixtures.id(2), 12, 0.1, 998), 0L, out, ws);
        List<String> reasons = out.deadLetters.stream().map(d -> d.reason).toList();
        assertEquals(List.of("duplicate", "duplicate", "t_beyond_length", "gap_beyond_buffer"), reasons);
        DeadLetter dup = out.deadLetters.get(0);
        assertEquals(2, dup.t);
        assertEquals(101, dup.offset);
        assertEquals(new String(events.get(1).raw), new String(dup.raw));
        assertEquals(1, s.bufferedCount());
        assertNull(feed(s, events.subList(3, events.size())));
        assertEquals(1, out.decisions.size());
        assertEquals(StreamFixtures.offlineDecisions().get(2).t(), out.decisions.get(0).t);
    }

    @Test
    void afterTheDecisionOnlyAMarkerIsKeptUntilTheEndThenTequals1StartsANewSeries() {
        SeriesDecision offline = StreamFixtures.offlineDecisions().get(0);
        assertTrue(offline.early(), "fixture series 0 is decided early");
        List<SampleEvent> events = StreamFixtures.events(0, 0);
        SeriesSession s = feed(null, events.subList(0, offline.t()));
        assertEquals(SeriesSession.Phase.DECIDED, s.phase());
        assertNull(s.state(), "classifier state dropped after the decision");
        assertEquals(SeriesSession.FIXED_BYTES, s.serializedSizeBytes());
        assertNull(feed(s, events.subList(offline.t(), events.size())));
        assertEquals(1, out.decisions.size());
        SeriesSession again = tracker.onSample(null, events.get(0), 0L, out, ws);
        assertNotNull(again);
        assertEquals(1, again.consumed());
    }

    @Test
    void expiryAbandonsAnUndecidedSeriesAndDeadLettersBufferedSamples() {
        List<SampleEvent> events = StreamFixtures.events(1, 0);
        SeriesSession s = tracker.onSample(null, events.get(0), 1_000L, out, ws);
        s = tracker.onSample(s, events.get(2), 2_000L, out, ws);
        assertTrue(out.decisions.isEmpty());
        assertEquals(32_000L, tracker.expiryTime(s));
        assertTrue(tracker.onIdle(s, "CBF/test/1", 31_999L, out, ws) == s, "not yet idle");
        assertNull(tracker.onIdle(s, "CBF/test/1", 32_000L, out, ws));
        assertEquals(1, out.decisions.size());
        DecisionRecord abandoned = out.decisions.get(0);
        assertEquals(DecisionRecord.ABANDONED, abandoned.status);
        assertEquals(1, abandoned.t);
        assertNull(abandoned.label);
        assertEquals(
                List.of("gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        assertEquals(3, out.deadLetters.get(0).t);
    }

    @Test
    void samplesOfASeriesThatNeverBeganExpireAsLate() {
        SeriesSession s = tracker.onSample(null, StreamFixtures.event("x", 4, 0.5, 7), 0L, out, ws);
        assertEquals(0, s.consumed());
        assertNull(tracker.onIdle(s, "x", 60_000L, out, ws));
        assertTrue(out.decisions.isEmpty(), "no abandoned notice for a series that never began");
        assertEquals("late_sample", out.deadLetters.get(0).reason);
        assertEquals(7, out.deadLetters.get(0).offset);
    }

    @Test
    void aDecidedSeriesThatStopsExpiresSilently() {
        SeriesDecision offline = StreamFixtures.offlineDecisions().get(0);
        SeriesSession s = feed(null, StreamFixtures.events(0, 0).subList(0, offline.t()));
        assertNull(tracker.onIdle(s, StreamFixtures.id(0), Long.MAX_VALUE / 2, out, ws));
        assertEquals(1, out.decisions.size(), "only the decision itself");
    }

    /**
     * At the end of input a series cut before its decision gets one undecided record: t = samples consumed, the label
     * and reliability the classifier gives now, the last sample's event time; its state is for the caller to clear.
     */
    @Test
    void endOfInputGivesAnUndecidedSeriesOneRecordWithItsCurrentLabel() {
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        int checked = 0;
        for (int i = 0; i < StreamFixtures.TEST.size(); i++) {
            int cut = offline.get(i).t() - 1;
            if (cut < 1) {
                continue;
            }
            out.decisions.clear();
            List<SampleEvent> events = StreamFixtures.events(i, 0);
            SeriesSession s = feed(null, events.subList(0, cut));
            assertEquals(SeriesSession.Phase.COLLECTING, s.phase());
            io.vigil.gauss.SeriesState expected = s.state().copy();
            tracker.onEndOfInput(s, StreamFixtures.id(i), 9_000L, out, ws);
            assertEquals(1, out.decisions.size(), "series " + i);
            DecisionRecord r = out.decisions.get(0);
            io.vigil.early.Decision now = io.vigil.early.Decision.withReliability();
            classifier.current(expected, classifier.newWorkspace(), now);
            assertEquals(DecisionRecord.UNDECIDED, r.status);
            assertEquals(StreamFixtures.id(i), r.series);
            assertEquals(cut, r.t);
            assertEquals(128, r.length);
            assertFalse(r.early);
            assertEquals(classifier.classNames().get(now.label()), r.label);
            assertEquals(now.reliability(), r.reliability, 0.0);
            assertTrue(r.reliability < StreamFixtures.PARAMS.tau(), "undecided at τ: " + r.reliability);
            assertEquals(StreamFixtures.PARAMS.tau(), r.tau, 0.0);
            assertEquals("model-id", r.model);
            assertEquals(9_000L, r.emittedAt);
            assertEquals(events.get(cut - 1).timestamp, r.sampleTime);
            checked++;
        }
        assertTrue(checked > 10, "series decided after t = 1: " + checked);
        assertTrue(out.failures.isEmpty(), out.failures.toString());
        assertTrue(out.deadLetters.isEmpty());
    }

    /**
     * A single huge value at t = 1 used to announce a class at once with reliability 0.99 (1e308 with the model it was
     * found with; with this fixture 1e100 does, and 1e308 overflows the projection). The rule is unchanged; the record is
     * marked out_of_range and the sample counted, only when the guard is on.
     */
    @Test
    void aSampleFarOutsideTheTrainingRangeMarksTheDecisionItContributesTo() {
        SampleEvent huge = StreamFixtures.event("huge", 1, 1e100, 0);
        SeriesTracker tracker = new SeriesTracker(
                classifier, SETTINGS.withOutOfRange(io.vigil.data.OutOfRangePolicy.KEEP), "model-id", TAG);
        tracker.onSample(null, huge, 0L, out, ws);
        SeriesTracker off = new SeriesTracker(
                classifier, SETTINGS.withRangeGuard(SessionSettings.RANGE_GUARD_OFF), "model-id", TAG);
        SeriesSession unguarded = off.onSample(null, huge, 0L, out, off.newWorkspace());
        assertEquals(1, out.outOfRange, "counted once, by the guarded tracker");
        assertEquals(2, out.decisions.size(), "the rule is unchanged: both decide on the one sample");
        DecisionRecord marked = out.decisions.get(0);
        DecisionRecord plain = out.decisions.get(1);
        assertEquals(1, marked.t);
        assertTrue(marked.early);
        assertTrue(marked.reliability >= 0.99, "reliability " + marked.reliability);
        assertTrue(marked.outOfRange);
        assertFalse(plain.outOfRange);
        assertEquals(plain.outOfRange(true).outOfRangeSamples(1), marked);
        assertEquals(SeriesSession.Phase.DECIDED, unguarded.phase());

        SampleEvent overflow = StreamFixtures.event("overflow", 1, 1e308, 1);
        assertNotNull(tracker.onSample(null, overflow, 0L, out, ws), "a marker ignores the rest of the series");
        assertEquals(2, out.outOfRange);
        assertEquals(
                List.of("processing_error"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        DecisionRecord error = out.decisions.get(2);
        assertEquals(DecisionRecord.ERROR, error.status);
        assertEquals(1, error.outOfRangeSamples);
        assertTrue(error.error.contains("--out-of-range reject or clip"), error.error);
    }

    @Test
    void samplesWithinTheTrainingRangeLeaveEveryDecisionUnmarked() {
        for (int i = 0; i < StreamFixtures.TEST.size(); i++) {
            feed(null, StreamFixtures.events(i, 0));
        }
        assertEquals(StreamFixtures.TEST.size(), out.decisions.size());
        assertTrue(out.decisions.stream().noneMatch(r -> r.outOfRange));
        assertEquals(0, out.outOfRange);
    }

    /** The mark is kept in the session: it survives a checkpoint and reaches the record the series gets later. */
    @Test
    void theOutOfRangeMarkSurvivesACheckpointAndMarksTheLaterRecord() throws IOException {
        double[][] moments = io.vigil.early.RangeGuard.trainingMoments(classifier.model());
        List<SampleEvent> events = new ArrayList<>(StreamFixtures.events(1, 0));
        double beyond = moments[0][1] - 8.5 * moments[1][1];
        events.set(1, StreamFixtures.event(StreamFixtures.id(1), 2, beyond, 1));
        SeriesSession s = feed(null, events.subList(0, 2));
        assertEquals(1, out.outOfRange);
        assertEquals(out.decisions.isEmpty() ? SeriesSession.Phase.COLLECTING : SeriesSession.Phase.DECIDED, s.phase());
        SeriesSession restored = roundTrip(s);
        assertTrue(restored.outOfRange());
        if (out.decisions.isEmpty()) {
            tracker.onEndOfInput(restored, StreamFixtures.id(1), 0L, out, ws);
        }
        assertEquals(1, out.decisions.size());
        assertTrue(out.decisions.get(0).outOfRange, out.decisions.get(0).toString());
        SeriesSession clean = feed(null, StreamFixtures.events(2, 0).subList(0, 2));
        assertFalse(roundTrip(clean).outOfRange());
    }

    /**
     * A session written by format version 2 (the committed fixture: series 7 after five samples at processing time
     * 1,234 ms, with t = 8 buffered) is read by this version, written back as version 3, and resumes to the offline
     * decision.
     */
    @Test
    void aSessionWrittenByFormatTwoIsReadAndResumesToTheSameDecision() throws IOException {
        byte[] v2;
        try (java.io.InputStream in = getClass().getResourceAsStream("series-session-v2.bin")) {
            assertNotNull(in, "fixture series-session-v2.bin");
            v2 = in.readAllBytes();
        }
        assertEquals(2, v2[0]);
        SeriesSession s = SeriesSession.read(new DataInputStream(new ByteArrayInputStream(v2)));
        assertEquals(TAG, s.modelTag());
        assertEquals(SeriesSession.Phase.COLLECTING, s.phase());
        assertEquals(5, s.consumed());
        assertEquals(8, s.highest());
        assertEquals(1, s.bufferedCount());
        assertEquals(8, s.bufferedSamples()[0].t());
        assertEquals(1_240L, s.lastActivity());
        assertFalse(s.outOfRange());
        List<SampleEvent> events = StreamFixtures.events(7, 0);
        for (int t = 1; t <= 5; t++) {
            assertEquals(events.get(t - 1).value, s.prefixValue(t));
        }
        assertEquals(events.get(4).timestamp, s.lastSampleTime());
        ByteArrayOutputStream v3 = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(v3));
        assertEquals(SeriesSession.FORMAT_VERSION, v3.toByteArray()[0]);
        assertEquals(3, SeriesSession.FORMAT_VERSION);
        assertEquals(v2.length + 1, v3.size(), "one flags byte more");
        assertTrue(roundTrip(s).contentEquals(s));
        List<SampleEvent> rest = new ArrayList<>(events.subList(5, events.size()));
        rest.remove(2); // t = 8 is in the buffer
        assertNull(feed(s, rest));
        assertEquals(1, out.decisions.size());
        assertEquals(StreamFixtures.offlineDecisions().get(7).t(), out.decisions.get(0).t);
    }

    @Test
    void aFailureAtTheEndOfInputGivesAnAbandonedNoticeInsteadOfFailingTheJob() {
        SeriesSession misfit = SeriesSession.start(TAG, new io.vigil.gauss.SeriesState(10, 2, 1));
        misfit.consumedUpTo(3);
        tracker.onEndOfInput(misfit, "misfit", 0L, out, ws);
        assertEquals(1, out.failures.size());
        assertEquals(
                List.of(DecisionRecord.ABANDONED),
                out.decisions.stream().map(r -> r.status).toList());
        assertEquals(3, out.decisions.get(0).t);
    }

    @Test
    void endOfInputDeadLettersBufferedSamplesAsAtExpiry() {
        List<SampleEvent> events = StreamFixtures.events(1, 0);
        SeriesSession s = feed(null, events.subList(0, 2));
        s = tracker.onSample(s, events.get(3), 0L, out, ws); // t = 4 waits for t = 3
        s = tracker.onSample(s, events.get(5), 0L, out, ws); // t = 6 too
        tracker.onEndOfInput(s, StreamFixtures.id(1), 0L, out, ws);
        assertEquals(
                List.of(DecisionRecord.UNDECIDED),
                out.decisions.stream().map(r -> r.status).toList());
        assertEquals(2, out.decisions.get(0).t);
        assertEquals(
                List.of("gap_unfilled", "gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        assertEquals(List.of(4, 6), out.deadLetters.stream().map(d -> d.t).toList());
        assertTrue(out.deadLetters.get(0).detail.contains("input ended"), out.deadLetters.get(0).detail);
        assertTrue(out.failures.isEmpty(), out.failures.toString());
    }

    @Test
    void endOfInputGivesADecidedSeriesNothingMore() {
        SeriesDecision offline = StreamFixtures.offlineDecisions().get(0);
        List<SampleEvent> events = StreamFixtures.events(0, 0);
        SeriesSession s = feed(null, events.subList(0, offline.t()));
        s = tracker.onSample(s, events.get(offline.t() + 1), 0L, out, ws); // buffered after the decision
        assertEquals(SeriesSession.Phase.DECIDED, s.phase());
        assertEquals(1, out.decisions.size());
        tracker.onEndOfInput(s, StreamFixtures.id(0), 0L, out, ws);
        assertEquals(1, out.decisions.size(), "only the decision itself");
        assertEquals(
                List.of("gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
    }

    @Test
    void endOfInputOfASeriesWithNothingConsumedDeadLettersItsSamplesAsLate() {
        SeriesSession s = tracker.onSample(null, StreamFixtures.event("x", 3, 0.5, 7), 0L, out, ws);
        s = tracker.onSample(s, StreamFixtures.event("x", 2, 0.25, 8), 0L, out, ws);
        assertEquals(0, s.consumed());
        tracker.onEndOfInput(s, "x", 0L, out, ws);
        assertTrue(out.decisions.isEmpty(), "no label without a consumed sample");
        assertEquals(
                List.of("late_sample", "late_sample"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        assertEquals(
                List.of(8L, 7L), out.deadLetters.stream().map(d -> d.offset).toList());
    }

    static SeriesSession roundTrip(SeriesSession s) throws IOException {
        if (s == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(bytes));
        assertEquals(s.serializedSizeBytes(), bytes.size());
        return SeriesSession.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    @Test
    void serialisedSessionResumesToTheSameDecision() throws IOException {
        SeriesDecision offline = StreamFixtures.offlineDecisions().get(7);
        List<SampleEvent> events = StreamFixtures.events(7, 0);
        int cut = Math.max(1, offline.t() / 2);
        SeriesSession s = feed(null, events.subList(0, cut));
        s = tracker.onSample(s, events.get(cut + 2), 0L, out, ws); // one buffered sample travels too
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(bytes));
        assertEquals(s.serializedSizeBytes(), bytes.size());
        SeriesSession back = SeriesSession.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertTrue(back.contentEquals(s));
        assertFalse(back == s);
        List<SampleEvent> rest = new ArrayList<>(events.subList(cut, events.size()));
        rest.remove(2);
        assertNull(feed(back, rest));
        assertEquals(1, out.decisions.size());
        assertEquals(offline.t(), out.decisions.get(0).t);
    }

    @Test
    void corruptSessionBytesAreRejectedWithAReason() {
        byte[] bad = {9, 0, 0};
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(
                IOException.class, () -> SeriesSession.read(new DataInputStream(new ByteArrayInputStream(bad))));
        assertTrue(e.getMessage().contains("format version 9"), e.getMessage());
    }
}
