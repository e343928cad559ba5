package io.vigil.stream;

import java.util.Arrays;
import java.util.Objects;

/**
 * One sample as it enters the keyed stage: the decoded series id, time index and value, plus where it came from
 * (partition, offset, record timestamp) and its original value bytes, so a sample that the keyed stage cannot
 * use can still be dead-lettered with everything the producer sent. A record that failed to decode carries its
 * {@link #problem} and never reaches the keyed stage.
 *
 * <p>A Flink POJO (public fields, public no-argument constructor): Flink serialises it with its POJO serializer,
 * never Kryo.
 */
public final class SampleEvent {
    /** Series id (the record key); for a rejected record the key as text, possibly empty. */
    public String series;

    /** 1-based time index, or 0 when the record did not carry one (arrival order then defines it). */
    public int t;

    /** The sample value (finite for an accepted record, NaN for an end record). */
    public double value;

    /** 0-based channel index the record gave, or −1 when it gave none (channel 0, unless {@link #channelName}). */
    public int channel = -1;

    /** Channel name the record gave, or null. */
    public String channelName;

    /** True for an end record: no more values of the series will come. */
    public boolean end;

    /** The Kafka record timestamp in epoch milliseconds (producer create time unless the topic says otherwise). */
    public long timestamp;

    /** Kafka partition the record came from. */
    public int partition;

    /** Kafka offset of the record. */
    public long offset;

    /** The record's original value bytes (empty array when it had none). */
    public byte[] raw;

    /** Decode problem code ({@link DeadLetterReason#code()}), or null for an accepted sample. */
    public String problem;

    /** One-line explanation of {@link #problem}, or null. */
    public String detail;

    /** For Flink's POJO serializer. */
    public SampleEvent() {}

    /** An accepted sample. */
    public static SampleEvent accepted(
            String series, int t, double value, long timestamp, int partition, long offset, byte[] raw) {
        SampleEvent e = new SampleEvent();
        e.series = Objects.requireNonNull(series, "series");
        e.t = t;
        e.value = value;
        e.timestamp = timestamp;
        e.partition = partition;
        e.offset = offset;
        e.raw = raw == null ? new byte[0] : raw;
        return e;
    }

    /** This sample with the channel its record named (index ≥ 0 or −1, name or null); returns this. */
    public SampleEvent channel(int index, String name) {
        this.channel = index;
        this.channelName = name;
        return this;
    }

    /** The end record of a series. */
    public static SampleEvent end(String series, long timestamp, int partition, long offset, byte[] raw) {
        SampleEvent e = accepted(series, 0, Double.NaN, timestamp, partition, offset, raw);
        e.end = true;
        return e;
    }

    /** A record that could not be decoded. */
    public static SampleEvent rejected(
            String key,
            DeadLetterReason reason,
            String detail,
            long timestamp,
            int partition,
            long offset,
            byte[] raw) {
        SampleEvent e = accepted(key == null ? "" : key, 0, Double.NaN, timestamp, partition, offset, raw);
        e.problem = reason.code();
        e.detail = Objects.requireNonNull(detail, "detail");
        return e;
    }

    /** True when the record decoded into a usable sample. */
    public boolean isAccepted() {
        return problem == null;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SampleEvent)) {
            return false;
        }
        SampleEvent e = (SampleEvent) o;
        return Objects.equals(series, e.series)
                && t == e.t
                && Double.compare(value, e.value) == 0
                && channel == e.channel
                && Objects.equals(channelName, e.channelName)
                && end == e.end
                && timestamp == e.timestamp
                && partition == e.partition
                && offset == e.offset
                && Arrays.equals(raw, e.raw)
                && Objects.equals(problem, e.problem)
                && Objects.equals(detail, e.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(series, t, value, timestamp, partition, offset, problem);
    }

    @Override
    public String toString() {
        if (end) {
            return "SampleEvent{end of " + series + ", " + partition + "@" + offset + "}";
        }
        String ch = channelName != null ? ", channel " + channelName : channel >= 0 ? ", channel " + channel : "";
        return isAccepted()
                ? "SampleEvent{" + series + ", t=" + t + ch + ", value=" + value + ", " + partition + "@" + offset + "}"
                : "SampleEvent{rejected " + problem + ": " + detail + ", " + partition + "@" + offset + "}";
    }
}
