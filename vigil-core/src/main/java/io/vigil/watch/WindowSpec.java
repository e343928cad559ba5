package io.vigil.watch;

import io.vigil.api.Vigil;
import java.util.List;
import java.util.Objects;

/**
 * How a key's stream is cut into windows and how their decisions become alarms (docs/watch.md): a window of D samples
 * opens every S samples (so at most ⌈D / S⌉ are open at once), each is decided early by a model of series length D as
 * one of the {@code eventLabels} or the {@code backgroundLabel}, and alarms re-arm by {@code rearm}. A key silent for
 * more than {@code timeoutSamples} samples (a jump in the sample index) or {@code timeoutMillis} ms (a gap in the
 * values' time stamps) has its open windows closed undecided. Immutable.
 *
 * @param length D ≥ 1, samples per channel of a window: the model's series length
 * @param stride S, 1 ≤ S ≤ D: a new window opens every S samples
 * @param eventLabels the classes that raise alarms (non-empty, without the background)
 * @param backgroundLabel the class of windows in which nothing happens; a window decided as it ends silently
 * @param rearm when a key re-arms for a class after an alarm
 * @param timeoutSamples a jump of more than this many samples closes the open windows; 0 = never
 * @param timeoutMillis a gap of more than this many ms between time-stamped values closes the open windows; 0 = never
 * @param samplingRateHz samples per second, to report delays in ms when values carry no time stamps; NaN = unknown
 */
public record WindowSpec(
        int length,
        int stride,
        List<String> eventLabels,
        String backgroundLabel,
        RearmPolicy rearm,
        long timeoutSamples,
        long timeoutMillis,
        double samplingRateHz) {
    /** Validates and copies the label list. */
    public WindowSpec {
        Objects.requireNonNull(eventLabels, "eventLabels");
        Objects.requireNonNull(backgroundLabel, "backgroundLabel");
        Objects.requireNonNull(rearm, "rearm");
        if (length < 1) {
            throw new IllegalArgumentException("window length D must be ≥ 1, got " + length);
        }
        if (stride < 1 || stride > length) {
            throw new IllegalArgumentException("stride S must be in 1..D = 1.." + length + ", got " + stride);
        }
        eventLabels = List.copyOf(eventLabels);
        if (eventLabels.isEmpty()) {
            throw new IllegalArgumentException("a window spec needs at least one event label");
        }
        if (eventLabels.contains(backgroundLabel)) {
            throw new IllegalArgumentException("the background label '" + backgroundLabel + "' is also an event label");
        }
        if (eventLabels.stream().distinct().count() != eventLabels.size()) {
            throw new IllegalArgumentException("event labels repeat: " + eventLabels);
        }
        if (timeoutSamples < 0 || timeoutMillis < 0) {
            throw new IllegalArgumentException(
                    "timeouts must be ≥ 0 (0 = none), got " + timeoutSamples + " samples, " + timeoutMillis + " ms");
        }
        if (!Double.isNaN(samplingRateHz) && !(samplingRateHz > 0 && Double.isFinite(samplingRateHz))) {
            throw new IllegalArgumentException("sampling rate must be finite and > 0 (or NaN), got " + samplingRateHz);
        }
    }

    /**
     * The spec for a model: D is its series length, every class but {@code backgroundLabel} is an event, re-arming
     * when the windows have closed, no timeout and no sampling rate.
     *
     * @throws IllegalArgumentException when the background is not one of the model's classes or is its only one
     */
    public static WindowSpec of(Vigil vigil, int stride, String backgroundLabel) {
        return of(vigil, stride, backgroundLabel, List.of());
    }

    /**
     * As {@link #of(Vigil, int, String)}, with {@code backgroundClasses} (sub-classes of the background) silent too:
     * every class but the background and those is an event.
     */
    public static WindowSpec of(Vigil vigil, int stride, String backgroundLabel, List<String> backgroundClasses) {
        List<String> classes = vigil.classNames();
        if (!classes.contains(backgroundLabel)) {
            throw new IllegalArgumentException(
                    "background label '" + backgroundLabel + "' is not one of the model's classes " + classes);
        }
        List<String> events = classes.stream()
                .filter(c -> !c.equals(backgroundLabel) && !backgroundClasses.contains(c))
                .toList();
        return new WindowSpec(
                vigil.seriesLength(), stride, events, backgroundLabel, RearmPolicy.WINDOWS_CLOSED, 0, 0, Double.NaN);
    }

    /**
     * The spec a window model records ({@link io.vigil.model.WindowSection}): its stride, background, re-arm policy
     * and sampling rate, no timeouts; the one place the offline evaluation and the stream job build it.
     *
     * @throws IllegalArgumentException when the section does not fit the model
     */
    public static WindowSpec of(Vigil vigil, io.vigil.model.WindowSection section) {
        return of(
                        vigil,
                        section.stride(),
                        section.backgroundLabel(),
                        section.labelling().backgroundClasses())
                .withRearm(RearmPolicy.parse(section.rearm()))
                .withSamplingRate(section.samplingRateHz());
    }

    /** This spec with another re-arm policy. */
    public WindowSpec withRearm(RearmPolicy policy) {
        return new WindowSpec(
                length, stride, eventLabels, backgroundLabel, policy, timeoutSamples, timeoutMillis, samplingRateHz);
    }

    /** This spec with these timeouts (0 = none). */
    public WindowSpec withTimeout(long samples, long millis) {
        return new WindowSpec(length, stride, eventLabels, backgroundLabel, rearm, samples, millis, samplingRateHz);
    }

    /** This spec with a sampling rate (NaN = unknown). */
    public WindowSpec withSamplingRate(double hz) {
        return new WindowSpec(length, stride, eventLabels, backgroundLabel, rearm, timeoutSamples, timeoutMillis, hz);
    }

    /** ⌈D / S⌉: the most windows a key has open at once. */
    public int maxOpenWindows() {
        return (length + stride - 1) / stride;
    }

    /**
     * Checks the spec against the model that decides its windows.
     *
     * @throws IllegalArgumentException when D differs from the model's series length or a label is not a class
     */
    public void check(Vigil vigil) {
        if (length != vigil.seriesLength()) {
            throw new IllegalArgumentException(
                    "window length D = " + length + " differs from the model's series length " + vigil.seriesLength());
        }
        List<String> classes = vigil.classNames();
        if (!classes.contains(backgroundLabel)) {
            throw new IllegalArgumentException(
                    "background label '" + backgroundLabel + "' is not one of the model's classes " + classes);
        }
        for (String e : eventLabels) {
            if (!classes.contains(e)) {
                throw new IllegalArgumentException(
                        "event label '" + e + "' is not one of the model's classes " + classes);
            }
        }
    }
}
