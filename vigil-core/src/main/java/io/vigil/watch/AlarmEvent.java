package io.vigil.watch;

/**
 * One alarm of a key's stream as the watch runtime raises it (docs/watch.md): the first early decision for event class
 * {@code label} of a group of window decisions that overlap in time; later decisions of the group are merged into it
 * and raise nothing. Sample indices are 1-based positions in the key's stream.
 *
 * @param key the stream key
 * @param label the event class
 * @param eventStart the estimated start of the event: the start of the window whose decision fired
 * @param trigger the sample whose value completed that decision
 * @param delaySamples trigger − event start
 * @param delayMs the same in ms: from the values' time stamps when both samples carried one, else from the spec's
 *     sampling rate, else NaN
 * @param windowStart the start of the window that fired (equal to {@code eventStart})
 * @param windowLength D
 * @param certified whether the deciding rule's τ is certified for the model
 * @param guarantee {@code pac} or {@code expected} when certified, else {@code none}
 * @param target the τ in force
 * @param reliability the largest τ at which the window's label is reliable
 */
public record AlarmEvent(
        String key,
        String label,
        long eventStart,
        long trigger,
        long delaySamples,
        double delayMs,
        long windowStart,
        int windowLength,
        boolean certified,
        String guarantee,
        double target,
        double reliability) {}
