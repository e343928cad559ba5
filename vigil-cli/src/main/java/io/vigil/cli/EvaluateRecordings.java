package io.vigil.cli;

import io.vigil.api.Vigil;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.DecisionOverrides;
import io.vigil.flink.cli.Json;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import io.vigil.watch.EventScoringResult;
import io.vigil.watch.RearmPolicy;
import io.vigil.watch.WatchBaselines;
import io.vigil.watch.WatchEvaluation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * {@code vigil evaluate --model M --recordings DIR [--split test] [--json]}: a window model watching each recording of
 * a split, scored event by event ({@link WatchEvaluation}); text is one block per detector, {@code --json} one object
 * {@code {"events", "window_certificate", "hours", "baselines", …}}.
 */
final class EvaluateRecordings {
    private EvaluateRecordings() {}

    static int run(
            Path modelFile,
            Path dir,
            String split,
            String rearm,
            DecisionOverrides overrides,
            Double samplingRate,
            boolean json,
            PrintWriter out)
            throws IOException {
        VigilModel model = ModelFile.standard().load(modelFile);
        WindowModels.requireWindowModel(model, modelFile.toString());
        RecordingSet set = RecordingSet.read(dir, samplingRate == null ? Double.NaN : samplingRate);
        // The trained baselines learn from the train split only; a set without a split can only lend them itself.
        RecordingSet training;
        String trainingName;
        if (set.hasSplit()) {
            training = set.split("train");
            trainingName = "the train split (" + training.recordings().size() + " recordings)"
                    + ("train".equals(split) ? ", the evaluated recordings themselves" : ", never the evaluated ones");
        } else {
            training = set;
            trainingName = "the evaluated recordings themselves: the events table has no split";
        }
        if (training.recordings().isEmpty()) {
            training = null;
            trainingName = null;
        }
        if (split != null && !split.isEmpty()) {
            if (!set.hasSplit()) {
                throw new IllegalArgumentException("--split " + split + ": the events table of " + dir
                        + " has no split column; drop --split to evaluate every recording");
            }
            set = set.split(split);
        }
        Vigil vigil = Vigil.of(model, overrides);
        RearmPolicy policy = rearm == null ? null : RearmPolicy.parse(rearm);
        WatchEvaluation.Report r;
        int steps = set.recordings().size()
                + (training == null ? 0 : training.recordings().size());
        try (Progress progress = Progress.bar("evaluate " + dir.getFileName(), steps, !json)) {
            r = WatchEvaluation.evaluate(vigil, set, training, trainingName, policy, progress);
        }
        if (json) {
            out.println(Json.line(r));
        } else {
            printText(out, r, model, modelFile);
        }
        out.flush();
        return 0;
    }

    private static void printText(PrintWriter out, WatchEvaluation.Report r, VigilModel model, Path modelFile) {
        out.printf(
                Locale.ROOT,
                "%s: window model %s (window %d samples, classes %s) on %.2f h of recordings%n",
                modelFile,
                model.datasetName(),
                model.seriesLength(),
                model.classNames(),
                r.hours());
        line(out, "early (vigil)", r.events());
        for (Map.Entry<String, EventScoringResult> b : r.baselines().entrySet()) {
            line(out, b.getKey(), b.getValue());
        }
        WatchEvaluation.WindowCertificate c = r.windowCertificate();
        out.printf(
                Locale.ROOT,
                "window certificate: %d of %d windows agree with the complete-window label (%.3f; target %.2f, %s)%s;"
                        + " %d of %d background windows decided early as an event%n",
                c.agree(),
                c.windows(),
                c.agreement(),
                c.target(),
                c.certified() ? "certified, " + c.guarantee() : "not certified: windows decided at their end",
                c.significantlyBelow()
                        ? String.format(Locale.ROOT, ", significantly below (p = %.3g)", c.pBelow())
                        : "",
                c.earlyEventOnBackground(),
                c.backgroundWindows());
        WatchEvaluation.OperatorUnitsCheck u = r.operatorUnits();
        out.printf(
                Locale.ROOT,
                "operator units: extra false alarms %s/h (certified upper bound %s/h), agreement at event starts %s "
                        + "over %d windows (certified lower bound %s)%s%n",
                fmt(u.extraFalseAlarmsPerHour()),
                u.certifiedExtraFalseAlarmsPerHourUpper() == null
                        ? "none"
                        : fmt(u.certifiedExtraFalseAlarmsPerHourUpper()),
                fmt(u.eventStartAgreement()),
                u.eventStartWindows(),
                u.certifiedEventStartAgreementLower() == null ? "none" : fmt(u.certifiedEventStartAgreementLower()),
                u.withinBounds() == null
                        ? "; the model has no watch certificate"
                        : u.withinBounds() ? "; within the certified bounds" : "; outside the certified bounds");
        if (r.baselineSettings().get(WatchEvaluation.FIXED_DELAY) instanceof WatchBaselines.FixedDelaySetting f) {
            out.printf(
                    Locale.ROOT,
                    "fixed-delay decides every window after %d of %d samples (%.2f): the early rule's median delay"
                            + " %s samples measured on %s%n",
                    f.prefixSamples(),
                    model.seriesLength(),
                    f.prefixFraction(),
                    fmt(f.trainingMedianDelaySamples()),
                    f.measuredOn());
        }
        if (r.baselineSettings().get(WatchEvaluation.FEATURE_SVM) instanceof WatchBaselines.FeatureSvmSetting f) {
            out.printf(
                    Locale.ROOT,
                    "feature-svm: linear SVM (C = %s) on %s of complete windows, trained on %d windows of %s%n",
                    f.c(),
                    f.features(),
                    f.trainingWindows(),
                    f.trainedOn());
        }
        if (r.extraFalseAlarms() != null) {
            out.printf(
                    Locale.ROOT,
                    "extra false alarms of deciding early over complete windows: %+.0f%%%n",
                    100 * r.extraFalseAlarms());
        }
    }

    private static void line(PrintWriter out, String name, EventScoringResult e) {
        out.printf(
                Locale.ROOT,
                "%-15s macro F1 %.3f (precision %.3f, recall %.3f); %d of %d events detected, %d false alarms (%s/h), "
                        + "%d duplicates; delay median %s samples (%s of the event), p90 %s%n",
                name,
                e.macro().f1(),
                e.macro().precision(),
                e.macro().recall(),
                e.detected(),
                e.eventCount(),
                e.falseAlarms(),
                e.falseAlarmsPerHour() == null ? "n/a" : String.format(Locale.ROOT, "%.1f", e.falseAlarmsPerHour()),
                e.duplicates(),
                fmt(e.delay().medianSamples()),
                fmt(e.delay().medianFraction()),
                fmt(e.delay().p90Samples()));
    }

    private static String fmt(Double v) {
        return v == null || v.isNaN() ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }
}
