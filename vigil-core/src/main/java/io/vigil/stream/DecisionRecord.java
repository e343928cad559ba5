package io.vigil.stream;

import io.vigil.reliability.risk.Guarantee;
import java.util.Objects;

/**
 * One record of the decisions output: the early (or complete-series) label of a series, the notice that a series
 * was abandoned before any decision (idle timeout), or, at the end of a bounded input, the label an undecided series
 * would get now. Serialised by {@link StreamJson#decision} as
 * {@code {"series","label","t","length","early","tau","reliability","model","emitted_at","status","sample_time",
 * "out_of_range","out_of_range_samples","certified","guarantee","target","delta","margin_tau"}}, plus {@code "error"} on a record with
 * status {@code error}, plus {@code "trigger_t","trigger_channel","observed_fraction",
 * "complete"}} when the record says where it was triggered (multichannel models, series ended incomplete).
 *
 * <p>A Flink POJO (public fields, public no-argument constructor).
 */
public final class DecisionRecord {
    /** {@link #status} of a decision. */
    public static final String DECIDED = "decided";

    /** {@link #status} of a series that stopped arriving before any decision. */
    public static final String ABANDONED = "abandoned";

    /** Series id. */
    public String series;

    /**
     * {@link #status} of a series still undecided when a bounded input ended: the label it would get now and that
     * label's reliability, at t = samples consumed.
     */
    public static final String UNDECIDED = "undecided";

    /**
     * {@link #status} of a series whose processing failed: it ends with this one record, {@link #error} says why, and
     * its later samples are ignored up to t = d.
     */
    public static final String ERROR = "error";

    /** {@link #DECIDED}, {@link #ABANDONED} or {@link #UNDECIDED}. */
    public String status;

    /**
     * The announced class label (verbatim from the training data); when undecided the label it would get now; null
     * when abandoned.
     */
    public String label;

    /**
     * Samples seen when the decision was announced (or, when abandoned or undecided, samples consumed); for a series
     * observed in any order, the 1-based position in the time-major order of C·d values of the latest value observed
     * ({@link io.vigil.early.Decision#position()}, what {@code vigil evaluate} reports as t).
     */
    public int t;

    /** Series length d of the model. */
    public int length;

    /** True when decided before t = d (never for an abandoned or undecided record). */
    public boolean early;

    /** The τ the decision was made with. */
    public double tau;

    /**
     * The same value as {@link #marginTau}, under its original name: descriptive, not a guarantee. What is certified
     * is {@link #target} under {@link #guarantee} ({@link #certified}), for the rate over all series.
     */
    public double reliability;

    /**
     * The largest of the reported τ (0.50, 0.51, …, 0.999) whose certified threshold the label passed when announced
     * (never below {@link #tau}; when undecided, the label it would get now); NaN when abandoned. A margin, chosen
     * per decision after seeing it: neither guarantee covers it, and the rate of disagreement among labels that
     * pass a large margin is not bounded by 1 − margin_tau.
     */
    public double marginTau = Double.NaN;

    /** The model id (content hash of the model file). */
    public String model;

    /** When the record was emitted (epoch ms). */
    public long emittedAt;

    /**
     * Kafka timestamp (epoch ms) of the sample that triggered the record (for latency); for an abandoned notice the
     * last sample received, and for a decision replayed after a model upgrade the last sample before the upgrade.
     */
    public long sampleTime;

    /**
     * True when a sample the record rests on (consumed before it was emitted) lay beyond ±K standard deviations of
     * the training series at its t ({@code --range-guard}); the rule is unchanged, the record is only marked.
     */
    public boolean outOfRange;

    /**
     * How many samples of the series lay beyond the range guard before the record was emitted (with {@code
     * --out-of-range reject} each of them was dead-lettered as {@code out_of_range} and treated as missing).
     */
    public int outOfRangeSamples;

    /** Why processing the series failed, on a record with status {@link #ERROR}; null otherwise. */
    public String error;

    /**
     * Whether the target τ in force is certified for this model and rule: the rate of early labels that differ from
     * the complete-series label is at most 1 − τ under {@link #guarantee} — the same as {@code evaluate --json} reports
     * per τ. False for a class-of-interest rule, an uncalibrated model, or a τ the training set could not certify
     * (such a rule decides at t = d).
     */
    public boolean certified;

    /** {@code pac} or {@code expected} when {@link #certified}, else {@code none}. */
    public String guarantee = Guarantee.NONE;

    /** The τ in force, the target the certificate (if any) is for. */
    public double target;

    /**
     * The confidence parameter δ of a {@code pac} certificate (the rate is ≤ 1 − target with probability ≥ 1 − δ over
     * the draw of the training series); NaN (JSON null) for {@code expected} or {@code none}.
     */
    public double delta = Double.NaN;

    /**
     * 1-based time index of the value that triggered the record (for an incomplete series: the last value
     * observed); 0 when the record does not say (records of univariate series that ran their usual course).
     */
    public int triggerT;

    /** Name of the channel of that value, or null when {@link #triggerT} is 0. */
    public String triggerChannel;

    /** The fraction of the series' C·d values observed when the record was emitted; NaN when not said. */
    public double observedFraction = Double.NaN;

    /**
     * False when the series ended before all its values came (an end record, idle expiry of a multichannel series,
     * the end of a bounded input) and the label is the complete-series rule applied to E[x | observed].
     */
    public boolean complete = true;

    /** For Flink's POJO serializer. */
    public DecisionRecord() {}

    /**
     * This record with the position of its triggering value: 1-based t, channel name and the fraction observed
     * (returns this).
     */
    public DecisionRecord at(int t, String channel, double fraction) {
        triggerT = t;
        triggerChannel = Objects.requireNonNull(channel, "channel");
        observedFraction = fraction;
        return this;
    }

