package io.vigil.data.recording;

import io.vigil.data.DataFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the events table of a recording directory ({@code events.tsv}, or {@code events.csv}): a header naming at
 * least {@code recording, start, end, label} (any order, any case; other columns are ignored), optionally {@code
 * split} ({@code train} or {@code test}, the same for every row of a recording), then one row per event with 1-based
 * inclusive sample indices. A row with empty start, end and label only assigns its recording's split. Unknown
 * recordings, bad indices, end &lt; start, events past the recording's end and overlapping events of one recording are
 * {@link DataFormatException}s naming the file and line.
 */
public final class EventsReader {
    /** The file names an events table may have, in the order they are looked for. */
    public static final List<String> FILE_NAMES = List.of("events.tsv", "events.csv");

    /** The split values the {@code split} column accepts. */
    public static final Set<String> SPLITS = Set.of("train", "test");

    private static final int LIST_AT_MOST = 10;

    private EventsReader() {}

    /** The parsed table: events in file order, and the split of each recording that has one. */
    public record Table(List<RecordingEvent> events, Map<String, String> splits, boolean hasSplitColumn) {
        public Table {
            events = List.copyOf(events);
            splits = Map.copyOf(splits);
        }
    }

    /** Whether {@code file} is named like an events table. */
    public static boolean isEventsFile(Path file) {
        return FILE_NAMES.contains(file.getFileName().toString().toLowerCase(Locale.ROOT));
    }

    private record Located(RecordingEvent event, long line) {}

    /**
     * Reads {@code file} against the recordings it may name.
     *
     * @param samples number of samples of each known recording, by name
     */
    public static Table read(Path file, Map<String, Integer> samples) throws IOException {
        char sep = RecordingReader.separator(file);
        try (BufferedReader in = RecordingReader.open(file)) {
            String line;
            long lineNo = 0;
            Map<String, Integer> col = null;
            long headerLine = 0;
            int width = 0;
            while (col == null && (line = in.readLine()) != null) {
                lineNo++;
                if (!line.isBlank()) {
                    String[] header = RecordingReader.cells(line, sep);
                    col = columns(file, lineNo, header);
                    headerLine = lineNo;
                    width = header.length;
                }
            }
            if (col == null) {
                throw new DataFormatException(
                        file, 0, "empty file: a header row 'recording, start, end, label[, split]' is required");
            }
            Integer splitCol = col.get("split");
            Map<String, List<Located>> byRecording = new LinkedHashMap<>();
            Map<String, String> splits = new HashMap<>();
            Map<String, Long> splitLine = new HashMap<>();
            List<RecordingEvent> events = new ArrayList<>();
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] row = RecordingReader.cells(line, sep);
                if (row.length != width) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "expected " + width + " columns as in the header (line " + headerLine + "), found "
                                    + row.length);
                }
                String rec = row[col.get("recording")];
                if (!samples.containsKey(rec)) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "unknown recording '" + rec + "' (recordings: " + list(samples.keySet()) + ")");
                }
                if (splitCol != null) {
                    String split = row[splitCol].toLowerCase(Locale.ROOT);
                    if (!SPLITS.contains(split)) {
                        throw new DataFormatException(
                                file, lineNo, "split '" + row[splitCol] + "' is neither train nor test");
                    }
                    String before = splits.putIfAbsent(rec, split);
                    if (before != null && !before.equals(split)) {
                        throw new DataFormatException(
                                file,
                                lineNo,
                                "recording '" + rec + "' is in split " + split + " here but " + before + " at line "
                                        + splitLine.get(rec));
                    }
                    splitLine.putIfAbsent(rec, lineNo);
                }
                String s = row[col.get("start")];
                String e = row[col.get("end")];
                String label = row[col.get("label")];
                if (s.isEmpty() && e.isEmpty() && label.isEmpty()) {
                    if (splitCol == null) {
                        throw new DataFormatException(file, lineNo, "row has no start, end and label");
                    }
                    continue;
                }
                if (label.isEmpty()) {
                    throw new DataFormatException(file, lineNo, "the event has no label");
                }
                int start = index(file, lineNo, "start", s);
                int end = index(file, lineNo, "end", e);
                if (end < start) {
                    throw new DataFormatException(file, lineNo, "end " + end + " is before start " + start);
                }
                int n = samples.get(rec);
                if (end > n) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "event " + start + ".." + end + " runs past the end of" + " recording '" + rec + "' (" + n
                                    + " samples)");
                }
                RecordingEvent ev = new RecordingEvent(rec, start, end, label);
                events.add(ev);
                byRecording.computeIfAbsent(rec, k -> new ArrayList<>()).add(new Located(ev, lineNo));
            }
            checkOverlaps(file, byRecording);
            return new Table(events, splits, splitCol != null);
        }
    }

    private static Map<String, Integer> columns(Path file, long line, String[] header) throws DataFormatException {
        Map<String, Integer> col = new HashMap<>();
        for (int k = 0; k < header.length; k++) {
            String h = header[k].toLowerCase(Locale.ROOT);
            if (col.putIfAbsent(h, k) != null) {
                throw new DataFormatException(file, line, "header names column '" + header[k] + "' twice");
            }
        }
        for (String need : List.of("recording", "start", "end", "label")) {
            if (!col.containsKey(need)) {
                throw new DataFormatException(
                        file,
                        line,
                        "header lacks column '" + need + "' (required: recording, start, end, label; optional: split)");
            }
        }
        return col;
    }

    private static int index(Path file, long line, String column, String cell) throws DataFormatException {
        long v;
        try {
            v = Long.parseLong(cell);
        } catch (NumberFormatException ex) {
            throw new DataFormatException(
                    file, line, column + " '" + cell + "' is not a whole number (1-based sample index)");
        }
        if (v < 1 || v > Integer.MAX_VALUE) {
            throw new DataFormatException(file, line, column + " " + v + " is not a 1-based sample index (≥ 1)");
        }
        return (int) v;
    }

    private static void checkOverlaps(Path file, Map<String, List<Located>> byRecording) throws DataFormatException {
        for (List<Located> list : byRecording.values()) {
            List<Located> sorted = new ArrayList<>(list);
            sorted.sort(
                    Comparator.comparingInt((Located l) -> l.event().start()).thenComparingLong(Located::line));
            for (int k = 1; k < sorted.size(); k++) {
                Located a = sorted.get(k - 1);
                Located b = sorted.get(k);
                if (b.event().start() <= a.event().end()) {
                    Located later = a.line() > b.line() ? a : b;
                    Located other = later == a ? b : a;
                    throw new DataFormatException(
                            file,
                            later.line(),
                            "event " + later.event().start() + ".."
                                    + later.event().end() + " of recording '"
                                    + later.event().recording()
                                    + "' overlaps the event " + other.event().start() + ".."
                                    + other.event().end()
                                    + " at line " + other.line() + " (events of one recording must not overlap)");
                }
            }
        }
    }

    private static String list(Set<String> names) {
        TreeSet<String> sorted = new TreeSet<>(names);
        StringBuilder b = new StringBuilder();
        int k = 0;
        for (String n : sorted) {
            if (k == LIST_AT_MOST) {
                b.append(", … (").append(sorted.size()).append(" in all)");
                break;
            }
            b.append(k++ == 0 ? "" : ", ").append(n);
        }
        return b.length() == 0 ? "none" : b.toString();
    }
}
