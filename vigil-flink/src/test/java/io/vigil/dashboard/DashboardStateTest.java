package io.vigil.dashboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.recording.RecordingEvent;
import io.vigil.early.Certification;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.WatchAlarm;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.DecisionRecord;
import io.vigil.watch.AlarmEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the dashboard aggregates from decisions, samples and the job's metrics (pure logic, no Kafka). */
@SuppressWarnings("unchecked")
class DashboardStateTest {
    private static final int D = 128;

    private static DecisionRecord decided(String series, String label, int t, double reliability, long sampleTime) {
        return DecisionRecord.decided(series, label, t, D, 0.9, reliability, "m", sampleTime + 1, sampleTime);
    }

    @SuppressWarnings("unchecked")
    private static <T> T get(Map<String, Object> m, String key) {
        return (T) m.get(key);
    }

    @Test
    void decisionsFillTheTableNewestFirstUpToFiftyAndTheHistograms() {
        DashboardState s = new DashboardState("test", null, 0);
        for (int i = 1; i <= 60; i++) {
            s.decision(decided("s" + i, "a", i, 0.95, 1_000), 1_000 + i);
        }
        s.decision(DecisionRecord.abandoned("gone", 3, D, 0.9, "m", 2_000, 1_990), 2_000);
        Map<String, Object> view = s.view(5_000);
        List<DashboardState.Row> rows = get(view, "decisions");
        assertEquals(DashboardState.TABLE_ROWS, rows.size());
        assertEquals("gone", rows.get(0).series());
        assertEquals(DecisionRecord.ABANDONED, rows.get(0).status());
        assertNull(rows.get(0).reliability(), "NaN reliability of an abandoned series shown as none");
        assertEquals("not certified", rows.get(0).certificate());
        assertEquals("s60", rows.get(1).series());
        assertEquals(60, rows.get(1).latencyMs());
        long[] td = get(get(view, "td"), "counts");
        long[] want = new long[DashboardState.TD_BINS];
        want[0] = 6; // t = 1..6 of 128: t/d ≤ 0.05
        want[1] = 6; // t = 7..12
        for (int t = 13; t <= 60; t++) {
            want[(int) Math.ceil(t * 20.0 / D) - 1]++;
        }
        assertArrayEquals(want, td, "abandoned series are not decisions");
        Map<String, Object> latency = get(view, "latency");
        assertEquals(60, (int) latency.get("window"));
        assertEquals(30L, latency.get("p50_ms"));
        assertEquals(60L, latency.get("p99_ms"));
        assertNull(view.get("reference"), "no reference labels, no agreement");
    }

