package io.vigil.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Measures the peak heap use of a piece of work with the JVM's memory-pool peaks: {@link #reset()} runs a
 * GC and resets every heap pool's peak, {@link #peakBytes()} sums the pools' peaks afterwards. The sum is
 * an upper bound on the true simultaneous peak (pools need not peak at the same instant) and includes
 * garbage not yet collected — so it answers "does this fit in -Xmx?", not "how many bytes are live".
 */
public final class HeapMeter {
    private HeapMeter() {}

    /** Collects garbage and resets the peak of every heap pool; returns the heap used right after the GC. */
    public static long reset() {
        System.gc();
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                pool.resetPeakUsage();
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }

    /** Σ over heap pools of the peak used bytes since the last {@link #reset()}. */
    public static long peakBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    /** The maximum heap size (-Xmx), or −1 if undefined. */
    public static long maxBytes() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
    }
}
