package io.vigil.watch;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.vigil.api.Vigil;
import io.vigil.classify.LinearSvm;
import io.vigil.data.Dataset;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowLabelling;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the fixed-delay and feature-SVM baselines of {@code vigil evaluate --recordings} learn, from the training
 * recordings only (docs/watch.md, "Baselines"): the fixed prefix L is the early rule's median detection delay when the
 * same model watches the training recordings ({@link FixedDelayWindows#prefixForDelay}); the feature SVM is trained on
 * the window model's own training windows, cut again from the training recordings with the model's window length,
 * stride, background label, background count and seed ({@link WindowExamples}).
 */
public final class WatchBaselines {
    /** The SVM's misclassification cost C (LIBLINEAR's default). */
    public static final double SVM_C = 1.0;

    private WatchBaselines() {}

    /**
     * The fixed-delay baseline's setting.
     *
     * @param prefixSamples L, the samples of each window seen when it is decided
     * @param prefixFraction L / D
     * @param trainingMedianDelaySamples the early rule's median detection delay on the training recordings (null when it
     *     detected none: then L = D)
     * @param measuredOn which recordings the delay was measured on
     * @param recordings how many
     */
    @JsonPropertyOrder({
        "prefix_samples",
        "prefix_fraction",
        "training_median_delay_samples",
        "measured_on",
        "recordings"
    })
    public record FixedDelaySetting(
            @JsonProperty("prefix_samples") int prefixSamples,
            @JsonProperty("prefix_fraction") double prefixFraction,
            @JsonProperty("training_median_delay_samples") Double trainingMedianDelaySamples,
            @JsonProperty("measured_on") String measuredOn,
            @JsonProperty("recordings") int recordings) {}

    /**
     * The feature SVM's setting.
     *
     * @param features the per-channel features
     * @param c the SVM's cost C
     * @param trainingWindows training windows (events and drawn background)
     * @param sameAsModel whether their count equals the window model's training set size (the same windows)
     * @param trainedOn which recordings they were cut from
     */
    @JsonPropertyOrder({"features", "c", "training_windows", "same_as_model", "trained_on"})
    public record FeatureSvmSetting(
            @JsonProperty("features") String features,
            @JsonProperty("c") double c,
            @JsonProperty("training_windows") int trainingWindows,
            @JsonProperty("same_as_model") boolean sameAsModel,
            @JsonProperty("trained_on") String trainedOn) {}

    /**
     * Both baselines as trained.
     *
     * @param prefix the fixed-delay L
     * @param svm the trained feature SVM
     * @param fixedDelay the fixed-delay setting, for the report
     * @param featureSvm the feature SVM's setting, for the report
     */
    public record Trained(
            int prefix, FeatureSvmWindows svm, FixedDelaySetting fixedDelay, FeatureSvmSetting featureSvm) {}

    /**
     * Learns both baselines from {@code training}.
     *
     * @param spec the window spec the evaluation watches with
     * @param measuredOn how the report names the training recordings (e.g. "train split")
     * @param progress one step per training recording replayed
     * @throws IllegalArgumentException when the training recordings hold no window of some class of the model
     */
    public static Trained train(
            Vigil vigil, WindowSpec spec, RecordingSet training, String measuredOn, Progress progress) {
        VigilModel model = vigil.model();
        Double delay = trainingMedianDelay(vigil, spec, training, progress);
        int prefix = FixedDelayWindows.prefixForDelay(delay, spec.length());
        FixedDelaySetting fd = new FixedDelaySetting(
                prefix,
                prefix / (double) spec.length(),
                delay,
                measuredOn,
                training.recordings().size());
        Dataset windows = trainingWindows(model, spec, training);
        FeatureSvmWindows svm =
                FeatureSvmWindows.train(windows, model.classNames(), LinearSvm.Params.of(SVM_C, model.seed()));
        FeatureSvmSetting fs = new FeatureSvmSetting(
                "mean, std, min, max, energy per channel, standardised",
                SVM_C,
                windows.size(),
                windows.size() == model.trainSize(),
                measuredOn);
        return new Trained(prefix, svm, fd, fs);
    }

    /**
     * The early rule's median detection delay (samples) when the model watches {@code training}, or null when it
     * detects no event there.
     */
    public static Double trainingMedianDelay(Vigil vigil, WindowSpec spec, RecordingSet training, Progress progress) {
        List<EventScoring.ScoredRecording> scored = new ArrayList<>();
        for (Recording r : training.recordings()) {
            double[][] values = WatchEvaluation.values(r);
            List<Alarm> alarms = WatchEvaluation.toAlarms(
                    WatchReplay.run(vigil, spec, r.name(), values).alarms());
            scored.add(WatchEvaluation.scored(training, r, alarms, spec));
            progress.step();
        }
        return EventScoring.score(scored, spec.eventLabels()).delay().medianSamples();
    }

    /**
     * The window model's training windows cut again from {@code training}: D, S and the background label of the spec,
     * as many background windows as the model was trained with, the model's seed.
     */
    public static Dataset trainingWindows(VigilModel model, WindowSpec spec, RecordingSet training) {
        WindowLabelling labelling =
                WindowModels.window(model).map(WindowSection::labelling).orElse(WindowLabelling.ORIGINAL);
        int drawn = 0;
        for (String c : model.classNames()) {
            if (c.equals(spec.backgroundLabel())
                    || labelling.backgroundClasses().contains(c)) {
                drawn += model.classCounts()[model.classNames().indexOf(c)];
            }
        }
        Set<String> labels = new LinkedHashSet<>(spec.eventLabels());
        WindowExamples.Params p = RecordingWindows.params(
                spec.length(), spec.stride(), spec.backgroundLabel(), Math.max(1, drawn), model.seed(), labelling);
        return RecordingWindows.build(model.datasetName(), training, labels, p);
    }
}
