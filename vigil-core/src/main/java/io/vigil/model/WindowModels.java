package io.vigil.model;

import java.util.Optional;

/**
 * The one check that keeps series models and window models apart: a window model decides windows of an endless
 * stream against a background class, a series model decides pre-cut series, and using either in the other's mode
 * would give answers that mean something else. Both messages say which command to use instead.
 */
public final class WindowModels {
    private WindowModels() {}

    /** The model's window section, if it is a window model. */
    public static Optional<WindowSection> window(VigilModel model) {
        return model.section(WindowSection.class);
    }

    /**
     * Refuses a window model where series are decided.
     *
     * @param where the model's file name or another label for messages
     * @throws IllegalArgumentException naming the window length and stride and the watch-mode commands
     */
    public static void requireSeriesModel(VigilModel model, String where) {
        window(model).ifPresent(w -> {
            throw new IllegalArgumentException(where + " is a window model for watching endless streams (window "
                    + model.seriesLength() + " samples, stride " + w.stride() + ", background '"
                    + w.backgroundLabel() + "'); it decides windows of a stream, not series: use "
                    + "`vigil run --watch` or `vigil evaluate --recordings`");
        });
    }

    /**
     * Refuses a series model where a stream is watched.
     *
     * @throws IllegalArgumentException saying how to train a window model
     */
    public static WindowSection requireWindowModel(VigilModel model, String where) {
        return window(model)
                .orElseThrow(() -> new IllegalArgumentException(where + " is a series model (it classifies pre-cut"
                        + " series of length " + model.seriesLength() + "); watching a stream needs a window model"
                        + " with a background class: train one with `vigil train --recordings DIR`"));
    }
}
