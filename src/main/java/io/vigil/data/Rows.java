package io.vigil.data;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Collects the parsed series of one file with the line each came from, checks them as they arrive (equal
 * length, a label present, a label known to the training split) and fills missing values when asked, so
 * every error can name the line it concerns.
 */
final class Rows {
    private final Path file;
    private final ReadOptions options;
    private final Map<String, Integer> knownClasses;
    private final List<double[]> rows = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private long[] lines = new long[64];
    private int expectedLength = -1;
    private String expectedSource;

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
    }

    int size() {
        return rows.size();
    }

    /**
     * Adds one series. Missing values arrive as {@code NaN} (only when interpolation is on) and are
     * filled here; {@code row} is kept, not copied.
     */
    void add(double[] row, String label, long line) throws DataFormatException {
        if (expectedLength < 0) {
            expectedLength = row.length;
            expectedSource = "line " + line + " has " + row.length;
        } else if (row.length != expectedLength) {
            throw new DataFormatException(
                    file, line, "line " + line + " has " + row.length + " values, " + expectedSource);
        }
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
        if (options.interpolateMissing()) {
            interpolate(row, line);
        }
        if (rows.size() == lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        lines[rows.size()] = line;
        rows.add(row);
        labels.add(label);
    }

    /**
     * Fills {@code NaN} gaps in place: linear interpolation between the nearest observed neighbours,
     * nearest observed value for leading and trailing gaps.
     */
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
        double[][] values = rows.toArray(new double[0][]);
        if (knownClasses == null) {
            if (labelColumn) {
                checkLabelColumn();
            }
            return Dataset.of(name, values, labels.toArray(new String[0]));
        }
        int[] y = new int[values.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = knownClasses.get(labels.get(i));
        }
        return Dataset.of(name, values, y, options.classes());
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
