package io.vigil.bench;

import io.vigil.stream.SampleEvent;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A pass-through map after a job's source that counts records and notes when the first and the last one passed
 * (static: the benchmarks' MiniCluster runs in this JVM, one measured job at a time), for sustained rates that
 * leave job start-up out.
 */
final class RateProbe implements MapFunction<SampleEvent, SampleEvent> {
    private static final long serialVersionUID = 1L;

    private static final AtomicLong FIRST = new AtomicLong();
    private static final AtomicLong LAST = new AtomicLong();
    private static final AtomicLong COUNT = new AtomicLong();

    /** The stream with a probe after it. */
    static DataStream<SampleEvent> tap(DataStream<SampleEvent> s) {
        return s.map(new RateProbe()).name("Rate probe").returns(SampleEvent.class);
    }

    /** Forgets the previous job's records. */
    static void reset() {
        FIRST.set(0);
        LAST.set(0);
        COUNT.set(0);
    }

    /** Records that passed since {@link #reset()}. */
    static long count() {
        return COUNT.get();
    }

    /** {@link System#nanoTime()} when the first record passed, 0 if none did. */
    static long firstNanos() {
        return FIRST.get();
    }

    /** {@link System#nanoTime()} when the last record passed, 0 if none did. */
    static long lastNanos() {
        return LAST.get();
    }

    @Override
    public SampleEvent map(SampleEvent e) {
        long now = System.nanoTime();
        if (COUNT.getAndIncrement() == 0) {
            FIRST.compareAndSet(0, now);
        }
        LAST.set(now);
        return e;
    }
}
