package io.vigil.watch;

import io.vigil.data.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Turns labelled recordings into the training series of a window model (docs/watch.md, "Windows and the background
 * class"). A window of length D starting at sample s is an example of event class c when s lies within the start
 * tolerance of an event of class c (at most ⌊S/2⌋ samples from its start, so each event gives the one or two windows the
 * stream opens nearest to it); every other window on the stride grid is background, including windows that start
 * inside an event late or straddle its start from before. Background windows are many (one per S samples of every
 * recording), so at most {@link Params#maxBackground()} of them are kept, drawn uniformly with the seed. {@link
 * Params} can instead leave out the windows near an event, take windows at several stride offsets of each event start
 * as its examples, and split the background into sub-classes by the labels of the intervals it lies in.
 */
public final class WindowExamples {
    private WindowExamples() {}

    /**
     * One recording as the builder needs it.
     *
     * @param name the recording's name, for messages
     * @param values C channels × n samples (each row one channel)
     * @param starts 0-based first sample of each event
     * @param ends 0-based last sample of each event (inclusive)
     * @param labels each event's class label
     */
    public record Source(
            String name,
            double[][] values,
            int[] starts,
            int[] ends,
            String[] labels,
            int[] contextStarts,
            int[] contextEnds,
            String[] contextLabels) {
        /** A recording without labelled background intervals. */
        public Source(String name, double[][] values, int[] starts, int[] ends, String[] labels) {
            this(name, values, starts, ends, labels, new int[0], new int[0], new String[0]);
        }

        /** Validates sizes. */
        public Source {
            Objects.requireNonNull(name, "name");
            if (values.length == 0) {
                throw new IllegalArgumentException("recording " + name + " has no channels");
            }
            for (double[] row : values) {
                if (row.length != values[0].length) {
                    throw new IllegalArgumentException("recording " + name + ": channels differ in length");
                }
            }
            if (starts.length != ends.length || starts.length != labels.length) {
                throw new IllegalArgumentException("recording " + name + ": event arrays differ in length");
            }
            if (contextStarts.length != contextEnds.length || contextStarts.length != contextLabels.length) {
                throw new IllegalArgumentException("recording " + name + ": background interval arrays differ");
            }
        }

        /** The label of the background interval holding 0-based sample {@code i}, or null. */
        String contextAt(int i) {
            for (int k = 0; k < contextStarts.length; k++) {
                if (contextStarts[k] <= i && i <= contextEnds[k]) {
                    return contextLabels[k];
                }
            }
            return null;
        }

        int samples() {
            return values[0].length;
        }
    }

    /**
     * How windows are cut.
     *
     * @param length D ≥ 2
     * @param stride S in 1..D
     * @param background the background class label; must differ from every event label
     * @param maxBackground at most this many background windows are kept (≥ 1)
     * @param seed seeds the background draw
     * @param excludeNear leave out grid windows that start inside an event (past the start tolerance) or hold its start
     *     in their first half: they are neither event nor background examples
     * @param eventOffsets K ≥ 0: windows at event start + j·S for |j| ≤ K are examples of the event (K = 0: the window
     *     at the event start only); grid windows within K·S + ⌊S/2⌋ of an event start are not background
     * @param backgroundByLabel background windows whose middle sample lies in a labelled interval of a non-event label
     *     L become class {@code background + "/" + L} (a sub-class of the background), the others the background
     */
    public record Params(
            int length,
            int stride,
            String background,
            int maxBackground,
            long seed,
            boolean excludeNear,
            int eventOffsets,
            boolean backgroundByLabel) {
        /** The original labelling: near windows are background, one example per event, one background class. */
        public Params(int length, int stride, String background, int maxBackground, long seed) {
            this(length, stride, background, maxBackground, seed, false, 0, false);
        }

        /** Validates. */
        public Params {
            Objects.requireNonNull(background, "background");
            if (eventOffsets < 0) {
                throw new IllegalArgumentException("event offsets must be ≥ 0, got " + eventOffsets);
            }
            if (length < 2) {
                throw new IllegalArgumentException("window length must be ≥ 2, got " + length);
            }
            if (stride < 1 || stride > length) {
                throw new IllegalArgumentException("stride must be in 1.." + length + ", got " + stride);
            }
            if (maxBackground < 1) {
                throw new IllegalArgumentException("maxBackground must be ≥ 1, got " + maxBackground);
            }
        }

        /** The class name of background windows in intervals labelled {@code label}. */
        public String subClass(String label) {
            return background + "/" + label;
        }
    }

    /**
     * The default window length from the training events' lengths: their median, so that the complete window of an
     * event holds most of at least half of the events (a longer window waits longer for the complete-window label, a
     * shorter one sees less of each event).
     *
     * @throws IllegalArgumentException when there are no events
     */
    public static int defaultLength(int[] eventLengths) {
        if (eventLengths.length == 0) {
            throw new IllegalArgumentException("the training recordings hold no events: cannot choose a window length");
        }
        int[] sorted = eventLengths.clone();
        Arrays.sort(sorted);
        return Math.max(2, sorted[(sorted.length - 1) / 2]);
    }

    /** The default stride: a twentieth of the window (at least 1), so at most 20 windows are open per key. */
    public static int defaultStride(int length) {
        return Math.max(1, length / 20);
    }

    /**
     * The labelled windows of {@code sources}, events first (in recording order), then the drawn background windows.
     *
     * @return a dataset of C-channel windows in the time-major layout of {@link Dataset}, classes in label order,
     *     each window grouped by the index of its recording in {@code sources} ({@link Dataset#groups}), so that
     *     cross-validation never puts windows of one recording on both sides of a fold
     * @throws IllegalArgumentException when an event label equals the background label, or no window fits
     */
    public static Dataset build(String name, List<Source> sources, List<String> channelNames, Params p) {
        int tolerance = p.eventOffsets() * p.stride() + p.stride() / 2;
        List<double[]> rows = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<Integer> recording = new ArrayList<>();
        List<long[]> backgroundStarts = new ArrayList<>();
        for (int r = 0; r < sources.size(); r++) {
            Source src = sources.get(r);
            if (src.values().length != channelNames.size()) {
                throw new IllegalArgumentException("recording " + src.name() + " has " + src.values().length
                        + " channels, the first recording " + channelNames.size());
            }
            for (int e = 0; e < src.starts().length; e++) {
                if (src.labels()[e].equals(p.background())) {
                    throw new IllegalArgumentException("recording " + src.name() + ": event label '" + p.background()
                            + "' is the background label; choose another with --background");
                }
                for (int j = -p.eventOffsets(); j <= p.eventOffsets(); j++) {
                    int from = src.starts()[e] + j * p.stride();
                    if (from >= 0 && from + p.length() <= src.samples()) {
                        rows.add(window(src.values(), from, p.length()));
                        labels.add(src.labels()[e]);
                        recording.add(r);
                    }
                }
            }
            for (int s = 0; s + p.length() <= src.samples(); s += p.stride()) {
                if (!nearEventStart(src.starts(), s, tolerance)
                        && !(p.excludeNear() && nearEvent(src.starts(), src.ends(), s, p.length()))) {
                    backgroundStarts.add(new long[] {r, s});
                }
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "no event leaves room for a window of " + p.length() + " samples before its recording ends");
        }
        SplittableRandom rnd = new SplittableRandom(p.seed());
        int keep = Math.min(p.maxBackground(), backgroundStarts.size());
        for (int i = 0; i < keep; i++) {
            int j = i + rnd.nextInt(backgroundStarts.size() - i);
            long[] pick = backgroundStarts.get(j);
            backgroundStarts.set(j, backgroundStarts.get(i));
            backgroundStarts.set(i, pick);
            Source src = sources.get((int) pick[0]);
            rows.add(window(src.values(), (int) pick[1], p.length()));
            String context = p.backgroundByLabel() ? src.contextAt((int) pick[1] + p.length() / 2) : null;
            labels.add(context == null ? p.background() : p.subClass(context));
            recording.add((int) pick[0]);
        }
        return Dataset.of(name, rows.toArray(double[][]::new), labels.toArray(String[]::new))
                .withChannels(channelNames)
                .withGroups(recording.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Whether a window starting at {@code s} starts an event: within {@code tolerance} samples of an event start. */
    public static boolean nearEventStart(int[] starts, int s, int tolerance) {
        for (int start : starts) {
            if (Math.abs(s - start) <= tolerance) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a window of {@code length} starting at {@code s} starts inside an event or holds an event's start in its
     * first half: s in [start − ⌊length/2⌋, end] for some event.
     */
    public static boolean nearEvent(int[] starts, int[] ends, int s, int length) {
        for (int e = 0; e < starts.length; e++) {
            if (s >= starts[e] - length / 2 && s <= ends[e]) {
                return true;
            }
        }
        return false;
    }

    /** Channels × samples [from, from + length) in the time-major layout (value t·C + c). */
    static double[] window(double[][] values, int from, int length) {
        int channels = values.length;
        double[] out = new double[channels * length];
        for (int t = 0; t < length; t++) {
            for (int c = 0; c < channels; c++) {
                out[t * channels + c] = values[c][from + t];
            }
        }
        return out;
    }
}
