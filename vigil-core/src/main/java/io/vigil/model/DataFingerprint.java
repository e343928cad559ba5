package io.vigil.model;

import io.vigil.data.Dataset;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * SHA-256 fingerprint of a labelled training set, recorded in the model so anyone can check which data a
 * model was trained on. It identifies the <em>set</em> of (label, series) pairs: series are hashed in a
 * canonical order (by label string, then by values compared with {@link Double#compare}), so reordering
 * the file does not change it, while any change to a label or to any bit of any value does. Bytes hashed:
 * the UTF-8 tag {@code vigil-data-fingerprint-v1} and a zero byte, n and d as 32-bit little-endian, then per
 * series the label's UTF-8 length (32-bit LE) and bytes followed by its d values as IEEE-754 binary64
 * little-endian (NaN canonicalised). Written as {@code sha256:<64 hex digits>}.
 */
public final class DataFingerprint {
    private static final byte[] TAG = "vigil-data-fingerprint-v1\0".getBytes(StandardCharsets.UTF_8);

    private DataFingerprint() {}

    /** The fingerprint of the raw (unstandardised) series and labels of {@code data}. */
    public static String of(Dataset data) {
        int n = data.size();
        int d = data.length();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Comparator<Integer> byLabel = Comparator.comparing(data::labelOf);
        Arrays.sort(order, byLabel.thenComparing((a, b) -> compareValues(data, a, b)));
        MessageDigest sha = sha256();
        sha.update(TAG);
        ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        head.putInt(n).putInt(d);
        sha.update(head.array());
        ByteBuffer row = ByteBuffer.allocate(d * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i : order) {
            byte[] label = data.labelOf(i).getBytes(StandardCharsets.UTF_8);
            len.clear();
            len.putInt(label.length);
            sha.update(len.array());
            sha.update(label);
            row.clear();
            for (int t = 0; t < d; t++) {
                row.putLong(Double.doubleToLongBits(data.value(i, t)));
            }
            sha.update(row.array());
        }
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    private static int compareValues(Dataset data, int a, int b) {
        for (int t = 0; t < data.length(); t++) {
            int c = Double.compare(data.value(a, t), data.value(b, t));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
