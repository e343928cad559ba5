package io.vigil.flink;

import io.vigil.kafka.Decoded;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.WatchRecord;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DeadLetterReason;
import java.nio.charset.StandardCharsets;

/**
 * One value of a watched stream as it enters the keyed watch stage ({@link WatchFunction}): the decoded key, value,
 * channel, time stamp and sample index of a {@link WatchRecord}, plus where it came from and its original bytes so it
 * can still be dead-lettered whole. A record that failed to decode carries its {@link #problem} and never reaches the
 * keyed stage. A Flink POJO (public fields, public no-argument constructor), serialised without Kryo.
 */
public final class WatchSample {
    /** The stream key; for a rejected record the record key as text, possibly empty. */
    public String key;

    /** The value, or NaN when missing. */
    public double value;

    /** The channel index given, or {@link SampleRecord#CHANNEL_ABSENT}. */
    public int channel = SampleRecord.CHANNEL_ABSENT;

    /** The channel name given, or null. */
    public String channelName;

    /** The sample's time stamp in epoch ms, or {@link WatchRecord#NO_TS}. */
    public long ts = WatchRecord.NO_TS;

    /** The 1-based sample index given, or {@link WatchRecord#NO_INDEX} (arrival order). */
    public long sample;

    /** The Kafka record timestamp (epoch ms). */
    public long timestamp;

    /** Kafka partition. */
    public int partition;

    /** Kafka offset. */
    public long offset;

    /** The original value bytes (empty when none). */
    public byte[] raw;

    /** {@link DeadLetterReason#code()} of a record that failed to decode, else null. */
    public String problem;

    /** One-line explanation of {@link #problem}, or null. */
    public String detail;

    /** For Flink's POJO serializer. */
    public WatchSample() {}

    /** Decodes one Kafka record's parts; never throws for bad input. */
    public static WatchSample of(byte[] recordKey, byte[] bytes, long timestamp, int partition, long offset) {
        WatchSample s = new WatchSample();
        s.timestamp = timestamp;
        s.partition = partition;
        s.offset = offset;
        s.raw = bytes == null ? new byte[0] : bytes;
        Decoded<WatchRecord.Value> d = WatchRecord.decode(recordKey, bytes);
        if (d instanceof Decoded.Ok<WatchRecord.Value> ok) {
            WatchRecord.Value v = ok.value();
            s.key = v.key();
            s.value = v.value();
            s.channel = v.channel();
            s.channelName = v.channelName();
            s.ts = v.ts();
            s.sample = v.sample();
            return s;
        }
        Decoded.Rejected<WatchRecord.Value> bad = (Decoded.Rejected<WatchRecord.Value>) d;
        s.key = recordKey == null ? "" : new String(recordKey, StandardCharsets.UTF_8);
        s.problem = SampleDeserializer.reasonOf(bad.problem()).code();
        s.detail = bad.detail();
        return s;
    }

    /** Whether the record decoded. */
    public boolean isAccepted() {
        return problem == null;
    }

    /** The sample index as a dead letter's {@code t} (0 when absent or beyond an int). */
    int t() {
        return sample > 0 && sample <= Integer.MAX_VALUE ? (int) sample : 0;
    }

    /** The dead letter of this record for {@code reason}. */
    DeadLetter deadLetter(DeadLetterReason reason, String why, long now) {
        return DeadLetter.of(key, reason, why, t(), partition, offset, timestamp, raw, now);
    }

    /** The dead letter of a record the decoder rejected. */
    DeadLetter decoderRejected(long now) {
        DeadLetter d =
                DeadLetter.of(key, DeadLetterReason.EMPTY_VALUE, detail, t(), partition, offset, timestamp, raw, now);
        d.reason = problem;
        return d;
    }
}
