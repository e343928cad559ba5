package io.vigil.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStreamTest {
    @TempDir
    Path dir;

    @Test
    void eventsAreCbfShapesAtNonOverlappingTimesWithASplit() {
        RecordingSet set = EventStream.generate(10, 20_000, 7);
        assertEquals(10, set.recordings().size());
        assertEquals(7, set.split("train").recordings().size());
        assertEquals(3, set.split("test").recordings().size());
        assertEquals(List.of("bell", "cylinder", "funnel"), set.labels());
        int cylinders = 0;
        double cylinderMean = 0;
        for (Recording r : set.recordings()) {
            List<RecordingEvent> ev = set.events(r.name());
            // ~20,000 / (128 + mean gap 525) ≈ 30 events per recording
            assertTrue(ev.size() >= 20 && ev.size() <= 40, r.name() + ": " + ev.size() + " events");
            for (int k = 0; k < ev.size(); k++) {
                RecordingEvent e = ev.get(k);
                assertTrue(e.length() >= 33 && e.length() <= 97, e.toString());
                assertTrue(e.end() <= r.samples());
                if (k > 0) {
                    assertTrue(e.start() > ev.get(k - 1).end() + 32, "gap of at least the template margins");
                }
                if (e.label().equals("cylinder")) {
                    double m = 0;
                    for (int i = e.start(); i <= e.end(); i++) {
                        m += r.value(0, i);
                    }
                    cylinderMean += m / e.length();
                    cylinders++;
                }
            }
        }
        // A cylinder adds 6 + η (η ~ N(0,1)) to a zero-mean background: the mean over ~100 cylinders is 6 ± 0.3.
        assertTrue(cylinders > 50);
        assertEquals(6.0, cylinderMean / cylinders, 0.6);
    }

    @Test
    void backgroundIsStructuredNotWhite() {
        double[] x = EventStream.background(50_000, new SplittableRandom(3));
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= x.length;
        double c0 = 0;
        double c1 = 0;
        for (int i = 0; i < x.length; i++) {
            c0 += (x[i] - mean) * (x[i] - mean);
            if (i > 0) {
                c1 += (x[i] - mean) * (x[i - 1] - mean);
            }
        }
        // AR(1) φ = 0.8 with variance 1 plus a sinusoid of variance 1.125: lag-1 autocorrelation ≈ (0.8 + 1.125)/2.125
        // ≈ 0.9, far from white noise's 0.
        assertTrue(c1 / c0 > 0.8, "lag-1 autocorrelation " + c1 / c0);
        assertTrue(c0 / x.length > 1.5, "variance " + c0 / x.length);
    }

    @Test
    void sameSeedSameSetAndRoundTripsThroughTheLayout() throws IOException {
        RecordingSet a = EventStream.generate(3, 1000, 11);
        RecordingSet b = EventStream.generate(3, 1000, 11);
        assertEquals(a.events(), b.events());
        for (Recording r : a.recordings()) {
            RecordingWriter.write(r, dir.resolve(r.name() + ".tsv"));
        }
        RecordingWriter.writeEvents(
                dir.resolve("events.tsv"),
                a.recordings().stream().map(Recording::name).toList(),
                a.events(),
                java.util.Map.of("rec-01", "train", "rec-02", "train", "rec-03", "test"));
        RecordingSet back = RecordingSet.read(dir, Double.NaN);
        assertEquals(a.events(), back.events());
        assertArrayEquals(
                a.recordings().get(1).channel(0), back.recordings().get(1).channel(0));
        assertEquals(50.0, back.recordings().get(0).samplingRateHz().orElseThrow(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> EventStream.generate(2, 100, 1));
    }
}
