package io.vigil.data.recording;

import io.vigil.data.DataFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reads one recording file of the layout in docs/recordings.md: TSV ({@code .tsv}) or CSV ({@code .csv}), optionally
 * gzipped ({@code .gz}); the first non-blank line names the columns, every further non-blank line is one sample. A
 * column named {@code time} or {@code ts} (any case) holds the sample's timestamp in ms; every other column is a
 * channel. Empty cells and {@code NaN}, {@code NA}, {@code ?} are missing values. Every problem is a {@link
 * DataFormatException} naming the file and line.
 */
public final class RecordingReader {
    private static final List<String> EXTENSIONS = List.of(".tsv", ".csv", ".tsv.gz", ".csv.gz");
    private static final int INITIAL_CAPACITY = 1024;

    private RecordingReader() {}

    /** Whether {@code file}'s name ends in one of the recording extensions (and it is not the events table). */
    public static boolean isRecordingFile(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(n::endsWith) && !EventsReader.isEventsFile(file);
    }

    /** The recording's name: the file name without {@code .tsv}/{@code .csv} and {@code .gz}. */
    public static String nameOf(Path file) {
        String n = file.getFileName().toString();
        String lower = n.toLowerCase(Locale.ROOT);
        for (String ext : List.of(".tsv.gz", ".csv.gz", ".tsv", ".csv")) {
            if (lower.endsWith(ext)) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        throw new IllegalArgumentException(file + " is not a recording file (extensions " + EXTENSIONS + ")");
    }

    /** Opens a text file, gunzipping it when its name ends in {@code .gz}. */
    static BufferedReader open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** The cell separator of a file: tab for {@code .tsv[.gz]}, comma for {@code .csv[.gz]}. */
    static char separator(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".csv") || n.endsWith(".csv.gz") ? ',' : '\t';
    }

    /** Splits a line at {@code sep}, trimming each cell (an empty line gives one empty cell). */
    static String[] cells(String line, char sep) {
        String[] parts = line.split(sep == '\t' ? "\t" : ",", -1);
        for (int k = 0; k < parts.length; k++) {
            parts[k] = parts[k].trim();
        }
        return parts;
    }

    /**
     * Reads {@code file}. The sampling rate is {@code samplingRateHz} when it is not NaN, else derived from the time
     * column (1000 / the median step in ms), else unknown.
     */
    public static Recording read(Path file, double samplingRateHz) throws IOException {
        String name = nameOf(file);
        char sep = separator(file);
        try (BufferedReader in = open(file)) {
            long lineNo = 0;
            String line;
            String[] header = null;
            long headerLine = 0;
            while (header == null && (line = in.readLine()) != null) {
                lineNo++;
                if (!line.isBlank()) {
                    header = cells(line, sep);
                    headerLine = lineNo;
                }
            }
            if (header == null) {
                throw new DataFormatException(file, 0, "empty file: a header row naming the channels is required");
            }
            int timeCol = timeColumn(file, headerLine, header);
            List<String> channels = new ArrayList<>();
            for (int k = 0; k < header.length; k++) {
                if (k != timeCol) {
                    channels.add(header[k]);
                }
            }
            if (channels.isEmpty()) {
                throw new DataFormatException(file, headerLine, "the header names no channel besides the time column");
            }
            int cols = header.length;
            double[][] values = new double[channels.size()][INITIAL_CAPACITY];
            double[] times = timeCol >= 0 ? new double[INITIAL_CAPACITY] : null;
            int n = 0;
            double lastTime = Double.NEGATIVE_INFINITY;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] row = cells(line, sep);
                if (row.length != cols) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "expected " + cols + " columns as in the header (line " + headerLine + "), found "
                                    + row.length);
                }
                if (n == values[0].length) {
                    int cap = n * 2;
                    for (int c = 0; c < values.length; c++) {
                        values[c] = Arrays.copyOf(values[c], cap);
                    }
                    if (times != null) {
                        times = Arrays.copyOf(times, cap);
                    }
                }
                int c = 0;
                for (int k = 0; k < cols; k++) {
                    if (k == timeCol) {
                        double t = parseTime(file, lineNo, header[k], row[k]);
                        if (!(t > lastTime)) {
                            throw new DataFormatException(
                                    file,
                                    lineNo,
                                    "column '" + header[k] + "': time " + row[k]
                                            + " ms does not increase (previous sample " + lastTime + " ms)");
                        }
                        lastTime = t;
                        times[n] = t;
                    } else {
                        values[c++][n] = parseValue(file, lineNo, header[k], row[k]);
                    }
                }
                n++;
            }
            if (n == 0) {
                throw new DataFormatException(file, 0, "no samples after the header (line " + headerLine + ")");
            }
            for (int c = 0; c < values.length; c++) {
                values[c] = Arrays.copyOf(values[c], n);
            }
            double[] t = times == null ? null : Arrays.copyOf(times, n);
            double rate = !Double.isNaN(samplingRateHz) ? samplingRateHz : derivedRate(t);
            return new Recording(name, channels, values, t, rate);
        }
    }

    /** Index of the {@code time}/{@code ts} column or −1; checks the header's names. */
    private static int timeColumn(Path file, long line, String[] header) throws DataFormatException {
        int timeCol = -1;
        for (int k = 0; k < header.length; k++) {
            String h = header[k];
            if (h.isEmpty()) {
                throw new DataFormatException(file, line, "header column " + (k + 1) + " has no name");
            }
            for (int j = 0; j < k; j++) {
                if (header[j].equals(h)) {
                    throw new DataFormatException(file, line, "header names column '" + h + "' twice");
                }
            }
            if (isTimeName(h)) {
                if (timeCol >= 0) {
                    throw new DataFormatException(
                            file,
                            line,
                            "two time columns, '" + header[timeCol] + "' and '" + h
                                    + "' (at most one column named time or ts)");
                }
                timeCol = k;
            }
        }
        return timeCol;
    }

    static boolean isTimeName(String h) {
        return h.equalsIgnoreCase("time") || h.equalsIgnoreCase("ts");
    }

    private static boolean isMissing(String cell) {
        return cell.isEmpty() || cell.equalsIgnoreCase("nan") || cell.equalsIgnoreCase("na") || cell.equals("?");
    }

    private static double parseValue(Path file, long line, String column, String cell) throws DataFormatException {
        if (isMissing(cell)) {
            return Double.NaN;
        }
        double v;
        try {
            v = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            throw new DataFormatException(file, line, "column '" + column + "': '" + cell + "' is not a number");
        }
        if (!Double.isFinite(v)) {
            throw new DataFormatException(file, line, "column '" + column + "': '" + cell + "' is not finite");
        }
        return v;
    }

    private static double parseTime(Path file, long line, String column, String cell) throws DataFormatException {
        if (isMissing(cell)) {
            throw new DataFormatException(file, line, "column '" + column + "': missing time (every sample needs one)");
        }
        return parseValue(file, line, column, cell);
    }

    /** 1000 / the median step between timestamps (robust to a few gaps), NaN without timestamps or with one sample. */
    static double derivedRate(double[] timesMs) {
        if (timesMs == null || timesMs.length < 2) {
            return Double.NaN;
        }
        double[] steps = new double[timesMs.length - 1];
        for (int i = 1; i < timesMs.length; i++) {
            steps[i - 1] = timesMs[i] - timesMs[i - 1];
        }
        Arrays.sort(steps);
        int m = steps.length / 2;
        double median = steps.length % 2 == 1 ? steps[m] : (steps[m - 1] + steps[m]) / 2;
        return 1000.0 / median;
    }
}
