package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.data.recording.RecordingSet;
import io.vigil.model.WindowSection;
import io.vigil.watch.RecordingWindows;
import io.vigil.watch.WindowExamples;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * Options of training a window model from a recording directory (docs/recordings.md, docs/watch.md): which labels are
 * events, the window length and stride, the background class and how many background windows to keep.
 */
public final class RecordingOptions {
    @Option(
            names = "--recordings",
            paramLabel = "DIR",
            description = "Train a window model for watching streams from a recording directory (docs/recordings.md) "
                    + "instead of series; its train split when it has one.")
    Path recordings;

    @Option(
            names = "--events",
            paramLabel = "LABELS",
            split = ",",
            description = "With --recordings: the event labels to detect (default: every label in the events table); "
                    + "events of other labels count as background.")
    List<String> events = new ArrayList<>();

    @Option(
            names = "--window",
            paramLabel = "D",
            description = "With --recordings: window length in samples (default: the median length of the training "
                    + "events).")
    Integer window;

    @Option(
            names = "--stride",
            paramLabel = "S",
            description = "With --recordings: a window opens every S samples (default: D/20, at least 1).")
    Integer stride;

    @Option(
            names = "--background",
            paramLabel = "LABEL",
            defaultValue = "background",
            description = "With --recordings: the label of the background class (default: ${DEFAULT-VALUE}).")
    String background;

    @Option(
            names = "--max-background",
            paramLabel = "N",
            defaultValue = "2000",
            description = "With --recordings: background windows kept for training, drawn uniformly from all "
                    + "stride positions away from event starts (default: ${DEFAULT-VALUE}).")
    int maxBackground;

    @Option(
            names = "--near-events",
            paramLabel = "exclude|background",
            defaultValue = "background",
            description = "With --recordings: windows that start inside an event or hold its start in their first "
                    + "half are background examples (background) or are left out of training (exclude) "
                    + "(default: ${DEFAULT-VALUE}).")
    String nearEvents;

    @Option(
            names = "--event-offsets",
            paramLabel = "K",
            defaultValue = "0",
            description = "With --recordings: windows starting at an event start ± up to K strides are examples "
                    + "of the event (default: ${DEFAULT-VALUE}).")
    int eventOffsets;

    @Option(
            names = "--background-classes",
            paramLabel = "one|labels",
            defaultValue = "one",
            description = "With --recordings: one background class, or one background sub-class per non-event "
                    + "label of the events table (background/LABEL; alarms never name them) (default: "
                    + "${DEFAULT-VALUE}).")
    String backgroundClasses;

    @Option(
            names = "--sampling-rate",
            paramLabel = "HZ",
            description = "With --recordings: samples per second of recordings without a time column.")
    Double samplingRate;

    /** Whether a recording directory was given. */
    public boolean enabled() {
        return recordings != null;
    }

    /** The recording directory's training recordings (the train split when the events table has one). */
    public RecordingSet loadTrain() throws IOException {
        RecordingSet set = RecordingSet.read(recordings, samplingRate == null ? Double.NaN : samplingRate);
        return set.hasSplit() ? set.split("train") : set;
    }

    /** The chosen event labels. */
    public Set<String> eventLabels(RecordingSet set) {
        return RecordingWindows.eventLabels(set, events);
    }

    /** The window parameters, defaults resolved from the training events. */
    public WindowExamples.Params params(RecordingSet set, Set<String> labels, long seed) {
        int d = window != null ? window : WindowExamples.defaultLength(RecordingWindows.eventLengths(set, labels));
        int s = stride != null ? stride : WindowExamples.defaultStride(d);
        if (!nearEvents.equals("exclude") && !nearEvents.equals("background")) {
            throw new IllegalArgumentException("--near-events must be exclude or background, got '" + nearEvents + "'");
        }
        if (!backgroundClasses.equals("one") && !backgroundClasses.equals("labels")) {
            throw new IllegalArgumentException(
                    "--background-classes must be one or labels, got '" + backgroundClasses + "'");
        }
        return new WindowExamples.Params(
                d,
                s,
                background,
                maxBackground,
                seed,
                nearEvents.equals("exclude"),
                eventOffsets,
                backgroundClasses.equals("labels"));
    }

    /** The window section of a model trained on {@code windows}, cut with {@code p} from {@code set}. */
    public WindowSection section(RecordingSet set, WindowExamples.Params p, Dataset windows) {
        return new WindowSection(
                p.stride(),
                p.background(),
                samplingRate(set),
                "windows-closed",
                RecordingWindows.labelling(windows, p),
                windows.hasGroups());
    }

    /** The recordings' common sampling rate in Hz, or NaN when one has none or they differ. */
    public static double samplingRate(RecordingSet set) {
        double rate = Double.NaN;
        for (var r : set.recordings()) {
            if (r.samplingRateHz().isEmpty()) {
                return Double.NaN;
            }
            double hz = r.samplingRateHz().getAsDouble();
            if (!Double.isNaN(rate) && Math.abs(hz - rate) > 1e-9 * rate) {
                return Double.NaN;
            }
            rate = hz;
        }
        return rate;
    }

    /** The labelled training windows. */
    public Dataset windows(String name, RecordingSet set, Set<String> labels, WindowExamples.Params p) {
        return RecordingWindows.build(name, set, labels, p);
    }
}
