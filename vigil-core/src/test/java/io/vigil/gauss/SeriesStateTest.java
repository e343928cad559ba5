package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class SeriesStateTest {
    private static GaussianMixtureEstimator gmm(int d, int l) {
        SplittableRandom rng = new SplittableRandom(d * 31L + l);
        double[][] rows = new double[18][];
        int[] cls = new int[18];
        for (int i = 0; i < 18; i++) {
            cls[i] = i % 3;
            rows[i] = GaussTestSupport.randomVector(d, 1.0, rng);
            rows[i][0] += cls[i];
        }
        return GaussianMixtureEstimator.fit(
                rows, cls, 3, GaussTestSupport.randomOrthonormal(d, l, rng), ShrinkageParams.defaults());
    }

    private static byte[] bytes(SeriesState s) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bos)) {
            s.writeTo(out);
        }
        return bos.toByteArray();
    }

    private static DataInputStream in(byte[] b) {
        return new DataInputStream(new ByteArrayInputStream(b));
    }

    @Test
    void attachmentIsTransient() throws IOException {
        SeriesState s = new SeriesState(8, 2, 1);
        SeriesState.Slot<StringBuilder> slot = new SeriesState.Slot<>("test");
        StringBuilder cache = new StringBuilder("derived");
        s.attach(slot, cache);
        byte[] withAttachment = bytes(s);
        s.attach(slot, null);
        assertArrayEquals(bytes(s), withAttachment, "the attachment is never serialised");
        assertEquals(s.serializedSizeBytes(), withAttachment.length);
        s.attach(slot, cache);
        assertEquals(null, s.copy().accelerator(slot), "a copy does not share the attachment");
        assertTrue(s.contentEquals(s.copy()));
        s.reset();
        assertEquals(cache, s.accelerator(slot), "reset keeps the attachment");
        assertEquals(null, s.accelerator(new SeriesState.Slot<StringBuilder>("other")), "only its own slot sees it");
        assertEquals(
                null,
                SeriesState.read(new DataInputStream(new ByteArrayInputStream(withAttachment)))
                        .accelerator(slot));
    }

    @Test
    void roundTripAtEveryTimeAndTheDocumentedSize() throws IOException {
        int d = 11;
        int l = 4;
        GaussianMixtureEstimator est = gmm(d, l);
        SeriesState s = est.newState();
        double[] x = GaussTestSupport.randomVector(d, 1.0, new SplittableRandom(3));
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                est.update(s, x[t - 1]);
            }
            byte[] b = bytes(s);
            assertEquals(17 + 8 * 3 * (t + l + 1), b.length, "documented size at t = " + t);
            assertEquals(b.length, s.serializedSizeBytes());
            assertEquals(SeriesState.FORMAT_VERSION, b[0]);
            SeriesState read = SeriesState.read(in(b));
            assertTrue(read.contentEquals(s), "static read at t = " + t);
            SeriesState into = est.newState();
            est.update(into, 5.0); // stale content must be overwritten
            into.readFrom(in(b));
            assertTrue(into.contentEquals(s), "readFrom at t = " + t);
        }
        assertEquals(17 + 8L * 3 * (d + l + 1), SeriesState.maxSerializedSizeBytes(d, l, 3));
        assertEquals(8457, SeriesState.maxSerializedSizeBytes(1024, 30, 1), "figure quoted in the javadoc");
    }

    @Test
    void restoredStateContinuesExactlyLikeTheUninterruptedOne() throws IOException {
        int d = 16;
        GaussianMixtureEstimator est = gmm(d, 3);
        double[] x = GaussTestSupport.randomVector(d, 1.0, new SplittableRandom(5));
        SeriesState a = est.newState();
        for (int t = 0; t < 7; t++) {
            est.update(a, x[t]);
        }
        SeriesState b = SeriesState.read(in(bytes(a)));
        for (int t = 7; t < d; t++) {
            est.update(a, x[t]);
            est.update(b, x[t]);
        }
        assertTrue(a.contentEquals(b));
        double[] ra = new double[6];
        double[] rb = new double[6];
        est.conditionalCovariance(a, ra);
        est.conditionalCovariance(b, rb);
        assertArrayEquals(ra, rb, 0.0);
    }

    @Test
    void resetAndCopy() {
        GaussianMixtureEstimator est = gmm(6, 2);
        SeriesState s = est.newState();
        for (double v : new double[] {1, -2, 0.5}) {
            est.update(s, v);
        }
        SeriesState c = s.copy();
        assertTrue(c.contentEquals(s));
        est.update(c, 3.0);
        assertFalse(c.contentEquals(s), "a copy is independent");
        s.reset();
        assertTrue(s.contentEquals(est.newState()));
        assertEquals(0, s.time());
        double[] m = new double[2];
        double[] m0 = new double[2];
        est.conditionalMean(s, m);
        est.conditionalMean(est.newState(), m0);
        assertArrayEquals(m0, m, 0.0);
    }

    @Test
    void corruptOrForeignStreamsAreRejectedWithReasons() throws IOException {
        GaussianMixtureEstimator est = gmm(9, 3);
        SeriesState s = est.newState();
        est.update(s, 0.3);
        est.update(s, -0.1);
        byte[] good = bytes(s);

        byte[] badVersion = good.clone();
        badVersion[0] = 7;
        IOException v = assertThrows(IOException.class, () -> SeriesState.read(in(badVersion)));
        assertTrue(v.getMessage().contains("version 7"), v.getMessage());

        SeriesState other = new SeriesState(9, 4, 3);
        IOException dims = assertThrows(IOException.class, () -> other.readFrom(in(good)));
        assertTrue(dims.getMessage().contains("ℓ = 3") && dims.getMessage().contains("ℓ = 4"), dims.getMessage());

        byte[] truncated = Arrays.copyOf(good, good.length - 3);
        assertThrows(EOFException.class, () -> SeriesState.read(in(truncated)));

        byte[] badTime = good.clone();
        badTime[16] = 99; // t = 99 > d = 9 (t is the int at bytes 13..16)
        IOException t = assertThrows(IOException.class, () -> SeriesState.read(in(badTime)));
        assertTrue(t.getMessage().contains("t = 99"), t.getMessage());

        byte[] nan = good.clone();
        long bits = Double.doubleToLongBits(Double.NaN);
        for (int k = 0; k < 8; k++) {
            nan[17 + k] = (byte) (bits >>> (56 - 8 * k));
        }
        assertThrows(IOException.class, () -> SeriesState.read(in(nan)));
    }

    @Test
    void misuseOfUpdate() {
        JointGaussianEstimator joint = JointGaussianEstimator.fit(
                new double[][] {{1, 2, 3}, {2, 1, 0}, {0, 0, 1}},
                DMatrixRMaj.wrap(3, 1, new double[] {1, 0, 0}),
                ShrinkageParams.defaults());
        SeriesState s = joint.newState();
        assertThrows(IllegalArgumentException.class, () -> joint.update(s, Double.NaN));
        assertEquals(0, s.time(), "a rejected sample leaves the state unchanged");
        joint.update(s, 1);
        joint.update(s, 1);
        joint.update(s, 1);
        assertTrue(s.isComplete());
        assertThrows(IllegalStateException.class, () -> joint.update(s, 1));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> joint.update(new SeriesState(3, 2, 1), 1.0));
        assertTrue(e.getMessage().contains("ℓ = 2") && e.getMessage().contains("ℓ = 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> joint.conditionalMean(s, new double[2]));
        assertThrows(IllegalArgumentException.class, () -> new SeriesState(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> s.innovation(0, 3));
        assertThrows(IllegalArgumentException.class, () -> s.innovation(1, 0));
    }
}