    /** An uncertified operating point reaches the page (which shows it as a banner under the heading). */
    @Test
    void theViewSaysWhetherTheOperatingPointIsCertified() throws java.io.IOException {
        DashboardState s = new DashboardState("test", null, 0);
        assertEquals(null, s.view(0).get("certified"), "unknown until the job says");
        Certification c = new Certification(0.9, true, false, true, "none");
        s.certification(c.certified(), c.describe());
        Map<String, Object> view = s.view(0);
        assertEquals(false, view.get("certified"));
        assertEquals("tau 0.9 NOT CERTIFIED: decides only at t = d (never early)", view.get("certification"));
        try (var page = DashboardState.class.getResourceAsStream("index.html");
                var js = DashboardState.class.getResourceAsStream("dashboard.js")) {
            assertTrue(new String(page.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains("id=\"certification\""));
            assertTrue(new String(js.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .contains("s.certified === false"));
        }
    }

    @Test
    void eachViewSaysWhenTheOldestRecordItCountsFirstWasEmitted() {
        DashboardState s = new DashboardState("test", null, 0);
        assertNull(s.view(100).get("oldest_new_emitted_at"), "nothing counted yet");
        s.decision(decided("a", "1", 20, 0.95, 500), 900); // emitted at 501
        s.decision(decided("b", "1", 20, 0.95, 400), 950); // emitted at 401
        Map<String, Object> view = s.view(1_000);
        assertEquals(401L, view.get("oldest_new_emitted_at"));
        assertEquals(
                501L, ((List<DashboardState.Row>) get(view, "decisions")).get(1).emittedAt());
        assertNull(s.view(1_250).get("oldest_new_emitted_at"), "no record counted since the last view");
        s.decision(decided("c", "1", 20, 0.95, 1_100), 1_300);
        assertEquals(1_101L, s.view(1_500).get("oldest_new_emitted_at"));
    }

    @Test
    void theCertificateColumnSaysWhatTheRecordCarries() {
        DecisionRecord certified = decided("c", "1", 40, 0.93, 10).certificate(true, "pac", 0.9);
        assertEquals("≥ 0.90 pac", DashboardState.certificate(certified));
        DecisionRecord uncertified = decided("u", "1", 128, 0.7, 10).certificate(false, "none", 0.9);
        assertEquals("not certified", DashboardState.certificate(uncertified));
    }

    @Test
    void latencyBinsAreSplitAtTheirUpperEdges() {
        assertEquals(0, DashboardState.latencyBin(0));
        assertEquals(1, DashboardState.latencyBin(1));
        assertEquals(2, DashboardState.latencyBin(4));
        assertEquals(3, DashboardState.latencyBin(5));
        assertEquals(DashboardState.LATENCY_EDGES_MS.length, DashboardState.latencyBin(10_000));
        assertEquals(DashboardState.LATENCY_EDGES_MS.length, DashboardState.latencyBin(Long.MAX_VALUE));
    }

    @Test
    void referenceLabelsGiveRollingAgreementAndTheReliabilityDiagram() {
        DashboardState s = new DashboardState("test", "complete-series label", 0);
        for (int i = 0; i < 10; i++) {
            s.reference("s" + i, "a");
        }
        for (int i = 0; i < 10; i++) {
            // reliability 0.95 (bin 9): 8 of 10 agree; one series without a reference is not compared
            s.decision(decided("s" + i, i < 8 ? "a" : "b", 50, 0.95, 0), 10);
        }
        s.decision(decided("unknown", "a", 50, 0.55, 0), 10);
        s.observe(JobMetrics.Snapshot.EMPTY, 0);
        Map<String, Object> ref = get(s.view(20), "reference");
        assertEquals("complete-series label", ref.get("name"));
        assertEquals(10L, ref.get("compared"));
        assertEquals(8L, ref.get("agreed"));
        assertEquals(0.8, (double) ref.get("rolling"), 1e-12);
        List<Map<String, Object>> bins = get(ref, "reliability");
        assertEquals(DashboardState.RELIABILITY_BINS, bins.size());
        assertEquals(10L, bins.get(9).get("n"));
        assertEquals(0.95, (double) bins.get(9).get("announced"), 1e-12);
        assertEquals(0.8, (double) bins.get(9).get("observed"), 1e-12);
        assertEquals(0L, bins.get(5).get("n"));
        assertNull(bins.get(5).get("observed"));
        List<DashboardState.Row> rows = get(s.view(20), "decisions");
        assertNull(rows.get(0).agrees());
        assertEquals(Boolean.FALSE, rows.get(1).agrees());
        assertEquals(Boolean.TRUE, rows.get(3).agrees());
    }

    @Test
    void aReferenceArrivingAfterItsDecisionIsComparedToo() {
        DashboardState s = new DashboardState("test", "true label", 0);
        s.decision(decided("early", "a", 50, 0.95, 0), 1);
        s.decision(decided("wrong", "a", 50, 0.95, 0), 1);
        s.reference("early", "a");
        s.reference("wrong", "b");
        s.reference("undecided yet", "a");
        Map<String, Object> ref = get(s.view(2), "reference");
        assertEquals(2L, ref.get("compared"));
        assertEquals(1L, ref.get("agreed"));
    }

    @Test
    void rollingAgreementForgetsBeyondItsWindow() {
        DashboardState s = new DashboardState("test", "true label", 0);
        int n = DashboardState.AGREEMENT_WINDOW;
        for (int i = 0; i < 2 * n; i++) {
            s.reference("s" + i, "a");
            s.decision(decided("s" + i, i < n ? "b" : "a", 50, 0.9, 0), 1);
        }
        Map<String, Object> ref = get(s.view(2), "reference");
        assertEquals(1.0, (double) ref.get("rolling"), 1e-12, "the first window disagreed, the last agrees");
        assertEquals((long) n, ref.get("agreed"));
        assertEquals(2L * n, ref.get("compared"));
    }

    @Test
    void countersAndRatesComeFromTheJobMetrics() {
        DashboardState s = new DashboardState("test", null, 0);
        assertEquals("starting", s.view(0).get("job"));
        s.observe(snapshot(0, 0), 0);
        s.observe(snapshot(500, 1), 500); // less than a second: no point yet
        s.observe(snapshot(2_000, 4), 2_000);
        Map<String, Object> view = s.view(2_000);
        assertEquals("running", view.get("job"));
        Map<String, Object> c = get(view, "counters");
        assertEquals(2_000L, c.get("samples"));
        assertEquals(1_000.0, (double) c.get("samples_per_s"), 1e-9);
        assertEquals(3L, c.get("decided_early"));
        assertEquals(1L, c.get("decided_complete"));
        assertEquals(7L, c.get("dead_letters"));
        Map<String, Object> history = get(view, "history");
        assertArrayEquals(new double[] {2.0}, get(history, "at"), 1e-12);
        assertArrayEquals(new double[] {2.0}, get(history, "decisions_per_s"), 1e-12);
        Map<String, Long> dead = get(view, "dead_letters");
        assertEquals(7L, dead.get("unparseable_json"));
    }

    private static JobMetrics.Snapshot snapshot(long samples, long decisions) {
        return new JobMetrics.Snapshot(Map.of(
                JobMetrics.SAMPLES_IN,
                samples,
                JobMetrics.DECISIONS_EARLY,
                decisions - decisions / 4,
                JobMetrics.DECISIONS_COMPLETE,
                decisions / 4,
                JobMetrics.DEAD_LETTERS_PREFIX + "unparseable_json",
                7L));
    }

    @Test
    void theDrawnSeriesStartsAtTOneIsDecidedFinishesAndMakesWayForTheNext() {
        DashboardState s = new DashboardState("test", null, 0);
        sample(s, "late", 5, 0); // joined mid-series: not picked
        assertNull(s.view(0).get("series"));
        for (int t = 1; t <= D; t++) {
            sample(s, "first", t, t);
            sample(s, "other", t, t);
            if (t == 40) {
                s.decision(decided("first", "a", 40, 0.93, t), t);
            }
        }
        Map<String, Object> drawn = get(s.view(D), "series");
        assertEquals("first", drawn.get("series"));
        assertEquals(D, ((int[]) drawn.get("t")).length, "only the followed series' samples");
        assertEquals(40, drawn.get("decided_t"));
        assertEquals(true, drawn.get("early"));
        assertEquals(true, drawn.get("finished"), "t = d reached after the decision");
        s.observe(JobMetrics.Snapshot.EMPTY, D + SeriesFollower.HOLD_MS - 1);
        assertEquals("first", drawn(s), "still held");
        s.observe(JobMetrics.Snapshot.EMPTY, D + SeriesFollower.HOLD_MS);
        assertNull(drawn(s), "held long enough");
        sample(s, "next", 2, D + SeriesFollower.HOLD_MS + 1);
        assertNull(drawn(s), "a series is picked at its start");
        sample(s, "next", 1, D + SeriesFollower.HOLD_MS + 2);
        assertEquals("next", drawn(s));
    }

    private static WatchAlarm alarm(String key, String label, long start, long trigger, long sampleTime) {
        WatchAlarm a = WatchAlarm.of(
                new AlarmEvent(
                        key,
                        label,
                        start,
                        trigger,
                        trigger - start,
                        (trigger - start) * 20.0,
                        start,
                        96,
                        true,
                        "pac",
                        0.9,
                        0.97),
                "model-1",
                sampleTime,
                sampleTime + 3);
        return WatchAlarm.fromJson(a.toJson()); // as the dashboard reads it from the alarms topic
    }

    @Test
    void aWatchJobsAlarmsAreListedNewestFirstBoundedWithTheWatchCounters() {
        DashboardState s = DashboardState.watching("watch", 0, Map.of());
        int n = AlarmFeed.ROWS + 7;
        for (int i = 1; i <= n; i++) {
            s.alarm(
                    alarm("pump-" + (i % 3), i % 2 == 0 ? "bell" : "funnel", 100L * i, 100L * i + 30, 1_000),
                    1_000,
                    1_000 + i);
        }
        s.observe(
                new JobMetrics.Snapshot(Map.of(
                        JobMetrics.SAMPLES_IN,
                        50_000L,
                        JobMetrics.WATCH_KEYS,
                        3L,
                        JobMetrics.WATCH_OPEN_WINDOWS,
                        60L,
                        JobMetrics.WATCH_ALARMS,
                        (long) n,
                        JobMetrics.WATCH_ALARMS_SUPPRESSED,
                        4L,
                        JobMetrics.WATCH_WINDOWS_DECIDED,
                        4_900L,
                        JobMetrics.WATCH_TIMEOUTS,
                        2L,
                        JobMetrics.DEAD_LETTERS_PREFIX + "alarm_flood",
                        4L)),
                5_000);
        Map<String, Object> view = s.view(5_000);
        assertEquals("watch", view.get("mode"));
        List<AlarmFeed.Row> rows = get(view, "alarms");
        assertEquals(AlarmFeed.ROWS, rows.size(), "bounded");
        AlarmFeed.Row newest = rows.get(0);
        assertEquals("pump-" + (n % 3), newest.key());
        assertEquals(100L * n, newest.eventStart());
        assertEquals(100L * n + 30, newest.trigger());
        assertEquals(30, newest.delaySamples());
        assertEquals(600.0, newest.delayMs(), 1e-9);
        assertEquals("≥ 0.90 pac", newest.certificate());
        assertEquals(100L * n, newest.windowStart());
        assertEquals(96, newest.windowLength());
        assertEquals((long) n, newest.latencyMs(), "from the triggering value's time stamp to its arrival");
        assertNull(newest.verdict(), "no events known, no verdict");
        assertEquals(
                100L * (n - AlarmFeed.ROWS + 1), rows.get(AlarmFeed.ROWS - 1).eventStart(), "oldest listed");
        Map<String, Object> watch = get(view, "watch");
        assertEquals(3L, watch.get("keys"));
        assertEquals(60L, watch.get("open_windows"));
        assertEquals((long) n, watch.get("alarms"));
        assertEquals(4L, watch.get("alarms_suppressed"));
        assertEquals(4_900L, watch.get("windows_decided"));
        assertEquals(2L, watch.get("timeouts"));
        assertEquals((long) n, watch.get("alarms_received"));
        assertEquals(4L, ((Map<String, Long>) get(view, "dead_letters")).get("alarm_flood"));
        assertEquals(List.of(), view.get("decisions"), "a watch job decides no series");
        assertNull(view.get("series"));
        assertNull(watch.get("verdicts"));
        DashboardState series = new DashboardState("series", null, 0);
        assertEquals("series", series.view(0).get("mode"));
        assertNull(series.view(0).get("alarms"));
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> series.alarm(alarm("k", "bell", 1, 2, 0), 0, 1));
    }

    @Test
    void alarmsAreJudgedTrueDuplicateOrFalseAgainstKnownEvents() {
        Map<String, List<RecordingEvent>> events = Map.of(
                "rec-1",
                List.of(
                        new RecordingEvent("rec-1", 100, 180, "bell"),
                        new RecordingEvent("rec-1", 500, 560, "funnel")));
        DashboardState s = DashboardState.watching("watch", 0, events);
        s.alarm(alarm("rec-1", "bell", 98, 130, 0), 0, 1); // inside the bell event: true
        s.alarm(alarm("rec-1", "bell", 120, 170, 0), 0, 2); // the same event again: duplicate
        s.alarm(alarm("rec-1", "bell", 490, 520, 0), 0, 3); // inside the funnel event with another label: false
        s.alarm(alarm("rec-1", "funnel", 300, 330, 0), 0, 4); // in background: false
        s.alarm(alarm("rec-2", "funnel", 10, 40, 0), 0, 5); // a key without events: false
        s.alarm(alarm("rec-1", "funnel", 495, 560, 0), 0, 6); // trigger at the event's end: true
        Map<String, Object> view = s.view(10);
        List<String> verdicts = ((List<AlarmFeed.Row>) get(view, "alarms"))
                .stream().map(AlarmFeed.Row::verdict).toList();
        assertEquals(List.of("true", "false", "false", "false", "duplicate", "true"), verdicts, "newest first");
        assertEquals(
                Map.of("true", 2L, "duplicate", 1L, "false", 3L),
                ((Map<String, Object>) get(view, "watch")).get("verdicts"));
    }

    private static String drawn(DashboardState s) {
        Map<String, Object> series = get(s.view(0), "series");
        return series == null ? null : (String) series.get("series");
    }

    private static void sample(DashboardState s, String series, int t, long now) {
        s.sample(SampleRecord.key(series), SampleRecord.encode(series, t, Math.sin(t)), now);
    }
}
