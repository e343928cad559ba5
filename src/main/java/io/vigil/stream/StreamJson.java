package io.vigil.stream;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 *       1763938200101}}; an abandoned series has {@code "status":"abandoned"}, {@code "label":null}, {@code
 *       "reliability":null}, t = samples consumed;
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
        return r;
    }

    /** The dead letter as JSON bytes; {@code topic} is the input topic it was read from. */
    public static byte[] deadLetter(DeadLetter d, String topic) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + d.raw.length * 2);
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("series", d.series);
            g.writeStringField("reason", d.reason);
            g.writeStringField("detail", d.detail);
            g.writeNumberField("t", d.t);
            g.writeStringField("topic", topic);
            g.writeNumberField("partition", d.partition);
            g.writeNumberField("offset", d.offset);
            g.writeNumberField("timestamp", d.timestamp);
            g.writeStringField("value", utf8OrNull(d.raw));
            g.writeStringField("value_base64", Base64.getEncoder().encodeToString(d.raw));
            g.writeNumberField("emitted_at", d.emittedAt);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
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
