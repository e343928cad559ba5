package io.vigil.data.recording;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes recordings and the events table in the layout {@link RecordingSet#read} reads back (docs/recordings.md), so
 * importers and generators produce exactly what a user would write by hand.
 */
public final class RecordingWriter {
    private RecordingWriter() {}

    /**
     * Writes {@code rec} to {@code file} (TSV or CSV by extension, gzipped when it ends in {@code .gz}); a time column
     * {@code time} comes first when the recording has timestamps. Missing values are written as {@code NaN}.
     */
    public static void write(Recording rec, Path file) throws IOException {
        char sep = RecordingReader.separator(file);
        try (Writer w = open(file)) {
            StringBuilder b = new StringBuilder();
            if (rec.hasTimes()) {
                b.append("time").append(sep);
            }
            b.append(String.join(String.valueOf(sep), rec.channels())).append('\n');
            w.write(b.toString());
            for (int i = 1; i <= rec.samples(); i++) {
                b.setLength(0);
                if (rec.hasTimes()) {
                    b.append(number(rec.timeMs(i))).append(sep);
                }
                for (int c = 0; c < rec.channelCount(); c++) {
                    b.append(c == 0 ? "" : String.valueOf(sep)).append(number(rec.value(c, i)));
                }
                w.write(b.append('\n').toString());
            }
        }
    }

    /**
     * Writes an events table (tab-separated); with a split per recording it has a {@code split} column and a row
     * with empty start, end and label for each recording without events.
     *
     * @param recordings every recording name, in the order rows are written
     * @param splits each recording's split, or empty for a table without split column
     */
    public static void writeEvents(
            Path file, List<String> recordings, List<RecordingEvent> events, Map<String, String> splits)
            throws IOException {
        boolean split = !splits.isEmpty();
        try (Writer w = open(file)) {
            w.write("recording\tstart\tend\tlabel" + (split ? "\tsplit" : "") + "\n");
            for (String rec : recordings) {
                boolean any = false;
                for (RecordingEvent e : events) {
                    if (e.recording().equals(rec)) {
                        any = true;
                        w.write(rec + "\t" + e.start() + "\t" + e.end() + "\t" + e.label()
                                + (split ? "\t" + splits.get(rec) : "") + "\n");
                    }
                }
                if (!any && split) {
                    w.write(rec + "\t\t\t\t" + splits.get(rec) + "\n");
                }
            }
        }
    }

    /**
     * Writes a whole set into {@code dir}: one {@code NAME.tsv} (or {@code NAME.tsv.gz}) per recording and {@code
     * events.tsv}, with a split column when the set has a split.
     *
     * @return the files written, recordings first
     */
    public static List<Path> writeSet(RecordingSet set, Path dir, boolean gzip) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        Map<String, String> splits = new LinkedHashMap<>();
        for (Recording r : set.recordings()) {
            Path f = dir.resolve(r.name() + ".tsv" + (gzip ? ".gz" : ""));
            write(r, f);
            files.add(f);
            set.splitOf(r.name()).ifPresent(s -> splits.put(r.name(), s));
        }
        Path events = dir.resolve("events.tsv");
        writeEvents(events, set.recordings().stream().map(Recording::name).toList(), set.events(), splits);
        files.add(events);
        return files;
    }

    private static Writer open(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        OutputStream out = Files.newOutputStream(file);
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
            out = new GZIPOutputStream(out, 1 << 16);
        }
        return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }

    /** Shortest round-trip decimal; whole numbers without ".0". */
    private static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
