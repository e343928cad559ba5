package io.vigil.bench;

import io.vigil.stream.SampleEvent;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A pass-through map after a job's source that counts records and notes when the first and the last one passed,
 * and when the count crossed two marks (static: the benchmarks' MiniCluster runs in this JVM, one measured job at a
 * time), for sustained rates that leave job start-up (and, between the marks, warm-up and drain) out.
 */
final class RateProbe implements MapFunction<SampleEvent, SampleEvent> {
    private static final long serialVersionUID = 1L;

    private static final AtomicLong FIRST = new AtomicLong();
    private static final AtomicLong LAST = new AtomicLong();
    private static final AtomicLong COUNT = new AtomicLong();
    private static final AtomicLong LOW_MARK = new AtomicLong(Long.MAX_VALUE);
    private static final AtomicLong HIGH_MARK = new AtomicLong(Long.MAX_VALUE);
    private static final AtomicLong LOW_AT = new AtomicLong();
    private static final AtomicLong HIGH_AT = new AtomicLong();

    /** The stream with a probe after it. */
    static DataStream<SampleEvent> tap(DataStream<SampleEvent> s) {
        return s.map(new RateProbe()).name("Rate probe").returns(SampleEvent.class);
    }

    /** Forgets the previous job's records. */
    static void reset() {
        reset(Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /** Forgets the previous job's records and notes when the count reaches {@code low} and {@code high}. */
    static void reset(long low, long high) {
        FIRST.set(0);
        LAST.set(0);
        COUNT.set(0);
        LOW_AT.set(0);
        HIGH_AT.set(0);
        LOW_MARK.set(low);
        HIGH_MARK.set(high);
    }

    /**
     * Records per second between the two marks of {@link #reset(long, long)}, or from the first to the last record
     * when the marks were not both reached.
     */
    static double markedRate() {
        if (LOW_AT.get() != 0 && HIGH_AT.get() > LOW_AT.get()) {
            return (HIGH_MARK.get() - LOW_MARK.get()) / ((HIGH_AT.get() - LOW_AT.get()) / 1e9);
        }
        long span = LAST.get() - FIRST.get();
        return span > 0 ? COUNT.get() / (span / 1e9) : 0;
    }

    /** Records that passed since {@link #reset()}. */
    static long count() {
        return COUNT.get();
    }

    /** {@link System#nanoTime()} when the first record passed, 0 if none did. */
    static long firstNanos() {
        return FIRST.get();
    }

    @Override
    public SampleEvent map(SampleEvent e) {
        long now = System.nanoTime();
        long n = COUNT.incrementAndGet();
        if (n == 1) {
            FIRST.compareAndSet(0, now);
        }
        if (n == LOW_MARK.get()) {
            LOW_AT.set(now);
        } else if (n == HIGH_MARK.get()) {
            HIGH_AT.set(now);
        }
        LAST.set(now);
        return e;
    }
}
