package io.vigil.watch;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.vigil.api.Vigil;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.evaluate.Binomial;
import io.vigil.model.VigilModel;
import io.vigil.model.WatchCertificateSection;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code vigil evaluate --recordings}: replays each recording value by value through the per-key watch runtime
 * ({@link WatchReplay}, the code the stream job runs), scores its alarms against the labelled events ({@link
 * EventScoring}), and beside it the complete-window reference of the same model ({@link CompleteWindows}). The window
 * certificate compares every early window decision with the complete-window label of the same window (docs/watch.md,
 * "What the certificate covers").
 */
public final class WatchEvaluation {
    private WatchEvaluation() {}

    /**
     * Agreement of the early window decisions with the complete-window labels.
     *
     * @param windows windows decided early or at their end that have a complete label
     * @param agree those whose early label equals the complete one
     * @param agreement agree / windows
     * @param target the τ in force
     * @param certified whether the model's operating point is certified
     * @param guarantee {@code pac}, {@code expected} or {@code none}
     * @param pBelow one-sided binomial p-value of an agreement this low if the true rate were τ; overlapping windows of
     *     a recording are dependent, so it is optimistic about significance (a small p is weaker evidence than it looks)
     * @param significantlyBelow pBelow &lt; 0.05
     * @param earlyEventOnBackground windows decided as an event class whose complete label is background (or one of its
     *     sub-classes)
     * @param backgroundWindows windows whose complete label is background (or one of its sub-classes)
     */
    @JsonPropertyOrder({
        "windows",
        "agree",
        "agreement",
        "target",
        "certified",
        "guarantee",
        "p_below",
        "significantly_below",
        "early_event_on_background",
        "background_windows"
    })
    public record WindowCertificate(
            @JsonProperty("windows") long windows,
            @JsonProperty("agree") long agree,
            @JsonProperty("agreement") double agreement,
            @JsonProperty("target") double target,
            @JsonProperty("certified") boolean certified,
            @JsonProperty("guarantee") String guarantee,
            @JsonProperty("p_below") double pBelow,
            @JsonProperty("significantly_below") boolean significantlyBelow,
            @JsonProperty("early_event_on_background") long earlyEventOnBackground,
            @JsonProperty("background_windows") long backgroundWindows) {}

    /**
     * The evaluation of one recording set.
     *
     * @param events the early rule's alarms scored
     * @param windowCertificate agreement with the complete-window labels
     * @param hours recorded hours
     * @param baselines other detectors' alarms scored the same way, by name ({@code complete-window})
     * @param extraFalseAlarms (false alarms/h of the early rule − those of complete-window) / those of complete-window;
     *     NaN when complete-window raised none
     * @param maxOpenWindows the most windows any key had open at once
     * @param baselineSettings what the trained baselines learnt and from which recordings ({@code fixed-delay}, {@code
     *     feature-svm}); empty when no training recordings were given
     */
    @JsonPropertyOrder({
        "events",
        "window_certificate",
        "hours",
        "baselines",
        "extra_false_alarms_fraction",
        "max_open_windows",
        "baseline_settings",
        "operator_units"
    })
    public record Report(
            @JsonProperty("events") EventScoringResult events,
            @JsonProperty("window_certificate") WindowCertificate windowCertificate,
            @JsonProperty("hours") double hours,
            @JsonProperty("baselines") Map<String, EventScoringResult> baselines,
            @JsonProperty("extra_false_alarms_fraction") Double extraFalseAlarms,
            @JsonProperty("max_open_windows") int maxOpenWindows,
            @JsonProperty("baseline_settings") Map<String, Object> baselineSettings,
            @JsonProperty("operator_units") OperatorUnitsCheck operatorUnits) {}

