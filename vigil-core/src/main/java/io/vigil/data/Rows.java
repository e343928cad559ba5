package io.vigil.data;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Collects the parsed series of one file with the line each came from, checks them as they arrive (channel count,
 * a label present, a label known to the training split, a declared length) and fills missing values when asked,
 * so every error can name the line it concerns. Unequal lengths are resolved by the {@link LengthPolicy} once all
 * series are in, since the policy's target (or the rejection's message) depends on the shortest and the longest.
 */
final class Rows {
    private final Path file;
    private final ReadOptions options;
    private final Map<String, Integer> knownClasses;
    private final List<double[][]> rows = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private long[] lines = new long[64];
    private int expectedLength = -1;
    private String expectedSource;
    private boolean lengthDeclared;
    private int expectedChannels = -1;
    private String channelSource;
    private int shortest = -1;
    private int longest = -1;

    Rows(Path file, ReadOptions options) {
        this.file = file;
        this.options = options;
        if (options.classes() == null) {
            knownClasses = null;
        } else {
            knownClasses = new HashMap<>();
            for (int g = 0; g < options.classes().size(); g++) {
                knownClasses.put(options.classes().get(g), g);
            }
        }
        if (options.length() > 0) {
            expectedLength = options.length();
            expectedSource = "the training split has " + options.length();
            lengthDeclared = true;
        }
    }

    /** Declares the series length a header promises (e.g. {@code @seriesLength 128}) at {@code line}. */
    void expectLength(int length, String source, long line) throws DataFormatException {
        if (options.length() > 0 && length != options.length()) {
            throw new DataFormatException(
                    file, line, source + " but the training split has length " + options.length());
        }
        expectedLength = length;
        expectedSource = source;
        lengthDeclared = true;
    }

    /** Declares the channel count a header promises (e.g. {@code @dimensions 6}) at {@code line}. */
    void expectChannels(int channels, String source, long line) throws DataFormatException {
        if (channels < 1) {
            throw new DataFormatException(file, line, source + ": the channel count must be at least 1");
        }
        expectedChannels = channels;
        channelSource = source;
    }

    int size() {
        return rows.size();
    }

    /** Adds one univariate series; see {@link #add(double[][], String, long)}. */
    void add(double[] row, String label, long line) throws DataFormatException {
        add(new double[][] {row}, label, line);
    }

