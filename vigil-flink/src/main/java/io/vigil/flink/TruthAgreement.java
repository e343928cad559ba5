package io.vigil.flink;

import io.vigil.stream.DecisionRecord;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Compares each decision with its series' true label from the truth topic ({@code --truth-topic}), whichever arrives
 * first (truth records are sent as a series starts), and reports the agreement as metrics; it emits nothing.
 * Runs with parallelism 1 (one record per series), so its gauges describe the whole job:
 *
 * <ul>
 *   <li>{@code truthDecisions}, {@code truthCorrect}: decisions compared with a true label, and those whose label
 *       equals it;
 *   <li>{@code truthAccuracy}: {@code truthCorrect / truthDecisions} since the job (attempt) started;
 *   <li>{@code truthAgreement}: the same fraction over the last {@value #WINDOW} decisions compared (rolling).
 * </ul>
 *
 * Undecided and abandoned records are not compared. A label waiting for its counterpart is kept at most {@link
 * #WAIT} (state time-to-live), so series without truth, or truth without a decision, leave nothing behind.
 */
final class TruthAgreement extends KeyedCoProcessFunction<String, DecisionRecord, Tuple2<String, String>, Void> {
    private static final long serialVersionUID = 1L;

    /** Decisions in the rolling window of {@code truthAgreement}. */
    static final int WINDOW = 1_000;

    /** Longest a decision waits for its truth record, or a truth record for its decision. */
    static final Duration WAIT = Duration.ofDays(1);

    private transient ValueState<String> truth;
    private transient ValueState<String> decided;
    private transient Counter compared;
    private transient Counter correct;
    private transient Window window;

    @Override
    public void open(OpenContext openContext) {
        truth = getRuntimeContext().getState(descriptor("truth-label"));
        decided = getRuntimeContext().getState(descriptor("decided-label"));
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        compared = metrics.counter("truthDecisions");
        correct = metrics.counter("truthCorrect");
        metrics.gauge("truthAccuracy", (Gauge<Double>) () -> ratio(correct.getCount(), compared.getCount()));
        window = new Window(WINDOW);
        metrics.gauge("truthAgreement", (Gauge<Double>) window::agreement);
    }

    private static ValueStateDescriptor<String> descriptor(String name) {
        ValueStateDescriptor<String> d = new ValueStateDescriptor<>(name, String.class);
        d.enableTimeToLive(StateTtlConfig.newBuilder(WAIT).build());
        return d;
    }

    static double ratio(long part, long whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }

    @Override
    public void processElement1(DecisionRecord d, Context ctx, Collector<Void> out) throws Exception {
        if (!d.isDecision()) {
            truth.clear();
            return;
        }
        String label = truth.value();
        if (label == null) {
            decided.update(d.label);
        } else {
            compare(d.label, label);
            truth.clear();
        }
    }

    @Override
    public void processElement2(Tuple2<String, String> t, Context ctx, Collector<Void> out) throws Exception {
        String label = decided.value();
        if (label == null) {
            truth.update(t.f1);
        } else {
            compare(label, t.f1);
            decided.clear();
        }
    }

    /** Counts one comparison of a decision's label with the true label. */
    private void compare(String decidedLabel, String trueLabel) {
        boolean ok = decidedLabel.equals(trueLabel);
        compared.inc();
        if (ok) {
            correct.inc();
        }
        window.add(ok);
    }

    /** The outcomes of the last {@code size} comparisons (a ring) and the fraction of them that agreed. */
    static final class Window {
        private final boolean[] outcomes;
        private int next;
        private int filled;
        private int agreed;

        Window(int size) {
            outcomes = new boolean[size];
        }

        /** Adds one outcome, dropping the oldest once the window is full. */
        void add(boolean ok) {
            if (filled == outcomes.length) {
                agreed -= outcomes[next] ? 1 : 0;
            } else {
                filled++;
            }
            outcomes[next] = ok;
            agreed += ok ? 1 : 0;
            next = (next + 1) % outcomes.length;
        }

        /** Agreed / outcomes held; NaN before the first. */
        double agreement() {
            return ratio(agreed, filled);
        }
    }
}