    /**
     * The certificate's operator units measured on the evaluated recordings beside the bounds the model certifies
     * (docs/watch.md, "What the certificate covers in this mode"); the {@code certified_…} fields are null for a model
     * without a watch certificate.
     *
     * @param recordings evaluated recordings
     * @param extraFalseAlarmsPerHour mean over recordings of early alarms per hour that complete-window would not raise
     * @param certifiedExtraFalseAlarmsPerHourUpper the model's (1 − δ) upper bound on it
     * @param eventStartWindows windows opened at event starts
     * @param eventStartAgreement mean over recordings of the agreement of those windows' early and complete labels
     * @param certifiedEventStartAgreementLower the model's (1 − δ) lower bound on it
     * @param withinBounds whether both measured values respect their certified bounds (null without a certificate)
     */
    @JsonPropertyOrder({
        "recordings",
        "extra_false_alarms_per_hour",
        "certified_extra_false_alarms_per_hour_upper",
        "event_start_windows",
        "event_start_agreement",
        "certified_event_start_agreement_lower",
        "delta",
        "within_bounds"
    })
    public record OperatorUnitsCheck(
            @JsonProperty("recordings") int recordings,
            @JsonProperty("extra_false_alarms_per_hour") Double extraFalseAlarmsPerHour,
            @JsonProperty("certified_extra_false_alarms_per_hour_upper") Double certifiedExtraFalseAlarmsPerHourUpper,
            @JsonProperty("event_start_windows") long eventStartWindows,
            @JsonProperty("event_start_agreement") Double eventStartAgreement,
            @JsonProperty("certified_event_start_agreement_lower") Double certifiedEventStartAgreementLower,
            @JsonProperty("delta") Double delta,
            @JsonProperty("within_bounds") Boolean withinBounds) {
        static OperatorUnitsCheck of(OperatorUnits.Bounds measured, WatchCertificateSection certified) {
            Double rate = finite(measured.extraPerHour());
            Double agreement = finite(measured.agreement());
            Double upper = certified == null ? null : finite(certified.extraFalseAlarmsPerHourUpper());
            Double lower = certified == null ? null : finite(certified.eventStartAgreementLower());
            Boolean within = null;
            if (certified != null) {
                within = (rate == null || upper == null || rate <= upper)
                        && (agreement == null || lower == null || agreement >= lower);
            }
            return new OperatorUnitsCheck(
                    measured.recordings(),
                    rate,
                    upper,
                    measured.eventWindows(),
                    agreement,
                    lower,
                    certified == null ? null : certified.delta(),
                    within);
        }

        private static Double finite(double v) {
            return Double.isNaN(v) ? null : v;
        }
    }

    /** The name of the complete-window baseline in {@link Report#baselines()}. */
    public static final String COMPLETE_WINDOW = "complete-window";
    /** The name of the fixed-delay baseline. */
    public static final String FIXED_DELAY = "fixed-delay";
    /** The name of the feature-SVM baseline. */
    public static final String FEATURE_SVM = "feature-svm";

    /**
     * Evaluates a window model on recordings.
     *
     * @param vigil the window model at its operating point (or overridden)
     * @param rearm the re-arm policy (the model's when null)
     * @param progress one step per recording
     * @throws IllegalArgumentException when the model is not a window model or the channels differ
     */
    public static Report evaluate(Vigil vigil, RecordingSet set, RearmPolicy rearm, Progress progress) {
        return evaluate(vigil, set, null, null, rearm, progress);
    }

    /**
     * The window spec a window model watches with: its stride, background, sampling rate, and re-arm policy unless
     * {@code rearm} overrides it.
     */
    public static WindowSpec specOf(Vigil vigil, RearmPolicy rearm) {
        WindowSpec base = WindowSpec.of(vigil, WindowModels.requireWindowModel(vigil.model(), "the model"));
        return rearm != null ? base.withRearm(rearm) : base;
    }