    /** This record marked as the label of a series that ended incomplete (returns this). */
    public DecisionRecord incomplete() {
        complete = false;
        early = false;
        return this;
    }

    /** A decision. */
    public static DecisionRecord decided(
            String series,
            String label,
            int t,
            int length,
            double tau,
            double reliability,
            String model,
            long emittedAt,
            long sampleTime) {
        DecisionRecord r = new DecisionRecord();
        r.series = series;
        r.status = DECIDED;
        r.label = Objects.requireNonNull(label, "label");
        r.t = t;
        r.length = length;
        r.early = t < length;
        r.tau = tau;
        r.target = tau;
        r.reliability = reliability;
        r.marginTau = reliability;
        r.model = model;
        r.emittedAt = emittedAt;
        r.sampleTime = sampleTime;
        return r;
    }

    /**
     * The notice that a series expired undecided after {@code consumed} samples, the last of which had event time
     * {@code sampleTime}.
     */
    public static DecisionRecord abandoned(
            String series, int consumed, int length, double tau, String model, long emittedAt, long sampleTime) {
        DecisionRecord r = new DecisionRecord();
        r.series = series;
        r.status = ABANDONED;
        r.t = consumed;
        r.length = length;
        r.tau = tau;
        r.target = tau;
        r.reliability = Double.NaN;
        r.model = model;
        r.emittedAt = emittedAt;
        r.sampleTime = sampleTime;
        return r;
    }

    /**
     * The record of a series still undecided when a bounded input ended after {@code consumed} samples: the label it
     * would get now and that label's reliability ({@link io.vigil.early.EarlyClassifier#current}).
     */
    public static DecisionRecord undecided(
            String series,
            String label,
            int consumed,
            int length,
            double tau,
            double reliability,
            String model,
            long emittedAt,
            long sampleTime) {
        DecisionRecord r = decided(series, label, consumed, length, tau, reliability, model, emittedAt, sampleTime);
        r.status = UNDECIDED;
        r.early = false;
        return r;
    }

    /**
     * The record that ends a series whose processing failed after {@code consumed} samples: status {@link #ERROR},
     * no label, {@link #error} naming the reason.
     */
    public static DecisionRecord error(
            String series,
            String reason,
            int consumed,
            int length,
            double tau,
            String model,
            long emittedAt,
            long sampleTime) {
        DecisionRecord r = abandoned(series, consumed, length, tau, model, emittedAt, sampleTime);
        r.status = ERROR;
        r.error = Objects.requireNonNull(reason, "reason");
        return r;
    }

    /** This record with {@link #outOfRangeSamples} = {@code count}, marked {@link #outOfRange} when positive. */
    public DecisionRecord outOfRangeSamples(int count) {
        outOfRangeSamples = count;
        outOfRange |= count > 0;
        return this;
    }

    /** This record, marked {@link #outOfRange} when {@code marked} (returns this). */
    public DecisionRecord outOfRange(boolean marked) {
        outOfRange = marked;
        return this;
    }

    /**
     * This record with the certificate of the rule in force (returns this).
     *
     * @param isCertified whether {@code tau} is certified
     * @param kind {@code pac} or {@code expected} when certified, else {@code none}
     * @param tau the τ in force
     */
    public DecisionRecord certificate(boolean isCertified, String kind, double tau) {
        return certificate(isCertified, kind, tau, Double.NaN);
    }

    /**
     * This record with the certificate of the rule in force and, for {@code pac}, its δ (returns this).
     *
     * @param isCertified whether {@code tau} is certified
     * @param kind {@code pac} or {@code expected} when certified, else {@code none}
     * @param tau the τ in force
     * @param confidence δ of a {@code pac} certificate, else NaN
     */
    public DecisionRecord certificate(boolean isCertified, String kind, double tau, double confidence) {
        certified = isCertified;
        guarantee = Objects.requireNonNull(kind, "guarantee");
        target = tau;
        delta = isCertified && Guarantee.PAC.cliName().equals(kind) ? confidence : Double.NaN;
        return this;
    }

    /** True for a decision (not an abandoned notice nor an undecided record). */
    public boolean isDecision() {
        return DECIDED.equals(status);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecisionRecord r
                && Objects.equals(series, r.series)
                && Objects.equals(status, r.status)
                && Objects.equals(label, r.label)
                && t == r.t
                && length == r.length
                && early == r.early
                && Double.compare(tau, r.tau) == 0
                && Double.compare(reliability, r.reliability) == 0
                && Objects.equals(model, r.model)
                && emittedAt == r.emittedAt
                && sampleTime == r.sampleTime
                && outOfRange == r.outOfRange
                && outOfRangeSamples == r.outOfRangeSamples
                && Objects.equals(error, r.error)
                && certified == r.certified
                && Objects.equals(guarantee, r.guarantee)
                && Double.compare(target, r.target) == 0
                && Double.compare(delta, r.delta) == 0
                && Double.compare(marginTau, r.marginTau) == 0
                && triggerT == r.triggerT
                && Objects.equals(triggerChannel, r.triggerChannel)
                && Double.compare(observedFraction, r.observedFraction) == 0
                && complete == r.complete;
    }

    @Override
    public int hashCode() {
        return Objects.hash(series, status, label, t, length, model, emittedAt);
    }

    @Override
    public String toString() {
        if (isDecision()) {
            return "decision{" + series + " -> " + label + " at t=" + t + "/" + length + (early ? " early" : "") + "}";
        }
        return status + "{" + series + (label == null ? "" : " ~ " + label) + " after t=" + t + "/" + length + "}";
    }
}
