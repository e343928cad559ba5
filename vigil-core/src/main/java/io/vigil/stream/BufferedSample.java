package io.vigil.stream;

import java.util.Arrays;
import java.util.Objects;

/**
 * A sample held in a series' reorder buffer because an earlier t has not arrived yet. It keeps where it came
 * from and its original bytes so that it can be dead-lettered intact if the gap never fills.
 *
 * @param t 1-based time index
 * @param value the sample value
 * @param timestamp Kafka record timestamp (epoch ms)
 * @param partition Kafka partition
 * @param offset Kafka offset
 * @param raw original value bytes
 */
record BufferedSample(int t, double value, long timestamp, int partition, long offset, byte[] raw) {
    /** Requires the bytes. */
    public BufferedSample {
        Objects.requireNonNull(raw, "raw");
    }

    /** The sample of an event, with t resolved; copies the bytes (a stream runtime may reuse event objects). */
    static BufferedSample of(SampleEvent e, int t) {
        return new BufferedSample(t, e.value, e.timestamp, e.partition, e.offset, e.raw.clone());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BufferedSample b
                && t == b.t
                && Double.compare(value, b.value) == 0
                && timestamp == b.timestamp
                && partition == b.partition
                && offset == b.offset
                && Arrays.equals(raw, b.raw);
    }

    @Override
    public int hashCode() {
        return Objects.hash(t, value, timestamp, partition, offset, Arrays.hashCode(raw));
    }
}
