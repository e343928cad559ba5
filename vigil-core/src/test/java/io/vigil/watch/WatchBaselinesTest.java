package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.Vigil;
import io.vigil.classify.LinearSvm;
import io.vigil.data.Dataset;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.early.Decision;
import io.vigil.early.EarlyClassifier;
import io.vigil.gauss.SeriesState;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fixed-delay and feature-SVM baselines on hand-made streams, against hand computations. */
class WatchBaselinesTest {
    private static final List<String> CLASSES = List.of("bg", "e");
    private static final WindowSpec SPEC =
            new WindowSpec(10, 5, List.of("e"), "bg", RearmPolicy.WINDOWS_CLOSED, 0, 0, 50.0);

    @Test
    void prefixMatchesTheMedianDelay() {
        assertEquals(13, FixedDelayWindows.prefixForDelay(12.4, 100));
        assertEquals(1, FixedDelayWindows.prefixForDelay(0.0, 100));
        assertEquals(100, FixedDelayWindows.prefixForDelay(250.0, 100));
        assertEquals(100, FixedDelayWindows.prefixForDelay(null, 100));
    }

    @Test
    void fixedDelayAtTheFullWindowIsTheCompleteWindowLabel() {
        Vigil v = WatchFixtures.cbf();
        WindowSpec spec = WindowSpec.of(v, 16, "1");
        double[][] x =
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 6, 5));
        CompleteWindows.Labels full = FixedDelayWindows.labels(v, spec, x, spec.length());
        CompleteWindows.Labels complete = CompleteWindows.labels(v.model(), spec, x);
        assertArrayEquals(complete.starts(), full.starts());
        assertArrayEquals(complete.classes(), full.classes());
    }

    @Test
    void fixedDelayLabelsAreTheClassifierAtThePrefixMean() {
        Vigil v = WatchFixtures.cbf();
        WindowSpec spec = WindowSpec.of(v, 16, "1");
        double[][] x =
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 5, 9));
        int prefix = 40;
        CompleteWindows.Labels fd = FixedDelayWindows.labels(v, spec, x, prefix);
        int n = x[0].length;
        // Every grid window whose first 40 samples the stream holds, even near its end.
        assertEquals((n - prefix) / 16 + 1, fd.starts().length);
        EarlyClassifier ec = v.classifier();
        EarlyClassifier.Workspace ws = ec.newWorkspace();
        Decision d = Decision.labelOnly();
        int differ = 0;
        for (int w = 0; w < fd.starts().length; w++) {
            // By hand: a fresh state fed the prefix through the deciding path, then the rule's label at m_y.
            SeriesState s = ec.newState();
            for (int t = 0; t < prefix; t++) {
                ec.observe(s, x[0][(int) fd.starts()[w] - 1 + t], ws, d);
            }
            ec.current(s, ws, d);
            assertEquals(d.label(), fd.classes()[w], "window " + fd.starts()[w]);
            differ += fd.classes()[w] != fd.classes()[0] ? 1 : 0;
        }
        assertTrue(differ > 0, "a stream of mixed classes gets more than one label");
    }

    @Test
    void fixedDelayAlarmsTriggerAtThePrefixAndMergeLikeTheOthers() {
        // Windows of 10 samples every 5; labels by hand: event windows at starts 11 and 16 (overlapping → one alarm),
        // 41 (a new event) and 71.
        long[] starts = {1, 6, 11, 16, 21, 26, 31, 36, 41, 46, 51, 56, 61, 66, 71};
        int[] classes = {0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
        CompleteWindows.Labels labels = new CompleteWindows.Labels(starts, classes);
        List<AlarmEvent> alarms = FixedDelayWindows.alarms(CLASSES, SPEC, "k", labels, 4);
        assertEquals(3, alarms.size());
        assertEquals(
                List.of(11L, 41L, 71L),
                alarms.stream().map(AlarmEvent::eventStart).toList());
        assertEquals(
                List.of(14L, 44L, 74L), alarms.stream().map(AlarmEvent::trigger).toList());
        assertEquals(
                List.of(3L, 3L, 3L),
                alarms.stream().map(AlarmEvent::delaySamples).toList());
        assertEquals(60.0, alarms.get(0).delayMs(), 1e-9);
        // Scored by hand: events [12, 25] and [40, 49]; the alarm at 74 lies in no event.
        List<RecordingEvent> events =
                List.of(new RecordingEvent("k", 12, 25, "e"), new RecordingEvent("k", 40, 49, "e"));
        EventScoringResult r = EventScoring.score(
                List.of(new EventScoring.ScoredRecording("k", events, WatchEvaluation.toAlarms(alarms), 0.5, 50.0)),
                List.of("e"));
        assertEquals(2, r.detected());
        assertEquals(1, r.falseAlarms());
        assertEquals(2.0, r.falseAlarmsPerHour(), 1e-12);
        assertEquals(2.0 / 3, r.macro().precision(), 1e-12);
        assertEquals(1.0, r.macro().recall(), 1e-12);
        // Delays 14 − 12 = 2 and 44 − 40 = 4: nearest-rank median 2.
        assertEquals(2.0, r.delay().medianSamples(), 1e-12);
        assertThrows(
                IllegalArgumentException.class,
                () -> FixedDelayWindows.labels(
                        WatchFixtures.cbf(), WindowSpec.of(WatchFixtures.cbf(), 16, "1"), new double[1][300], 0));
    }

    @Test
    void featuresArePerChannelMeanStdMinMaxEnergy() {
        // Two channels, time-major: channel 0 = 1, 2, 3, 6; channel 1 = −2, −2, −2, −2.
        double[] w = {1, -2, 2, -2, 3, -2, 6, -2};
        double[] f = FeatureSvmWindows.features(w, 2);
        // mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5, min 1, max 6, energy (1 + 4 + 9 + 36) / 4 = 12.5
        assertArrayEquals(new double[] {3, Math.sqrt(3.5), 1, 6, 12.5, -2, 0, -2, -2, 4}, f, 1e-12);
    }

    @Test
    void featureSvmFindsBlocksOfHighValuesAsEventsAndScoresThemByHand() {
        // Background: small noise; events "e": 10 samples of 5 on the stride grid. Training and test streams alike.
        double[][] train = stream(400, new int[] {21, 101, 201, 301}, 1L);
        Dataset windows = WindowExamples.build(
                "t",
                List.of(new WindowExamples.Source(
                        "train", train, new int[] {20, 100, 200, 300}, new int[] {29, 109, 209, 309}, new String[] {
                            "e", "e", "e", "e"
                        })),
                List.of("x"),
                new WindowExamples.Params(10, 5, "bg", 1000, 3L));
        FeatureSvmWindows svm = FeatureSvmWindows.train(windows, CLASSES, LinearSvm.Params.of(1.0, 7L));
        double[][] test = stream(120, new int[] {21, 61}, 2L);
        CompleteWindows.Labels labels = svm.labels(SPEC, test, 0);
        int[] expected = new int[labels.starts().length];
        expected[4] = 1; // window 21..30
        expected[12] = 1; // window 61..70
        assertArrayEquals(expected, labels.classes());
        List<AlarmEvent> alarms = svm.alarms(SPEC, "k", labels);
        // Complete windows: each alarm triggers at its window's end.
        assertEquals(List.of(30L, 70L), alarms.stream().map(AlarmEvent::trigger).toList());
        List<RecordingEvent> events =
                List.of(new RecordingEvent("k", 21, 30, "e"), new RecordingEvent("k", 61, 70, "e"));
        EventScoringResult r = EventScoring.score(
                List.of(new EventScoring.ScoredRecording("k", events, WatchEvaluation.toAlarms(alarms), 1.0, 50.0)),
                List.of("e"));
        assertEquals(1.0, r.macro().f1(), 1e-12);
        assertEquals(0, r.falseAlarms());
        assertEquals(9.0, r.delay().medianSamples(), 1e-12);
        assertEquals(0.9, r.delay().medianFraction(), 1e-12);
        // A large offset on the background silences the detector: its trade-off has an end with no alarms.
        assertTrue(svm.alarms(SPEC, "k", svm.labels(SPEC, test, 1e6)).isEmpty());
    }

    /** Noise of ±0.1 with blocks of 10 samples of value 5 starting at the 1-based {@code eventStarts}. */
    private static double[][] stream(int n, int[] eventStarts, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 0.1 * (2 * r.nextDouble() - 1);
        }
        for (int s : eventStarts) {
            for (int i = s - 1; i < s + 9; i++) {
                x[i] = 5 + 0.1 * (2 * r.nextDouble() - 1);
            }
        }
        return new double[][] {x};
    }
}
