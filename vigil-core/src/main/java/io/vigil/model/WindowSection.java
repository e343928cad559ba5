package io.vigil.model;

import java.util.List;
import java.util.Objects;

/**
 * Marks a model as a <em>window model</em> for watching endless streams (section {@code window}): the model's series
 * length d is the window length, and this section records how windows are opened on a stream, which class means
 * "nothing is happening" and at what rate the training recordings were sampled (docs/watch.md). The section is
 * required, so a Vigil that does not know it refuses the file instead of deciding windows as series; the series mode
 * refuses a model that has it, and the watch mode a model that has not. Immutable.
 *
 * @param stride S ≥ 1: a new window opens every S samples of a key (at most ⌈d / S⌉ are open at once)
 * @param backgroundLabel the class label of windows that hold no event start; one of the model's classes
 * @param samplingRateHz samples per second of the training recordings, or NaN when they gave no time base
 * @param rearm how a key re-arms after an alarm: {@code windows-closed}, {@code immediate} or {@code refractory:N}
 * @param labelling how the training windows were labelled (docs/watch.md, "Windows and the background class"): the
 *     baselines cut the same windows again, and its background classes are silent like the background
 * @param foldsByRecording whether the selection's cross-validation and the calibration folds were grouped by recording
 *     (no recording on both sides of a fold; docs/watch.md, "What the certificate covers in this mode"); false for
 *     models written before folds were grouped, whose windows were split at random
 */
public record WindowSection(
        int stride,
        String backgroundLabel,
        double samplingRateHz,
        String rearm,
        WindowLabelling labelling,
        boolean foldsByRecording)
        implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "window";

    /** A section of a model trained with the original labelling ({@link WindowLabelling#ORIGINAL}). */
    public WindowSection(int stride, String backgroundLabel, double samplingRateHz, String rearm) {
        this(stride, backgroundLabel, samplingRateHz, rearm, WindowLabelling.ORIGINAL);
    }

    /** A section of a model whose folds were not grouped by recording (written before they were). */
    public WindowSection(
            int stride, String backgroundLabel, double samplingRateHz, String rearm, WindowLabelling labelling) {
        this(stride, backgroundLabel, samplingRateHz, rearm, labelling, false);
    }

    /** Validates. */
    public WindowSection {
        Objects.requireNonNull(backgroundLabel, "backgroundLabel");
        Objects.requireNonNull(rearm, "rearm");
        Objects.requireNonNull(labelling, "labelling");
        if (labelling.backgroundClasses().contains(backgroundLabel)) {
            throw new IllegalArgumentException(
                    "window.labelling.background_classes repeats the background label '" + backgroundLabel + "'");
        }
        if (stride < 1) {
            throw new IllegalArgumentException("window.stride must be ≥ 1, got " + stride);
        }
        if (backgroundLabel.isBlank()) {
            throw new IllegalArgumentException("window.background_label must not be blank");
        }
        if (!Double.isNaN(samplingRateHz) && !(samplingRateHz > 0 && Double.isFinite(samplingRateHz))) {
            throw new IllegalArgumentException(
                    "window.sampling_rate_hz must be finite and > 0 (or absent), got " + samplingRateHz);
        }
        if (!rearm.equals("windows-closed") && !rearm.equals("immediate") && !rearm.matches("refractory:[1-9][0-9]*")) {
            throw new IllegalArgumentException(
                    "window.rearm must be windows-closed, immediate or refractory:N (N ≥ 1), got '" + rearm + "'");
        }
    }

    /** The classes whose windows end silently: the background label, then the background sub-classes. */
    public List<String> silentClasses() {
        List<String> out = new java.util.ArrayList<>();
        out.add(backgroundLabel);
        out.addAll(labelling.backgroundClasses());
        return List.copyOf(out);
    }

    /** Whether the training recordings had a time base. */
    public boolean hasSamplingRate() {
        return !Double.isNaN(samplingRateHz);
    }

    @Override
    public String sectionName() {
        return NAME;
    }

    @Override
    public boolean required() {
        return true;
    }

    @Override
    public void checkShape(ModelShape shape) {
        if (stride > shape.length()) {
            throw new IllegalArgumentException(
                    "window.stride " + stride + " exceeds the window length " + shape.length());
        }
    }

    /**
     * Checks the section against the model's classes.
     *
     * @throws IllegalArgumentException when the background label is not a class or is the only one
     */
    public void checkClasses(List<String> classNames) {
        if (!classNames.contains(backgroundLabel)) {
            throw new IllegalArgumentException("window.background_label '" + backgroundLabel
                    + "' is not one of the model's classes " + classNames);
        }
        for (String c : labelling.backgroundClasses()) {
            if (!classNames.contains(c)) {
                throw new IllegalArgumentException("window.labelling.background_classes '" + c
                        + "' is not one of the model's classes " + classNames);
            }
        }
        if (classNames.size() < 2 + labelling.backgroundClasses().size()) {
            throw new IllegalArgumentException("a window model needs at least one event class beside the background");
        }
    }
}
