package io.vigil.early;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Offline replay of complete series through {@link EarlyClassifier#observe}, sample by sample, with the same
 * per-series state object the stream job keeps: each series stops at its first decision (t_i), which is
 * what {@code vigil evaluate} reports and what the stream job must reproduce. Under an {@link ObservationPattern}
 * (values missing, channels lagged or dropped, arrival shuffled) each series is decided by {@link PatternReplay} on the
 * pattern's arrival order, as the stream decides it.
 */
public final class EarlyReplay {
    private EarlyReplay() {}

    /**
     * The decisions of a replay plus its cost.
     *
     * @param decisions one per series, in dataset order
     * @param samples the number of {@link EarlyClassifier#observe} calls
     * @param nanos CPU-clock nanoseconds spent in those calls (thread CPU time where supported, else wall)
     */
    public record Result(List<SeriesDecision> decisions, long samples, long nanos) {
        /** Copies the list. */
        public Result {
            decisions = Collections.unmodifiableList(new ArrayList<>(decisions));
        }

        /** Mean time per sample in microseconds. */
        public double microsPerSample() {
            return samples == 0 ? 0.0 : nanos / 1e3 / samples;
        }
    }

    /**
     * Replays every series of {@code test}, whose class indices must follow the model's class order (load it
     * with the model's class names).
     */
    public static List<SeriesDecision> replay(EarlyClassifier classifier, Dataset test) {
        return run(classifier, test).decisions();
    }

    /**
     * Replays every series of {@code test} and measures the per-sample cost.
     *
     * @throws IllegalArgumentException when the series length differs from the model's
     */
    public static Result run(EarlyClassifier classifier, Dataset test) {
        if (test.length() != classifier.length()) {
            throw new IllegalArgumentException(
                    "test series have length " + test.length() + " but the model expects " + classifier.length());
        }
        EarlyClassifier.Workspace ws = classifier.newWorkspace();
        Decision decision = Decision.labelOnly();
        SeriesState state = classifier.newState();
        List<SeriesDecision> out = new ArrayList<>(test.size());
        int d = test.length();
        long samples = 0;
        long nanos = 0;
        for (int i = 0; i < test.size(); i++) {
            double[] x = test.series(i);
            state.reset();
            int t = 0;
            long start = System.nanoTime();
            boolean decided = false;
            while (!decided) {
                decided = classifier.observe(state, x[t], ws, decision);
                t++;
            }
            int label = decision.label();
            nanos += System.nanoTime() - start;
            samples += t;
            int complete = classifier.completeLabel(x, ws);
            out.add(new SeriesDecision(i, t, label, complete, test.classOf(i), t < d));
        }
        return new Result(out, samples, nanos);
    }

    /**
     * Replays every series of {@code test} observed under {@code pattern}, the pattern seeded per series by its id
     * {@code idPrefix + index} (e.g. {@code BasicMotions/test/}, the id {@code vigil replay} gives the same row). A
     * decision's t is {@link Decision#position()}, as the stream reports it: the position in the complete time-major
     * stream of the latest value observed when the rule decided ((t − 1)·C + c + 1 for the highest (t, c) seen), so
     * missing values before it do not make it earlier, t/(C·d) is the fraction of the series' time elapsed when
     * values arrive in time order, and it equals the prefix replay's t when nothing is missing; a series that ends
     * undecided is decided on all its values. The complete pattern runs {@link #run(EarlyClassifier, Dataset)}.
     */
    public static Result run(EarlyClassifier classifier, Dataset test, ObservationPattern pattern, String idPrefix) {
        if (pattern.isComplete()) {
            return run(classifier, test);
        }
        if (test.length() != classifier.length()) {
            throw new IllegalArgumentException(
                    "test series have length " + test.length() + " but the model expects " + classifier.length());
        }
        EarlyClassifier.Workspace ws = classifier.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = classifier.newSubsetState();
        int channels = classifier.channels();
        int length = test.length();
        List<SeriesDecision> out = new ArrayList<>(test.size());
        long samples = 0;
        long nanos = 0;
        for (int i = 0; i < test.size(); i++) {
            double[] x = test.series(i);
            int[] order = pattern.order(idPrefix + i, channels, length);
            long start = System.nanoTime();
            boolean decided = PatternReplay.decide(classifier, state, x, order, ws, decision);
            int k = state.observedCount();
            int label = decision.label();
            nanos += System.nanoTime() - start;
            samples += k;
            int t = decision.position();
            boolean early = decided && state.observedCount() < length;
            out.add(new SeriesDecision(i, t, label, classifier.completeLabel(x, ws), test.classOf(i), early));
        }
        return new Result(out, samples, nanos);
    }
}
