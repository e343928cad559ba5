package io.vigil.flink;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.watch.AlarmEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One alarm record of {@code vigil run --watch} (docs/watch.md): the {@link AlarmEvent} the per-key runtime raised,
 * the model that decided it and when it was emitted. Written as {@code {"key","label","event_start","trigger",
 * "delay_samples","delay_ms","certified","guarantee","target","model","window_start","window_length","reliability",
 * "emitted_at"}} ({@code delay_ms} null when neither time stamps nor a sampling rate give it). A Flink POJO.
 */
public final class WatchAlarm {
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public String key;
    public String label;
    public long eventStart;
    public long trigger;
    public long delaySamples;
    /** NaN when unknown. */
    public double delayMs = Double.NaN;

    public boolean certified;
    public String guarantee;
    public double target;
    /** The model id ({@link io.vigil.stream.ModelId#of}). */
    public String model;

    public long windowStart;
    public int windowLength;
    public double reliability;
    /** When the alarm was emitted (epoch ms, processing time). */
    public long emittedAt;
    /** Kafka timestamp of the value that triggered it (for latency). */
    public long sampleTime;

    /** For Flink's POJO serializer. */
    public WatchAlarm() {}

    /** The record of an alarm raised by {@code model}. */
    public static WatchAlarm of(AlarmEvent a, String model, long sampleTime, long now) {
        WatchAlarm r = new WatchAlarm();
        r.key = a.key();
        r.label = a.label();
        r.eventStart = a.eventStart();
        r.trigger = a.trigger();
        r.delaySamples = a.delaySamples();
        r.delayMs = a.delayMs();
        r.certified = a.certified();
        r.guarantee = a.guarantee();
        r.target = a.target();
        r.model = model;
        r.windowStart = a.windowStart();
        r.windowLength = a.windowLength();
        r.reliability = a.reliability();
        r.sampleTime = sampleTime;
        r.emittedAt = now;
        return r;
    }

    /** The alarm record's JSON bytes (field order as in the class comment). */
    public byte[] toJson() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(320);
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("key", key);
            g.writeStringField("label", label);
            g.writeNumberField("event_start", eventStart);
            g.writeNumberField("trigger", trigger);
            g.writeNumberField("delay_samples", delaySamples);
            if (Double.isFinite(delayMs)) {
                g.writeNumberField("delay_ms", delayMs);
            } else {
                g.writeNullField("delay_ms");
            }
            g.writeBooleanField("certified", certified);
            g.writeStringField("guarantee", guarantee);
            g.writeNumberField("target", target);
            g.writeStringField("model", model);
            g.writeNumberField("window_start", windowStart);
            g.writeNumberField("window_length", windowLength);
            g.writeNumberField("reliability", reliability);
            g.writeNumberField("emitted_at", emittedAt);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads an alarm record back (tests, tools).
     *
     * @throws IllegalArgumentException when the bytes are not an alarm record
     */
    public static WatchAlarm fromJson(byte[] json) {
        try {
            JsonNode n = MAPPER.readTree(json);
            WatchAlarm r = new WatchAlarm();
            r.key = n.get("key").asText();
            r.label = n.get("label").asText();
            r.eventStart = n.get("event_start").asLong();
            r.trigger = n.get("trigger").asLong();
            r.delaySamples = n.get("delay_samples").asLong();
            r.delayMs =
                    n.get("delay_ms").isNull() ? Double.NaN : n.get("delay_ms").asDouble();
            r.certified = n.get("certified").asBoolean();
            r.guarantee = n.get("guarantee").asText();
            r.target = n.get("target").asDouble();
            r.model = n.get("model").asText();
            r.windowStart = n.get("window_start").asLong();
            r.windowLength = n.get("window_length").asInt();
            r.reliability = n.get("reliability").asDouble();
            r.emittedAt = n.get("emitted_at").asLong();
            return r;
        } catch (IOException | NullPointerException e) {
            throw new IllegalArgumentException("not an alarm record: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return key + " " + label + " start " + eventStart + " trigger " + trigger;
    }
}
