package io.vigil.stream;

import java.util.Arrays;
import java.util.Objects;

/**
 * A sample the job could not use, with the reason and everything needed to find or replay it: the original
 * value bytes and the Kafka partition and offset it was read from. Serialised by {@link StreamJson#deadLetter}.
 *
 * <p>A Flink POJO (public fields, public no-argument constructor).
 */
public final class DeadLetter {
    /** Series id (the record key as text; empty when the record had neither key nor readable id). */
    public String series;

    /** {@link DeadLetterReason#code()}. */
    public String reason;

    /** One-line explanation. */
    public String detail;

    /** The sample's t when known, else 0. */
    public int t;

    /** Source partition. */
    public int partition;

    /** Source offset. */
    public long offset;

    /** Source record timestamp (epoch ms). */
    public long timestamp;

    /** The original value bytes. */
    public byte[] raw;

    /** When it was dead-lettered (epoch ms). */
    public long emittedAt;

    /** For Flink's POJO serializer. */
    public DeadLetter() {}

    /** A dead letter for an event as it arrived. */
    public static DeadLetter of(SampleEvent e, DeadLetterReason reason, String detail, int t, long now) {
        return of(e.series, reason, detail, t, e.partition, e.offset, e.timestamp, e.raw, now);
    }

    /** The dead letter of a record the decoder rejected (its reason and detail travel in the event). */
    public static DeadLetter decoderRejected(SampleEvent e, long now) {
        if (e.isAccepted()) {
            throw new IllegalArgumentException("the event was not rejected: " + e);
        }
        return build(e.series, e.problem, e.detail, e.t, e.partition, e.offset, e.timestamp, e.raw, now);
    }

    /** A dead letter for a sample that waited in the reorder buffer. */
    public static DeadLetter of(String series, BufferedSample b, DeadLetterReason reason, String detail, long now) {
        return of(series, reason, detail, b.t(), b.partition(), b.offset(), b.timestamp(), b.raw(), now);
    }

    /** A dead letter from its parts. */
    public static DeadLetter of(
            String series,
            DeadLetterReason reason,
            String detail,
            int t,
            int partition,
            long offset,
            long timestamp,
            byte[] raw,
            long now) {
        return build(series, reason.code(), detail, t, partition, offset, timestamp, raw, now);
    }

    private static DeadLetter build(
            String series,
            String reasonCode,
            String detail,
            int t,
            int partition,
            long offset,
            long timestamp,
            byte[] raw,
            long now) {
        DeadLetter d = new DeadLetter();
        d.series = series == null ? "" : series;
        d.reason = reasonCode;
        d.detail = Objects.requireNonNull(detail, "detail");
        d.t = t;
        d.partition = partition;
        d.offset = offset;
        d.timestamp = timestamp;
        d.raw = raw == null ? new byte[0] : raw;
        d.emittedAt = now;
        return d;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetter d
                && Objects.equals(series, d.series)
                && Objects.equals(reason, d.reason)
                && Objects.equals(detail, d.detail)
                && t == d.t
                && partition == d.partition
                && offset == d.offset
                && timestamp == d.timestamp
                && Arrays.equals(raw, d.raw)
                && emittedAt == d.emittedAt;
    }

    @Override
    public int hashCode() {
        return Objects.hash(series, reason, t, partition, offset);
    }

    @Override
    public String toString() {
        return "DeadLetter{" + reason + ": " + detail + ", series=" + series + ", " + partition + "@" + offset + "}";
    }
}
