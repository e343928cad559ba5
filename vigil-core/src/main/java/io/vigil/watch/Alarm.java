package io.vigil.watch;

import java.util.Objects;

/**
 * One alarm raised on a key's stream: the early decisions of overlapping windows for event class {@code label} merged
 * into one event report. Sample indices are 1-based positions in the key's stream (a recording's row numbers when
 * replayed), so offline scoring and the stream job compare alarms alarm by alarm.
 *
 * @param key the stream key (the recording's name when replayed)
 * @param label the event class the alarm reports
 * @param eventStart the estimated start of the event: the start of the earliest window whose decision fired
 * @param trigger the sample at which the alarm fired (the value that completed the decision), ≥ eventStart
 * @param windowStart start of the window whose decision raised the alarm
 * @param windowLength length D of the model's windows
 * @param certified whether the deciding rule's guarantee covers the decision that fired
 */
public record Alarm(
        String key,
        String label,
        long eventStart,
        long trigger,
        long windowStart,
        int windowLength,
        boolean certified) {
    public Alarm {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(label, "label");
        if (eventStart < 1 || trigger < eventStart || windowStart < 1 || windowLength < 1) {
            throw new IllegalArgumentException("alarm " + label + " on " + key + " needs 1 ≤ event_start ≤ trigger,"
                    + " window start ≥ 1, window length ≥ 1; got event_start " + eventStart + ", trigger " + trigger
                    + ", window " + windowStart + "+" + windowLength);
        }
    }

    /** A minimal alarm for scoring and tests: the event start and window are taken to be the trigger. */
    public static Alarm at(String key, String label, long trigger) {
        return new Alarm(key, label, trigger, trigger, trigger, 1, false);
    }

    /** Samples from the estimated event start to the trigger. */
    public long delaySamples() {
        return trigger - eventStart;
    }
}
