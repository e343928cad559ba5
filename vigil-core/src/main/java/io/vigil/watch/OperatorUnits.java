package io.vigil.watch;

import io.vigil.api.Vigil;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.model.VigilModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hipparchus.distribution.continuous.BetaDistribution;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.hipparchus.distribution.continuous.TDistribution;

/**
 * The watch-mode certificate's quantities in operator units (docs/watch.md, "What the certificate covers in this
 * mode"), measured per recording — the exchangeable unit — and bounded over recordings: extra false alarms per hour
 * (early alarms that the complete-window decisions of the same model would not raise) and the agreement of the early
 * label with the complete-window label on windows that start at events.
 */
public final class OperatorUnits {
    private OperatorUnits() {}

    /**
     * One recording's counts.
     *
     * @param hours its recorded hours
     * @param extraAlarms early alarms with no complete-window alarm of the same label whose window starts less than a
     *     window length D away
     * @param eventWindows windows the stream opened within ⌊S/2⌋ samples of an event start (of an event class)
     * @param eventAgree those whose early label equals their complete-window label
     */
    public record Measure(double hours, int extraAlarms, int eventWindows, int eventAgree) {}

    /**
     * Point estimates and one-sided (1 − δ) bounds over n recordings.
     *
     * @param extraPerHour mean over recordings of extra alarms / hours
     * @param extraPerHourUpper upper bound: the larger of the Student-t bound over the per-recording rates and the
     *     exact Poisson bound of the pooled count over the pooled hours; NaN for n &lt; 2
     * @param agreement mean over recordings with event windows of their agreement fraction (NaN when none)
     * @param agreementLower lower bound: the smaller of the Student-t bound over the per-recording fractions and the
     *     Clopper–Pearson bound of the pooled windows; NaN with fewer than 2 such recordings
     */
    public record Bounds(
            int recordings,
            double hours,
            double extraPerHour,
            double extraPerHourUpper,
            long eventWindows,
            int eventRecordings,
            double agreement,
            double agreementLower) {}

    /** Replays one recording under {@code vigil} and counts what {@link Measure} says. */
    public static Measure measure(Vigil vigil, WindowSpec spec, RecordingSet set, Recording r) {
        double[][] values = WatchEvaluation.values(r);
        WatchReplay.Result replay = WatchReplay.run(vigil, spec, r.name(), values);
        return measure(vigil.model(), spec, set, r, CompleteWindows.labels(vigil.model(), spec, values), replay);
    }

    /**
     * As {@link #measure(Vigil, WindowSpec, RecordingSet, Recording)} from a replay already run and the complete-window
     * labels of its windows already computed.
     */
    static Measure measure(
            VigilModel model,
            WindowSpec spec,
            RecordingSet set,
            Recording r,
            CompleteWindows.Labels labels,
            WatchReplay.Result replay) {
        List<AlarmEvent> complete = CompleteWindows.alarms(model, spec, r.name(), labels);
        int extra = 0;
        for (AlarmEvent a : replay.alarms()) {
            boolean matched = false;
            for (AlarmEvent c : complete) {
                matched |= c.label().equals(a.label()) && Math.abs(c.windowStart() - a.windowStart()) < spec.length();
            }
            extra += matched ? 0 : 1;
        }
        List<Long> eventStarts = new ArrayList<>();
        for (RecordingEvent e : set.events(r.name())) {
            if (spec.eventLabels().contains(e.label())) {
                eventStarts.add((long) e.start());
            }
        }
        Map<Long, Integer> completeOf = new HashMap<>();
        for (int w = 0; w < labels.starts().length; w++) {
            completeOf.put(labels.starts()[w], labels.classes()[w]);
        }
        int tolerance = spec.stride() / 2;
        int windows = 0;
        int agree = 0;
        for (WindowDecision d : replay.windows()) {
            Integer truth = completeOf.get(d.windowStart());
            if (truth == null || truth < 0) {
                continue;
            }
            boolean atEvent = false;
            for (long s : eventStarts) {
                atEvent |= Math.abs(d.windowStart() - s) <= tolerance;
            }
            if (atEvent) {
                windows++;
                agree += truth == d.classIndex() ? 1 : 0;
            }
        }
        double hours = r.hours().orElse(r.samples() / (3600.0 * rateOr(spec)));
        return new Measure(hours, extra, windows, agree);
    }

    private static double rateOr(WindowSpec spec) {
        return Double.isNaN(spec.samplingRateHz()) ? 1.0 : spec.samplingRateHz();
    }

    /**
     * The estimates and bounds over {@code measures}, one per recording (docs/watch.md). Recordings with no hours
     * add nothing to the rate.
     *
     * @param delta in (0, 1)
     */
    public static Bounds bounds(List<Measure> measures, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        List<Double> rates = new ArrayList<>();
        List<Double> fractions = new ArrayList<>();
        double hours = 0;
        long extra = 0;
        long windows = 0;
        long agree = 0;
        for (Measure m : measures) {
            if (m.hours() > 0) {
                rates.add(m.extraAlarms() / m.hours());
                hours += m.hours();
                extra += m.extraAlarms();
            }
            if (m.eventWindows() > 0) {
                fractions.add(m.eventAgree() / (double) m.eventWindows());
                windows += m.eventWindows();
                agree += m.eventAgree();
            }
        }
        double rate = mean(rates);
        double upper = Double.NaN;
        if (rates.size() >= 2) {
            double t = tBound(rates, delta);
            double poisson =
                    new ChiSquaredDistribution(2.0 * (extra + 1)).inverseCumulativeProbability(1 - delta) / 2 / hours;
            upper = Math.max(rate + t, poisson);
        }
        double agreement = mean(fractions);
        double lower = Double.NaN;
        if (fractions.size() >= 2) {
            double t = tBound(fractions, delta);
            double cp = agree == 0
                    ? 0
                    : new BetaDistribution(agree, windows - agree + 1.0).inverseCumulativeProbability(delta);
            lower = Math.max(0, Math.min(agreement - t, cp));
        }
        return new Bounds(measures.size(), hours, rate, upper, windows, fractions.size(), agreement, lower);
    }

    private static double mean(List<Double> v) {
        return v.isEmpty()
                ? Double.NaN
                : v.stream().mapToDouble(Double::doubleValue).sum() / v.size();
    }

    /** t_{1−δ, n−1} · s / √n of the values (n ≥ 2). */
    static double tBound(List<Double> v, double delta) {
        int n = v.size();
        double m = mean(v);
        double ss = 0;
        for (double x : v) {
            ss += (x - m) * (x - m);
        }
        double s = Math.sqrt(ss / (n - 1));
        return new TDistribution(n - 1).inverseCumulativeProbability(1 - delta) * s / Math.sqrt(n);
    }
}
