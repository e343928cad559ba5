package io.vigil.bench;

import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LdgParams;
import java.util.Arrays;

/**
 * Times {@link Ldg#fit} on {@link GaussianBlobs} (the thesis reports 4,365 s for Dexter, n = 210 at
 * d = 20,000, Table 3.1, and per-dataset LDG times in Table 3.5). Each repeat is timed separately after a
 * GC; the peak heap is the largest {@link HeapMeter} reading over the repeats.
 */
public final class LdgFitBenchmark {
    private LdgFitBenchmark() {}

    /**
     * What was measured.
     *
     * @param form the form the fit used (kernel or primal)
     * @param seconds wall time of each repeat
     * @param peakHeapBytes largest heap-pool peak sum during a fit (upper bound, see {@link HeapMeter})
     * @param baselineHeapBytes heap used after GC before the fits (the input data and JVM)
     */
    public record Result(
            int n,
            int d,
            int classes,
            int rank,
            Ldg.Form form,
            double[] seconds,
            long peakHeapBytes,
            long baselineHeapBytes) {
        /** Fastest repeat. */
        public double minSeconds() {
            return Arrays.stream(seconds).min().orElseThrow();
        }

        /** Median repeat (upper median for an even count). */
        public double medianSeconds() {
            double[] s = seconds.clone();
            Arrays.sort(s);
            return s[s.length / 2];
        }
    }

    /** Generates the data and fits {@code repeat} times. */
    public static Result run(int n, int d, int classes, LdgParams params, Ldg.Form form, int repeat, long seed) {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        }
        GaussianBlobs data = GaussianBlobs.generate(n, d, classes, seed);
        Ldg.Form used = form == Ldg.Form.AUTO ? Ldg.formFor(n, d) : form;
        double[] seconds = new double[repeat];
        long peak = 0;
        long baseline = Long.MAX_VALUE;
        int rank = 0;
        for (int r = 0; r < repeat; r++) {
            baseline = Math.min(baseline, HeapMeter.reset());
            long start = System.nanoTime();
            LdgBasis basis = Ldg.fit(data.x(), data.y(), classes, params, used);
            seconds[r] = (System.nanoTime() - start) / 1e9;
            peak = Math.max(peak, HeapMeter.peakBytes());
            rank = basis.rank();
        }
        return new Result(n, d, classes, rank, used, seconds, peak, baseline);
    }
}
