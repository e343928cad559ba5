package io.vigil.data.recording;

import io.vigil.data.DataFormatException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A directory of recordings with their events and, optionally, each recording's train/test split (the layout of
 * docs/recordings.md). Immutable; {@link #split} gives the subset of one split.
 */
public final class RecordingSet {
    private final List<Recording> recordings;
    private final Map<String, List<RecordingEvent>> events;
    private final Map<String, String> splits;

    /**
     * @param recordings distinct names
     * @param events events of the recordings (each naming one of them); sorted by start per recording
     * @param splits the split ({@code train}/{@code test}) of each recording, or empty when the set has no split
     */
    public RecordingSet(List<Recording> recordings, List<RecordingEvent> events, Map<String, String> splits) {
        List<Recording> sorted = new ArrayList<>(recordings);
        sorted.sort(Comparator.comparing(Recording::name));
        Map<String, List<RecordingEvent>> byName = new LinkedHashMap<>();
        for (Recording r : sorted) {
            if (byName.put(r.name(), new ArrayList<>()) != null) {
                throw new IllegalArgumentException("two recordings named " + r.name());
            }
        }
        for (RecordingEvent e : events) {
            List<RecordingEvent> list = byName.get(e.recording());
            if (list == null) {
                throw new IllegalArgumentException("event " + e + " names an unknown recording");
            }
            list.add(e);
        }
        Map<String, List<RecordingEvent>> frozen = new LinkedHashMap<>();
        for (Map.Entry<String, List<RecordingEvent>> en : byName.entrySet()) {
            List<RecordingEvent> list = en.getValue();
            list.sort(Comparator.comparingInt(RecordingEvent::start));
            for (int k = 1; k < list.size(); k++) {
                if (list.get(k).start() <= list.get(k - 1).end()) {
                    throw new IllegalArgumentException("overlapping events " + list.get(k - 1) + " and " + list.get(k));
                }
            }
            frozen.put(en.getKey(), List.copyOf(list));
        }
        for (Map.Entry<String, String> s : splits.entrySet()) {
            if (!byName.containsKey(s.getKey()) || !EventsReader.SPLITS.contains(s.getValue())) {
                throw new IllegalArgumentException("bad split entry " + s);
            }
        }
        if (!splits.isEmpty() && splits.size() != byName.size()) {
            throw new IllegalArgumentException("a split is needed for every recording or none");
        }
        this.recordings = List.copyOf(sorted);
        this.events = frozen;
        this.splits = Map.copyOf(splits);
    }

    /**
     * Reads a recording directory: every {@code .tsv}/{@code .csv} file (optionally {@code .gz}) but the events table
     * is a recording; {@code events.tsv} (or {@code events.csv}) is the events table.
     *
     * @param samplingRateHz the sampling rate of every recording, or NaN to derive it from time columns
     * @throws DataFormatException naming the file and line of any problem, or a missing split for a recording
     */
    public static RecordingSet read(Path dir, double samplingRateHz) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new FileNotFoundException("recording directory " + dir + " does not exist or is not a directory");
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        List<Path> eventFiles =
                files.stream().filter(EventsReader::isEventsFile).toList();
        if (eventFiles.isEmpty()) {
            throw new FileNotFoundException(
                    "recording directory " + dir + " has no events table (one of " + EventsReader.FILE_NAMES + ")");
        }
        if (eventFiles.size() > 1) {
            throw new DataFormatException(dir, 0, "several events tables " + eventFiles + ": keep one");
        }
        List<Recording> recs = new ArrayList<>();
        Map<String, Path> fileOf = new LinkedHashMap<>();
        Map<String, Integer> samples = new LinkedHashMap<>();
        for (Path f : files) {
            if (!RecordingReader.isRecordingFile(f)) {
                continue;
            }
            String name = RecordingReader.nameOf(f);
            Path before = fileOf.putIfAbsent(name, f);
            if (before != null) {
                throw new DataFormatException(f, 0, "recording '" + name + "' is also in " + before);
            }
            Recording r = RecordingReader.read(f, samplingRateHz);
            recs.add(r);
            samples.put(name, r.samples());
        }
        if (recs.isEmpty()) {
            throw new DataFormatException(dir, 0, "no recording files (*.tsv, *.csv, optionally .gz)");
        }
        Path eventsFile = eventFiles.get(0);
        EventsReader.Table table = EventsReader.read(eventsFile, samples);
        if (table.hasSplitColumn()) {
            for (String name : samples.keySet()) {
                if (!table.splits().containsKey(name)) {
                    throw new DataFormatException(
                            eventsFile,
                            0,
                            "recording '" + name + "' (" + fileOf.get(name)
                                    + ") has no row giving its split; add a row '" + name + ", , , , train|test'");
                }
            }
        }
        return new RecordingSet(recs, table.events(), table.splits());
    }

    /** Recordings sorted by name. */
    public List<Recording> recordings() {
        return recordings;
    }

    public Optional<Recording> recording(String name) {
        return recordings.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** Events of one recording, sorted by start (empty for a recording without events). */
    public List<RecordingEvent> events(String recording) {
        List<RecordingEvent> list = events.get(recording);
        if (list == null) {
            throw new IllegalArgumentException("no recording named " + recording);
        }
        return list;
    }

    /** Every event, by recording name then start. */
    public List<RecordingEvent> events() {
        return events.values().stream().flatMap(List::stream).toList();
    }

    /** The distinct event labels, sorted. */
    public List<String> labels() {
        return List.copyOf(
                new TreeSet<>(events().stream().map(RecordingEvent::label).toList()));
    }

    public boolean hasSplit() {
        return !splits.isEmpty();
    }

    /** The split of a recording, when the set has a split column. */
    public Optional<String> splitOf(String recording) {
        return Optional.ofNullable(splits.get(recording));
    }

    /**
     * The recordings of one split with their events.
     *
     * @throws IllegalArgumentException when the set has no split or {@code split} is neither train nor test
     */
    public RecordingSet split(String split) {
        if (!EventsReader.SPLITS.contains(split)) {
            throw new IllegalArgumentException("split must be train or test, got " + split);
        }
        if (!hasSplit()) {
            throw new IllegalArgumentException("the events table has no split column, so there is no " + split
                    + " split (add a column 'split' with train or test per recording)");
        }
        List<Recording> keep = recordings.stream()
                .filter(r -> split.equals(splits.get(r.name())))
                .toList();
        List<RecordingEvent> ev =
                keep.stream().flatMap(r -> events.get(r.name()).stream()).toList();
        Map<String, String> s = new LinkedHashMap<>();
        keep.forEach(r -> s.put(r.name(), split));
        return new RecordingSet(keep, ev, s);
    }

    /** Total duration in hours when every recording's sampling rate is known. */
    public OptionalDouble hours() {
        double h = 0;
        for (Recording r : recordings) {
            OptionalDouble rh = r.hours();
            if (rh.isEmpty()) {
                return OptionalDouble.empty();
            }
            h += rh.getAsDouble();
        }
        return OptionalDouble.of(h);
    }
}
