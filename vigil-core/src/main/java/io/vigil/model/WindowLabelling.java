package io.vigil.model;

import java.util.List;
import java.util.Objects;

/**
 * How the training windows of a window model were labelled (docs/watch.md, "Windows and the background class"), so
 * that what is cut again from the training recordings (the feature-SVM baseline) is what the model learnt, and so that
 * background sub-classes end silently like the background. Immutable.
 *
 * @param excludeNear whether grid windows that start inside an event or hold its start in their first half were left
 *     out of training (neither event nor background); false: they were background examples
 * @param eventOffsets K ≥ 0: windows starting within K strides (plus ⌊S/2⌋) of an event start are examples of the event
 * @param backgroundClasses the model's classes that mean background besides the background label (sub-classes of the
 *     background, one per label of the events table that is not an event class); empty for one background class
 */
public record WindowLabelling(boolean excludeNear, int eventOffsets, List<String> backgroundClasses) {
    /** The labelling of models written before it was recorded: near windows are background, one example per event. */
    public static final WindowLabelling ORIGINAL = new WindowLabelling(false, 0, List.of());

    /** Validates and copies. */
    public WindowLabelling {
        Objects.requireNonNull(backgroundClasses, "backgroundClasses");
        if (eventOffsets < 0) {
            throw new IllegalArgumentException("window.labelling.event_offsets must be ≥ 0, got " + eventOffsets);
        }
        backgroundClasses = List.copyOf(backgroundClasses);
        if (backgroundClasses.stream().distinct().count() != backgroundClasses.size()) {
            throw new IllegalArgumentException("window.labelling.background_classes repeat: " + backgroundClasses);
        }
    }

    /** Whether this is {@link #ORIGINAL}. */
    public boolean original() {
        return equals(ORIGINAL);
    }
}
