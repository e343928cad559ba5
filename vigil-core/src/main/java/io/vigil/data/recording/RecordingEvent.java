package io.vigil.data.recording;

import java.util.Objects;

/**
 * One labelled event of a recording: the samples {@code start..end} (1-based, inclusive) carry {@code label}. Events
 * of one recording never overlap (the events reader refuses overlaps).
 *
 * @param recording name of the recording the indices refer to
 * @param start first sample of the event, ≥ 1
 * @param end last sample of the event, ≥ start
 * @param label the event's class
 */
public record RecordingEvent(String recording, int start, int end, String label) {
    public RecordingEvent {
        Objects.requireNonNull(recording, "recording");
        Objects.requireNonNull(label, "label");
        if (start < 1 || end < start) {
            throw new IllegalArgumentException(
                    "event " + label + " of " + recording + " needs 1 ≤ start ≤ end, got " + start + ".." + end);
        }
    }

    /** Samples the event covers, {@code end − start + 1}. */
    public int length() {
        return end - start + 1;
    }

    /** Whether sample {@code i} (1-based) lies in the event. */
    public boolean contains(long i) {
        return i >= start && i <= end;
    }
}