    /**
     * Adds one series of C channels (each its own array of samples). Missing values arrive as {@code NaN} (only
     * when interpolation is on) and are filled here, channel by channel; the arrays are kept, not copied.
     */
    void add(double[][] channels, String label, long line) throws DataFormatException {
        if (expectedChannels < 0) {
            expectedChannels = channels.length;
            channelSource = "line " + line + " has " + channels.length;
        } else if (channels.length != expectedChannels) {
            throw new DataFormatException(
                    file, line, "line " + line + " has " + channels.length + " channels, " + channelSource);
        }
        int length = checkLength(channels, line);
        if (label.isEmpty() || Values.isMissingToken(label)) {
            throw new DataFormatException(
                    file, line, "the class label is missing" + (label.isEmpty() ? "" : " ('" + label + "')"));
        }
        if (knownClasses != null && !knownClasses.containsKey(label)) {
            throw new DataFormatException(
                    file,
                    line,
                    "label '" + label + "' does not occur in the training split (classes " + options.classes() + ")");
        }
        boolean rejected = options.bounds() != null && checkBounds(channels, line);
        if (options.interpolateMissing() || rejected) {
            for (double[] channel : channels) {
                interpolate(channel, line);
            }
        }
        if (rows.size() == lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        if (shortest < 0 || length < lengthOf(shortest)) {
            shortest = rows.size();
        }
        if (longest < 0 || length > lengthOf(longest)) {
            longest = rows.size();
        }
        lines[rows.size()] = line;
        rows.add(channels);
        labels.add(label);
    }

    /**
     * The series' length for the policy: its common length, or (truncate / pad-last) its shortest / longest channel.
     * A declared length is checked here, at the line, when the policy cannot reach it.
     */
    private int checkLength(double[][] channels, long line) throws DataFormatException {
        LengthPolicy policy = options.lengthPolicy();
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (double[] c : channels) {
            min = Math.min(min, c.length);
            max = Math.max(max, c.length);
        }
        String values = channels.length == 1 ? " values" : " values per channel";
        if (policy == LengthPolicy.REJECT) {
            if (min != max) {
                throw new DataFormatException(
                        file,
                        line,
                        "the channels of the series have " + min + " to " + max
                                + " values; choose --length-policy truncate or pad-last to make them equal");
            }
            if (lengthDeclared && min != expectedLength) {
                throw new DataFormatException(
                        file, line, "line " + line + " has " + min + values + ", " + expectedSource);
            }
            if (expectedLength < 0) {
                expectedLength = min;
                expectedSource = "line " + line + " has " + min;
            }
            return min;
        }
        if (policy == LengthPolicy.TRUNCATE && lengthDeclared && min < expectedLength) {
            throw new DataFormatException(
                    file,
                    line,
                    "line " + line + " has " + min + values + ", fewer than "
                            + expectedLength + " (" + expectedSource
                            + "); --length-policy truncate cannot lengthen a series,"
                            + " pad-last can");
        }
        if (min == 0) {
            throw new DataFormatException(file, line, "a channel of the series has no values");
        }
        return policy == LengthPolicy.TRUNCATE ? min : max;
    }

    private int lengthOf(int series) {
        double[][] channels = rows.get(series);
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (double[] c : channels) {
            min = Math.min(min, c.length);
            max = Math.max(max, c.length);
        }
        return options.lengthPolicy() == LengthPolicy.PAD_LAST ? max : min;
    }

    /**
     * Fills {@code NaN} gaps in place: linear interpolation between the nearest observed neighbours,
     * nearest observed value for leading and trailing gaps.
     */
    /**
     * Applies {@link ReadOptions#bounds} to one series: a value beyond them is reported (or, with no policy, an error)
     * naming line and column, then rejected (made missing), clipped or kept.
     *
     * @return whether a value was made missing
     */
    private boolean checkBounds(double[][] channels, long line) throws DataFormatException {
        ValueBounds b = options.bounds();
        boolean rejected = false;
        int c = channels.length;
        for (int ch = 0; ch < c; ch++) {
            double[] x = channels[ch];
            for (int t = 0; t < x.length; t++) {
                int i = t * c + ch;
                if (Double.isNaN(x[t]) || !b.outside(i, x[t])) {
                    continue;
                }
                String what = column(t, ch, c) + ": value " + x[t] + " lies beyond " + b.what();
                if (b.policy() == null) {
                    throw new DataFormatException(file, line, what);
                }
                String where = "line " + line + ", " + what;
                switch (b.policy()) {
                    case REJECT -> {
                        x[t] = Double.NaN;
                        rejected = true;
                        b.notice()
                                .accept(file + ": " + where + "; --out-of-range reject: treated as missing (filled by "
                                        + "linear interpolation between its neighbours)");
                    }
                    case CLIP -> {
                        x[t] = b.clip(i, x[t]);
                        b.notice().accept(file + ": " + where + "; --out-of-range clip: used at the bound " + x[t]);
                    }
                    default -> b.notice().accept(file + ": " + where + "; --out-of-range keep: used as it is");
                }
            }
        }
        return rejected;
    }

    /** Names the column of x(t) in a message: its 1-based field when the label is the first field, else t. */
    private String column(int t, int channel, int channels) {
        String name =
                file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        boolean labelFirst = channels == 1 && (name.endsWith(".tsv") || name.endsWith(".txt") || name.endsWith(".csv"));
        String t1 = "t=" + (t + 1) + (channels > 1 ? " channel " + channel : "");
        return labelFirst ? "column " + (t + 2) + " (" + t1 + ")" : t1;
    }

    private void interpolate(double[] row, long line) throws DataFormatException {
        int prev = -1;
        for (int t = 0; t < row.length; t++) {
            if (Double.isNaN(row[t])) {
                continue;
            }
            if (prev < 0) {
                Arrays.fill(row, 0, t, row[t]);
            } else if (t - prev > 1) {
                double step = (row[t] - row[prev]) / (t - prev);
                for (int k = prev + 1; k < t; k++) {
                    row[k] = row[prev] + step * (k - prev);
                }
            }
            prev = t;
        }
        if (prev < 0) {
            throw new DataFormatException(
                    file, line, "the series has no observed value (all " + row.length + " values missing)");
        }
        Arrays.fill(row, prev + 1, row.length, row[prev]);
    }

    /**
     * The dataset of everything added; an error when nothing was.
     *
     * @param labelColumn true when the label is just the first field of a line (UCR text formats), so a
     *     file whose first column holds series values instead of labels is recognised and reported
     */
    Dataset build(String name, String emptyReason, boolean labelColumn) throws DataFormatException {
        if (rows.isEmpty()) {
            throw new DataFormatException(file, 0, emptyReason);
        }
        double[][] values = interleave(targetLength());
        Dataset ds;
        if (knownClasses == null) {
            if (labelColumn) {
                checkLabelColumn();
            }
            ds = Dataset.of(name, values, labels.toArray(new String[0]));
        } else {
            int[] y = new int[values.length];
            for (int i = 0; i < y.length; i++) {
                y[i] = knownClasses.get(labels.get(i));
            }
            ds = Dataset.of(name, values, y, options.classes());
        }
        return expectedChannels == 1 ? ds : ds.withChannels(Dataset.defaultChannelNames(expectedChannels));
    }

    /**
     * The common length the series get: the declared or training length when there is one, else the shortest
     * (truncate) or longest (pad-last); under reject every series must already have it.
     */
    private int targetLength() throws DataFormatException {
        if (lengthDeclared) {
            return expectedLength;
        }
        int lo = lengthOf(shortest);
        int hi = lengthOf(longest);
        LengthPolicy policy = options.lengthPolicy();
        if (policy == LengthPolicy.TRUNCATE) {
            return lo;
        }
        if (policy == LengthPolicy.PAD_LAST || lo == hi) {
            return hi;
        }
        int first = lengthOf(0);
        int deviating = 1;
        while (lengthOf(deviating) == first) {
            deviating++;
        }
        String values = expectedChannels == 1 ? " values" : " values per channel";
        throw new DataFormatException(
                file,
                lines[deviating],
                "line " + lines[deviating] + " has " + lengthOf(deviating) + values + ", line " + lines[0] + " has "
                        + first + ": the series have unequal lengths (shortest " + lo + " at line " + lines[shortest]
                        + ", longest " + hi + " at line " + lines[longest] + "); choose --length-policy truncate or"
                        + " pad-last");
    }

    /** Each series cut or padded (last value repeated) to {@code d} samples per channel, in the time-major layout. */
    private double[][] interleave(int d) {
        double[][] out = new double[rows.size()][];
        for (int i = 0; i < out.length; i++) {
            double[][] channels = rows.get(i);
            int c = channels.length;
            if (c == 1 && channels[0].length == d) {
                out[i] = channels[0];
                continue;
            }
            double[] v = new double[c * d];
            for (int k = 0; k < c; k++) {
                double[] ch = channels[k];
                for (int t = 0; t < d; t++) {
                    v[t * c + k] = ch[Math.min(t, ch.length - 1)];
                }
            }
            out[i] = v;
        }
        return out;
    }

    /**
     * Class labels are categories; a first column of fractional numbers, nearly one per series, is a
     * series value and means the label column is missing.
     */
    private void checkLabelColumn() throws DataFormatException {
        int distinct = new HashSet<>(labels).size();
        if (2 * distinct <= labels.size()) {
            return;
        }
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            double v;
            try {
                v = Double.parseDouble(label);
            } catch (NumberFormatException e) {
                continue;
            }
            if (Double.isFinite(v) && v != Math.rint(v)) {
                throw new DataFormatException(
                        file,
                        lines[i],
                        "the first field '" + label + "' is not a class label (" + distinct + " distinct"
                                + " first fields among " + labels.size() + " series, some fractional): the"
                                + " label column is missing; each line must start with the class label");
            }
        }
    }
}
