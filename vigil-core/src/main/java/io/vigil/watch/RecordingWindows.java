package io.vigil.watch;

import io.vigil.data.Dataset;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.model.WindowLabelling;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The training windows of a recording set ({@link WindowExamples} over {@link RecordingSet}): events whose label is
 * in the chosen event labels are event examples; events of other labels are ordinary signal, i.e. background (and,
 * when asked, name the background sub-class of the windows in them).
 */
public final class RecordingWindows {
    private RecordingWindows() {}

    /**
     * The event labels to learn: {@code chosen} when not empty (each must occur in {@code set}), else every label.
     *
     * @throws IllegalArgumentException naming a chosen label that no event carries
     */
    public static Set<String> eventLabels(RecordingSet set, List<String> chosen) {
        if (chosen.isEmpty()) {
            return Set.copyOf(set.labels());
        }
        for (String label : chosen) {
            if (!set.labels().contains(label)) {
                throw new IllegalArgumentException(
                        "--events: no event is labelled '" + label + "'; the labels are " + set.labels());
            }
        }
        return Set.copyOf(chosen);
    }

    /**
     * How {@code windows}, cut with {@code p}, were labelled, for the model's window section: its background
     * sub-classes are the classes named {@code background/…}.
     */
    public static WindowLabelling labelling(Dataset windows, WindowExamples.Params p) {
        String prefix = p.subClass("");
        List<String> sub = windows.classNames().stream()
                .filter(c -> p.backgroundByLabel() && c.startsWith(prefix))
                .toList();
        return new WindowLabelling(p.excludeNear(), p.eventOffsets(), sub);
    }

    /** The window parameters that cut a model's training windows again as {@code labelling} says. */
    public static WindowExamples.Params params(
            int length, int stride, String background, int maxBackground, long seed, WindowLabelling labelling) {
        return new WindowExamples.Params(
                length,
                stride,
                background,
                maxBackground,
                seed,
                labelling.excludeNear(),
                labelling.eventOffsets(),
                !labelling.backgroundClasses().isEmpty());
    }

    /** Lengths (samples) of the events with a label in {@code labels}. */
    public static int[] eventLengths(RecordingSet set, Set<String> labels) {
        return set.events().stream()
                .filter(e -> labels.contains(e.label()))
                .mapToInt(RecordingEvent::length)
                .toArray();
    }

    /**
     * Cuts the windows of every recording in {@code set}.
     *
     * @param labels the event labels (others are background)
     * @throws IllegalArgumentException when recordings disagree on their channels
     */
    public static Dataset build(String name, RecordingSet set, Set<String> labels, WindowExamples.Params p) {
        List<WindowExamples.Source> sources = new ArrayList<>();
        List<String> channels = set.recordings().get(0).channels();
        for (Recording r : set.recordings()) {
            if (!r.channels().equals(channels)) {
                throw new IllegalArgumentException("recording " + r.name() + " has channels " + r.channels()
                        + ", recording " + set.recordings().get(0).name() + " has " + channels);
            }
            List<RecordingEvent> events = set.events(r.name()).stream()
                    .filter(e -> labels.contains(e.label()))
                    .toList();
            int[] starts = events.stream().mapToInt(e -> e.start() - 1).toArray();
            int[] ends = events.stream().mapToInt(e -> e.end() - 1).toArray();
            String[] names = events.stream().map(RecordingEvent::label).toArray(String[]::new);
            List<RecordingEvent> others = set.events(r.name()).stream()
                    .filter(e -> !labels.contains(e.label()))
                    .toList();
            double[][] values = new double[r.channelCount()][];
            for (int c = 0; c < values.length; c++) {
                values[c] = r.channel(c);
            }
            sources.add(new WindowExamples.Source(
                    r.name(),
                    values,
                    starts,
                    ends,
                    names,
                    others.stream().mapToInt(e -> e.start() - 1).toArray(),
                    others.stream().mapToInt(e -> e.end() - 1).toArray(),
                    others.stream().map(RecordingEvent::label).toArray(String[]::new)));
        }
        // A univariate model keeps the default channel name (model files store names only for C > 1).
        return WindowExamples.build(name, sources, channels.size() == 1 ? Dataset.defaultChannelNames(1) : channels, p);
    }
}