    /**
     * Evaluates a window model on recordings with every baseline: complete-window, and, learnt on {@code training}
     * only ({@link WatchBaselines}), fixed-delay and feature-svm.
     *
     * @param training the training recordings the baselines learn from, or null for complete-window only
     * @param trainingName how the report names them (e.g. "train split")
     * @param progress one step per training recording replayed, then one per evaluated recording
     */
    public static Report evaluate(
            Vigil vigil,
            RecordingSet set,
            RecordingSet training,
            String trainingName,
            RearmPolicy rearm,
            Progress progress) {
        VigilModel model = vigil.model();
        WindowSection section = WindowModels.requireWindowModel(model, "the model");
        WindowSpec spec = specOf(vigil, rearm);
        WatchBaselines.Trained trained =
                training == null ? null : WatchBaselines.train(vigil, spec, training, trainingName, progress);
        List<EventScoring.ScoredRecording> fixedDelay = new ArrayList<>();
        List<EventScoring.ScoredRecording> featureSvm = new ArrayList<>();
        List<String> eventLabels = spec.eventLabels();
        List<EventScoring.ScoredRecording> early = new ArrayList<>();
        List<EventScoring.ScoredRecording> complete = new ArrayList<>();
        long windows = 0;
        long agree = 0;
        long falseEvent = 0;
        long background = 0;
        int maxOpen = 0;
        List<OperatorUnits.Measure> measures = new ArrayList<>();
        List<String> silent = section.silentClasses();
        for (Recording r : set.recordings()) {
            if (!r.channels().equals(channelsOf(model, r))) {
                throw new IllegalArgumentException("recording " + r.name() + " has channels " + r.channels()
                        + " but the model was trained on " + model.channelNames());
            }
            double[][] values = values(r);
            WatchReplay.Result replay = WatchReplay.run(vigil, spec, r.name(), values);
            maxOpen = Math.max(maxOpen, replay.maxOpenWindows());
            CompleteWindows.Labels labels = CompleteWindows.labels(model, spec, values);
            measures.add(OperatorUnits.measure(model, spec, set, r, labels, replay));
            Map<Long, Integer> completeOf = new LinkedHashMap<>();
            for (int w = 0; w < labels.starts().length; w++) {
                completeOf.put(labels.starts()[w], labels.classes()[w]);
            }
            for (WindowDecision d : replay.windows()) {
                Integer truth = completeOf.get(d.windowStart());
                if (truth == null || truth < 0) {
                    continue;
                }
                windows++;
                agree += truth == d.classIndex() ? 1 : 0;
                if (silent.contains(model.classNames().get(truth))) {
                    background++;
                    falseEvent += d.event() ? 1 : 0;
                }
            }
            early.add(scored(set, r, toAlarms(replay.alarms()), spec));
            complete.add(scored(set, r, toAlarms(CompleteWindows.alarms(model, spec, r.name(), labels)), spec));
            if (trained != null) {
                int l = trained.prefix();
                CompleteWindows.Labels fd = FixedDelayWindows.labels(vigil, spec, values, l);
                fixedDelay.add(scored(
                        set, r, toAlarms(FixedDelayWindows.alarms(model.classNames(), spec, r.name(), fd, l)), spec));
                FeatureSvmWindows svm = trained.svm();
                featureSvm.add(scored(set, r, toAlarms(svm.alarms(spec, r.name(), svm.labels(spec, values, 0))), spec));
            }
            progress.step();
        }
        EventScoringResult e = EventScoring.score(early, eventLabels);
        EventScoringResult c = EventScoring.score(complete, eventLabels);
        double tau = vigil.params().tau();
        double rate = windows == 0 ? Double.NaN : agree / (double) windows;
        double p = windows == 0 ? Double.NaN : Binomial.pBelow((int) agree, (int) windows, tau);
        WindowCertificate cert = new WindowCertificate(
                windows,
                agree,
                rate,
                tau,
                vigil.certified(),
                vigil.classifier().thresholds().guarantee(),
                p,
                p < 0.05,
                falseEvent,
                background);
        Map<String, EventScoringResult> baselines = new LinkedHashMap<>();
        baselines.put(COMPLETE_WINDOW, c);
        Map<String, Object> settings = new LinkedHashMap<>();
        if (trained != null) {
            baselines.put(FIXED_DELAY, EventScoring.score(fixedDelay, eventLabels));
            baselines.put(FEATURE_SVM, EventScoring.score(featureSvm, eventLabels));
            settings.put(FIXED_DELAY, trained.fixedDelay());
            settings.put(FEATURE_SVM, trained.featureSvm());
        }
        Double extra = extraFalseAlarms(e, c);
        OperatorUnitsCheck units = OperatorUnitsCheck.of(
                OperatorUnits.bounds(measures, 0.1),
                model.section(WatchCertificateSection.class).orElse(null));
        return new Report(e, cert, e.hours(), baselines, extra, maxOpen, settings, units);
    }

    /** A recording's values as {@code [channel][sample − 1]}. */
    public static double[][] values(Recording r) {
        double[][] values = new double[r.channelCount()][];
        for (int c = 0; c < values.length; c++) {
            values[c] = r.channel(c);
        }
        return values;
    }

    /**
     * One recording's alarms with its events, hours (its time base, else samples at the spec's sampling rate, else
     * one sample per second) and sampling rate, for {@link EventScoring}.
     */
    public static EventScoring.ScoredRecording scored(
            RecordingSet set, Recording r, List<Alarm> alarms, WindowSpec spec) {
        double hours = r.hours().orElse(r.samples() / (3600.0 * rateOr(spec, 1.0)));
        return new EventScoring.ScoredRecording(r.name(), set.events(r.name()), alarms, hours, spec.samplingRateHz());
    }

    private static Double extraFalseAlarms(EventScoringResult early, EventScoringResult complete) {
        if (early.falseAlarmsPerHour() == null || complete.falseAlarmsPerHour() == null) {
            return null;
        }
        double ref = complete.falseAlarmsPerHour();
        return ref > 0 ? (early.falseAlarmsPerHour() - ref) / ref : null;
    }

    private static double rateOr(WindowSpec spec, double fallback) {
        return Double.isNaN(spec.samplingRateHz()) ? fallback : spec.samplingRateHz();
    }

    private static List<String> channelsOf(VigilModel model, Recording r) {
        return model.channels() == 1 ? r.channels() : model.channelNames();
    }

    /** The watch runtime's alarms as the scorer reads them. */
    public static List<Alarm> toAlarms(List<AlarmEvent> alarms) {
        List<Alarm> out = new ArrayList<>(alarms.size());
        for (AlarmEvent a : alarms) {
            out.add(new Alarm(
                    a.key(), a.label(), a.eventStart(), a.trigger(), a.windowStart(), a.windowLength(), a.certified()));
        }
        return out;
    }
}
