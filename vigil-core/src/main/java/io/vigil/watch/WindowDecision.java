package io.vigil.watch;

/**
 * The early decision of one window of a key's stream (docs/watch.md): the class the series-mode rule announced for the
 * window [{@code windowStart}, {@code windowStart} + D − 1], and at which sample of the stream. Sample indices are
 * 1-based positions in the key's stream, so they are a recording's row numbers when it is replayed.
 *
 * @param key the stream key
 * @param label the announced class
 * @param classIndex its index in the model's classes
 * @param event whether the label is one of the spec's event labels (else background or an ignored class)
 * @param windowStart the window's first sample
 * @param windowLength D
 * @param trigger the sample whose value completed the decision (for a window closed with values missing, the sample
 *     whose arrival closed it)
 * @param t the decision's t within the window, as {@link io.vigil.api.EarlyDecision#t()} (time-major over C·D values)
 * @param early whether the rule decided before every value of the window was observed
 * @param complete false when the window closed with values missing and was decided at E[x | observed]
 * @param reliability the largest τ at which the label is reliable
 * @param target the τ in force
 * @param certified whether that τ is certified for the model and rule
 * @param guarantee {@code pac} or {@code expected} when certified, else {@code none}
 */
public record WindowDecision(
        String key,
        String label,
        int classIndex,
        boolean event,
        long windowStart,
        int windowLength,
        long trigger,
        int t,
        boolean early,
        boolean complete,
        double reliability,
        double target,
        boolean certified,
        String guarantee) {
    /** The window's last sample. */
    public long windowEnd() {
        return windowStart + windowLength - 1;
    }
}
