package io.vigil.stream;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.reliability.risk.Guarantee;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The JSON wire format of the job's outputs (UTF-8; record key = series id):
 *
 * <ul>
 *   <li>decisions: {@code {"series":"CBF/test/17","label":"2","t":41,"length":128,"early":true,"tau":0.9,
 *       "reliability":0.97,"model":"3f2a…","emitted_at":1763938200123,"status":"decided","sample_time":
 *       1763938200101,"out_of_range":false,"out_of_range_samples":0,"certified":true,"guarantee":"pac","target":0.9,"delta":0.1,"margin_tau":0.97}} —
 *       {@code out_of_range}
 *       is always present, true when a sample the record rests on lay outside the training range (records written
 *       before it existed read as false); {@code certified}, {@code guarantee} ({@code pac}, {@code expected} or
 *       {@code none}) and {@code target} (the τ in force) state the certificate of the rule in force, as {@code
 *       evaluate --json} does per τ (older records read as uncertified, {@code none}, target = tau), with {@code
 *       delta} the δ of a {@code pac} certificate (null otherwise) — that certificate is the guarantee, for the rate
 *       over all series; {@code margin_tau} is the largest reported τ whose certified threshold the label passed when
 *       announced (the complete-series label at t = d: 1), a descriptive margin chosen per decision that no guarantee
 *       covers, and {@code reliability} the same value under its original name (older records read margin_tau from
 *       it); an abandoned series has {@code "status":"abandoned"}, {@code "label":null}, {@code
 *       "reliability":null}, t = samples consumed; a series still undecided at the end of a bounded input has {@code
 *       "status":"undecided"}, {@code "early":false}, t = samples consumed, and the label it would get now with
 *       that label's reliability (below τ); records of multichannel models (and of series that ended incomplete) also
 *       carry {@code "trigger_t"} (1-based t of the value that triggered the record), {@code "trigger_channel"} (its
 *       channel's name), {@code "observed_fraction"} (of the C·d values) and {@code "complete"} — false when the
 *       series ended before all its values came and was labelled by the complete-series rule on E[x | observed];
 *   <li>dead letters: {@code {"series","reason","detail","t","topic","partition","offset","timestamp",
 *       "value","value_base64","emitted_at"}} — {@code value} is the original value as text when it was valid
 *       UTF-8 (else null), {@code value_base64} always the exact original bytes.
 * </ul>
 *
 * Times are epoch milliseconds.
 */
public final class StreamJson {
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StreamJson() {}

    /** The decision record as JSON bytes. */
    public static byte[] decision(DecisionRecord r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(192);
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("series", r.series);
            g.writeStringField("label", r.label);
            g.writeNumberField("t", r.t);
            g.writeNumberField("length", r.length);
            g.writeBooleanField("early", r.early);
            g.writeNumberField("tau", r.tau);
            if (Double.isFinite(r.reliability)) {
                g.writeNumberField("reliability", r.reliability);
            } else {
                g.writeNullField("reliability");
            }
            g.writeStringField("model", r.model);
            g.writeNumberField("emitted_at", r.emittedAt);
            g.writeStringField("status", r.status);
            g.writeNumberField("sample_time", r.sampleTime);
            g.writeBooleanField("out_of_range", r.outOfRange);
            g.writeNumberField("out_of_range_samples", r.outOfRangeSamples);
            if (r.error != null) {
                g.writeStringField("error", cut(r.error));
            }
            g.writeBooleanField("certified", r.certified);
            g.writeStringField("guarantee", r.guarantee);
            g.writeNumberField("target", r.target);
            if (Double.isFinite(r.delta)) {
                g.writeNumberField("delta", r.delta);
            } else {
                g.writeNullField("delta");
            }
            if (Double.isFinite(r.marginTau)) {
                g.writeNumberField("margin_tau", r.marginTau);
            } else {
                g.writeNullField("margin_tau");
            }
            if (r.triggerT > 0) {
                g.writeNumberField("trigger_t", r.triggerT);
                g.writeStringField("trigger_channel", cut(r.triggerChannel));
                g.writeNumberField("observed_fraction", r.observedFraction);
                g.writeBooleanField("complete", r.complete);
            } else if (!r.complete) {
                g.writeBooleanField("complete", false);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a decision record written by {@link #decision}.
     *
     * @throws IllegalArgumentException when the bytes are not such a record
     */
    public static DecisionRecord readDecision(byte[] bytes) {
        JsonNode n;
        try {
            n = MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a decision record: " + e.getMessage(), e);
        }
        if (n == null || !n.isObject() || !n.hasNonNull("series") || !n.hasNonNull("status")) {
            throw new IllegalArgumentException("not a decision record: " + new String(bytes, StandardCharsets.UTF_8));
        }
        DecisionRecord r = new DecisionRecord();
        r.series = n.get("series").asText();
        r.status = n.get("status").asText();
        r.label = n.hasNonNull("label") ? n.get("label").asText() : null;
        r.t = n.path("t").asInt();
        r.length = n.path("length").asInt();
        r.early = n.path("early").asBoolean();
        r.tau = n.path("tau").asDouble();
        r.reliability = n.hasNonNull("reliability") ? n.get("reliability").asDouble() : Double.NaN;
        r.model = n.path("model").asText(null);
        r.emittedAt = n.path("emitted_at").asLong();
        r.sampleTime = n.path("sample_time").asLong();
        r.outOfRange = n.path("out_of_range").asBoolean(false);
        r.outOfRangeSamples = n.path("out_of_range_samples").asInt(0);
        r.error = n.hasNonNull("error") ? n.get("error").asText() : null;
        r.certified = n.path("certified").asBoolean(false);
        r.guarantee = n.path("guarantee").asText(Guarantee.NONE);
        r.target = n.hasNonNull("target") ? n.get("target").asDouble() : r.tau;
        r.delta = n.hasNonNull("delta") ? n.get("delta").asDouble() : Double.NaN;
        r.marginTau = n.hasNonNull("margin_tau") ? n.get("margin_tau").asDouble() : r.reliability;
        r.triggerT = n.path("trigger_t").asInt(0);
        r.triggerChannel =
                n.hasNonNull("trigger_channel") ? n.get("trigger_channel").asText() : null;
        r.observedFraction =
                n.hasNonNull("observed_fraction") ? n.get("observed_fraction").asDouble() : Double.NaN;
        r.complete = n.path("complete").asBoolean(true);
        return r;
    }

    /**
     * Default bound on the copy of a rejected record's value in its dead letter (64 KiB): the dead letter carries the
     * copy twice (as text and as Base64), so even the bound is well under Kafka's default 1 MiB producer request, and
     * a dead letter is always writable however large the record it describes.
     */
    public static final int DEFAULT_DEAD_LETTER_VALUE_BYTES = 64 * 1024;

    /** Longest series id, detail and topic text copied into a dead letter (characters). */
    public static final int MAX_TEXT_CHARS = 1024;

    /**
     * Upper bound on a decision record's bytes: a series id of at most 1,024 bytes (longer ids are rejected) JSON-
     * escaped (≤ 6 bytes per byte), a class label, a channel name cut to {@value #MAX_TEXT_CHARS} characters
     * escaped, and the fixed fields.
     */
    public static final int MAX_DECISION_BYTES = 6 * 1024 + 2 * 1024 + 6 * (StreamJson.MAX_TEXT_CHARS + 1);

    /**
     * Upper bound on the bytes of {@link #deadLetter(DeadLetter, String, int)}: the copy JSON-escaped (≤ 6 bytes per
     * byte) and in Base64, three texts of at most {@value #MAX_TEXT_CHARS} characters escaped, and the fixed fields.
     */
    public static long maxDeadLetterBytes(int maxValueBytes) {
        long v = maxValueBytes;
        return 6 * v + 4 * ((v + 2) / 3) + 3 * 6L * (MAX_TEXT_CHARS + 1) + 512;
    }

    /**
     * The dead-letter record: {@code {"series","reason","detail","t","topic","partition","offset","timestamp","value",
     * "value_base64","value_size","value_sha256","value_truncated","emitted_at"}}. The copied value is the first
     * {@code maxValueBytes} bytes (cut at a UTF-8 character boundary for {@code value}, {@code null} when not UTF-8);
     * {@code value_size} and {@code value_sha256} describe the whole original value, so a dead letter still identifies
     * a record too large to copy. Series id and detail are cut to {@value #MAX_TEXT_CHARS} characters.
     *
     * @param topic the input topic the record came from
     */
    public static byte[] deadLetter(DeadLetter d, String topic, int maxValueBytes) {
        if (maxValueBytes < 0) {
            throw new IllegalArgumentException("maxValueBytes must be ≥ 0, got " + maxValueBytes);
        }
        int copy = utf8Boundary(d.raw, Math.min(d.raw.length, maxValueBytes));
        byte[] head = copy == d.raw.length ? d.raw : java.util.Arrays.copyOf(d.raw, copy);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512 + head.length * 3);
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("series", cut(d.series));
            g.writeStringField("reason", d.reason);
            g.writeStringField("detail", cut(d.detail));
            g.writeNumberField("t", d.t);
            g.writeStringField("topic", cut(topic));
            g.writeNumberField("partition", d.partition);
            g.writeNumberField("offset", d.offset);
            g.writeNumberField("timestamp", d.timestamp);
            g.writeStringField("value", utf8OrNull(head));
            g.writeStringField("value_base64", Base64.getEncoder().encodeToString(head));
            g.writeNumberField("value_size", d.raw.length);
            g.writeStringField("value_sha256", sha256(d.raw));
            g.writeBooleanField("value_truncated", head.length < d.raw.length);
            g.writeNumberField("emitted_at", d.emittedAt);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** {@link #deadLetter(DeadLetter, String, int)} with {@link #DEFAULT_DEAD_LETTER_VALUE_BYTES}. */
    public static byte[] deadLetter(DeadLetter d, String topic) {
        return deadLetter(d, topic, DEFAULT_DEAD_LETTER_VALUE_BYTES);
    }

    /** The Kafka key of a dead letter: the series id, or its SHA-256 when longer than {@value #MAX_TEXT_CHARS} bytes. */
    public static byte[] deadLetterKey(DeadLetter d) {
        if (d.series.isEmpty()) {
            return null;
        }
        byte[] key = d.series.getBytes(StandardCharsets.UTF_8);
        return key.length <= MAX_TEXT_CHARS ? key : ("sha256:" + sha256(key)).getBytes(StandardCharsets.UTF_8);
    }

    /** The largest n′ ≤ n such that raw[0..n′) does not end inside a UTF-8 multi-byte character. */
    static int utf8Boundary(byte[] raw, int n) {
        if (n >= raw.length) {
            return raw.length;
        }
        int i = n;
        // Step back over continuation bytes (10xxxxxx) to the start of the character that the cut would split.
        while (i > 0 && i > n - 4 && (raw[i] & 0xC0) == 0x80) {
            i--;
        }
        return i;
    }

    private static String cut(String s) {
        return s == null || s.length() <= MAX_TEXT_CHARS ? s : s.substring(0, MAX_TEXT_CHARS) + "…";
    }

    private static String sha256(byte[] raw) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(raw));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }

    private static String utf8OrNull(byte[] raw) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
