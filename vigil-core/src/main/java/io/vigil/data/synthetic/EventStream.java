package io.vigil.data.synthetic;

import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A synthetic recording set for event detection without real data: CBF events ({@link Cbf}, the published shapes of
 * length 128, so 33–97 samples of cylinder, bell or funnel) added at random, non-overlapping times to a structured
 * background, with a train/test split per recording. The background is not white noise, so that "nothing is
 * happening" is a class worth learning: an AR(1) process (φ = 0.8, stationary sd 1) plus a slow sinusoid (amplitude
 * 1.5, period 400–1200 samples, random phase) plus occasional random-walk drift episodes (200–600 samples, step sd
 * 0.05) that decay back towards 0 afterwards. Events are labelled {@code cylinder}, {@code bell}, {@code funnel}; one
 * channel {@code x} at 50 Hz with a {@code time} column in ms.
 */
public final class EventStream {
    /** Event labels in CBF class-index order. */
    public static final List<String> LABELS = List.of("cylinder", "bell", "funnel");

    /** Sampling rate of the generated recordings. */
    public static final double SAMPLING_RATE_HZ = 50;

    /** Shortest recording: room for a gap and one CBF template. */
    public static final int MIN_LENGTH = 2 * Cbf.LENGTH;

    private static final double PHI = 0.8;
    private static final double SINE_AMPLITUDE = 1.5;
    private static final int PERIOD_MIN = 400;
    private static final int PERIOD_MAX = 1200;
    private static final double DRIFT_START_PROBABILITY = 1.0 / 2000;
    private static final int DRIFT_MIN = 200;
    private static final int DRIFT_MAX = 600;
    private static final double DRIFT_STEP = 0.05;
    private static final double DRIFT_DECAY = 0.995;
    private static final int GAP_MIN = 150;
    private static final int GAP_MAX = 900;
    private static final double TEST_FRACTION = 0.3;

    private EventStream() {}

    /**
     * Generates {@code recordings} recordings of {@code length} samples each; about 30 % of them (at least one when
     * there are two or more) form the test split, the rest the training split.
     */
    public static RecordingSet generate(int recordings, int length, long seed) {
        if (recordings < 1) {
            throw new IllegalArgumentException("need at least 1 recording, got " + recordings);
        }
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("recordings need length ≥ " + MIN_LENGTH + ", got " + length);
        }
        SplittableRandom root = new SplittableRandom(seed);
        int test = recordings < 2 ? 0 : Math.max(1, (int) Math.round(TEST_FRACTION * recordings));
        int digits = Integer.toString(recordings).length();
        List<Recording> recs = new ArrayList<>();
        List<RecordingEvent> events = new ArrayList<>();
        Map<String, String> splits = new LinkedHashMap<>();
        for (int r = 0; r < recordings; r++) {
            SplittableRandom rnd = root.split();
            String name = String.format("rec-%0" + Math.max(2, digits) + "d", r + 1);
            double[] x = background(length, rnd);
            events.addAll(insertEvents(name, x, rnd));
            double[] times = new double[length];
            for (int i = 0; i < length; i++) {
                times[i] = i * 1000.0 / SAMPLING_RATE_HZ;
            }
            recs.add(new Recording(name, List.of("x"), new double[][] {x}, times, SAMPLING_RATE_HZ));
            splits.put(name, r >= recordings - test ? "test" : "train");
        }
        return new RecordingSet(recs, events, splits);
    }

    /** AR(1) + slow sinusoid + occasional decaying random-walk drift. */
    static double[] background(int length, SplittableRandom rnd) {
        double[] x = new double[length];
        double innovation = Math.sqrt(1 - PHI * PHI);
        double period = PERIOD_MIN + rnd.nextDouble() * (PERIOD_MAX - PERIOD_MIN);
        double phase = rnd.nextDouble() * 2 * Math.PI;
        double ar = rnd.nextGaussian();
        double drift = 0;
        int driftLeft = 0;
        for (int i = 0; i < length; i++) {
            ar = PHI * ar + innovation * rnd.nextGaussian();
            if (driftLeft == 0 && rnd.nextDouble() < DRIFT_START_PROBABILITY) {
                driftLeft = rnd.nextInt(DRIFT_MIN, DRIFT_MAX + 1);
            }
            if (driftLeft > 0) {
                drift += DRIFT_STEP * rnd.nextGaussian();
                driftLeft--;
            } else {
                drift *= DRIFT_DECAY;
            }
            x[i] = ar + SINE_AMPLITUDE * Math.sin(2 * Math.PI * i / period + phase) + drift;
        }
        return x;
    }

    /** Adds noiseless CBF shapes into {@code x} at random non-overlapping places; returns their events. */
    private static List<RecordingEvent> insertEvents(String name, double[] x, SplittableRandom rnd) {
        List<RecordingEvent> out = new ArrayList<>();
        double[] shape = new double[Cbf.LENGTH];
        int cursor = rnd.nextInt(GAP_MIN, GAP_MAX + 1); // 0-based start of the next template
        while (cursor + Cbf.LENGTH <= x.length) {
            int cls = rnd.nextInt(LABELS.size());
            Cbf.Shape s = Cbf.draw(cls, rnd, 0.0, shape);
            for (int t = 0; t < Cbf.LENGTH; t++) {
                x[cursor + t] += shape[t];
            }
            // The template's sample t (1-based) is recording sample cursor + t; the event is the shape's [a, b].
            out.add(new RecordingEvent(name, cursor + s.a(), cursor + s.b(), LABELS.get(cls)));
            cursor += Cbf.LENGTH + rnd.nextInt(GAP_MIN, GAP_MAX + 1);
        }
        return out;
    }
}
