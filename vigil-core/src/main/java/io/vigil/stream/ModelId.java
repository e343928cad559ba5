package io.vigil.stream;

import io.vigil.gauss.EstimatorType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identifies the model a stream job runs: the id written in every decision is the first 16 hex digits of the
 * SHA-256 of the model file's bytes (two files with the same id hold the same model), and the session tag
 * stamped on per-series state also covers the estimator, since the classifier state of the joint Gaussian and
 * of the mixture differ. A restored session whose tag differs is not resumed.
 */
public final class ModelId {
    private ModelId() {}

    /** The id of a model file's bytes. */
    public static String of(byte[] modelBytes) {
        return HexFormat.of().formatHex(sha256(modelBytes), 0, 8);
    }

    /** The session tag for a model id and estimator. */
    public static long tag(String modelId, EstimatorType estimator) {
        byte[] h = sha256((modelId + "/" + estimator.id()).getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(h, 0, 8).getLong();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM lacks SHA-256", e);
        }
    }
}
