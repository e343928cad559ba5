package io.vigil.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An immutable set of equal-length labelled series of C ≥ 1 channels: the unit every reader returns and every
 * trainer consumes. Labels are kept as the exact strings of the file and mapped to class indices
 * {@code 0..G-1} in a stable order (numeric order when every label parses as a number, else
 * lexicographic), so output can always name the original label.
 *
 * <p><b>Layout.</b> A series of C channels × d samples is one vector of C·d values, <em>time-major</em>: the
 * value of channel c at time t is at index {@code t·C + c}. A univariate series (C = 1) is its d samples as
 * before; a multichannel series whose channels arrive together is then a prefix of its vector at every time,
 * so the prefix machinery (standardisation, the tabulated conditional moments) serves it unchanged, and any
 * other arrival order is a subset of the same coordinates. {@link #length()} is the vector length C·d that
 * every model works with; {@link #seriesLength()} is d.
 */
public final class Dataset {
    private final String name;
    private final double[][] values;
    private final int[] classIndex;
    private final List<String> classNames;
    private final List<String> channelNames;
    /** The group (recording) of each series, or null: every series its own group. */
    private final int[] groups;

    private Dataset(
            String name,
            double[][] values,
            int[] classIndex,
            List<String> classNames,
            List<String> channelNames,
            int[] groups) {
        this.name = name;
        this.values = values;
        this.classIndex = classIndex;
        this.classNames = classNames;
        this.channelNames = channelNames;
        this.groups = groups;
    }

    /** The default channel names {@code 0..C-1} (a stream may address a channel by index or name). */
    public static List<String> defaultChannelNames(int channels) {
        List<String> out = new ArrayList<>(channels);
        for (int c = 0; c < channels; c++) {
            out.add(Integer.toString(c));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Builds a dataset from rows and their string labels, deriving the class order from the labels.
     *
     * @param name dataset name (used in messages and model files)
     * @param rows n series of equal length d ≥ 1; copied
     * @param labels n label strings, kept verbatim
     * @throws IllegalArgumentException on empty input, ragged rows or a label count mismatch
     */
    public static Dataset of(String name, double[][] rows, String[] labels) {
        Objects.requireNonNull(name, "name");
        if (rows.length != labels.length) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": " + rows.length + " rows but " + labels.length + " labels");
        }
        List<String> classes = orderClasses(Arrays.asList(labels));
        Map<String, Integer> index = new TreeMap<>();
        for (int g = 0; g < classes.size(); g++) {
            index.put(classes.get(g), g);
        }
        int[] y = new int[labels.length];
        for (int i = 0; i < labels.length; i++) {
            y[i] = index.get(labels[i]);
        }
        return of(name, rows, y, classes);
    }

    /**
     * Builds a dataset whose class list is given explicitly (e.g. a test split that must share the
     * training split's class indices).
     *
     * @param classNames class labels in index order; may contain classes absent from {@code y}
     */
    public static Dataset of(String name, double[][] rows, int[] y, List<String> classNames) {
        Objects.requireNonNull(name, "name");
        if (rows.length == 0) {
            throw new IllegalArgumentException("dataset " + name + " has no series");
        }
        if (rows.length != y.length) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": " + rows.length + " rows but " + y.length + " class indices");
        }
        int d = rows[0].length;
        if (d == 0) {
            throw new IllegalArgumentException("dataset " + name + ": series have length 0");
        }
        double[][] copy = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw new IllegalArgumentException("dataset " + name + ": series " + i + " has length " + rows[i].length
                        + ", series 0 has length " + d);
            }
            if (y[i] < 0 || y[i] >= classNames.size()) {
                throw new IllegalArgumentException("dataset " + name + ": series " + i + " has class index " + y[i]
                        + " outside 0.." + (classNames.size() - 1));
            }
            copy[i] = rows[i].clone();
        }
        return new Dataset(name, copy, y.clone(), List.copyOf(classNames), defaultChannelNames(1), null);
    }

    /**
     * This dataset with its vectors read as C = {@code channelNames.size()} channels in the time-major layout (see
     * the class comment).
     *
     * @throws IllegalArgumentException when C does not divide the vector length or names repeat
     */
    public Dataset withChannels(List<String> channelNames) {
        int c = channelNames.size();
        if (c < 1 || length() % c != 0) {
            throw new IllegalArgumentException("dataset " + name + ": " + length() + " values per series cannot be " + c
                    + " channels of equal length");
        }
        if (new LinkedHashSet<>(channelNames).size() != c) {
            throw new IllegalArgumentException("dataset " + name + ": channel names repeat: " + channelNames);
        }
        return new Dataset(name, values, classIndex, classNames, List.copyOf(channelNames), groups);
    }

    /**
     * This dataset with the series grouped, e.g. the windows of a window model by the recording they were cut from:
     * cross-validation then never puts one group on both sides of a fold ({@link Folds#groupedKFold}).
     *
     * @param groups the group of each series, ≥ 0; copied
     * @throws IllegalArgumentException when the count differs from the series count or a group is negative
     */
    public Dataset withGroups(int[] groups) {
        Objects.requireNonNull(groups, "groups");
        if (groups.length != values.length) {
            throw new IllegalArgumentException(
                    "dataset " + name + ": " + groups.length + " groups for " + values.length + " series");
        }
        for (int i = 0; i < groups.length; i++) {
            if (groups[i] < 0) {
                throw new IllegalArgumentException("dataset " + name + ": series " + i + " has group " + groups[i]);
            }
        }
        return new Dataset(name, values, classIndex, classNames, channelNames, groups.clone());
    }

    /** Whether the series carry groups ({@link #withGroups}); without them every series is its own group. */
    public boolean hasGroups() {
        return groups != null;
    }

    /** The group of each series (a copy), or null when the series carry none. */
    public int[] groups() {
        return groups == null ? null : groups.clone();
    }

    /**
     * The stable class order used everywhere: numeric when all labels parse as numbers, else lexicographic.
     */
    public static List<String> orderClasses(Iterable<String> labels) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        labels.forEach(distinct::add);
        List<String> out = new ArrayList<>(distinct);
        boolean numeric = out.stream().allMatch(Dataset::isNumber);
        Comparator<String> order = numeric
                ? Comparator.<String>comparingDouble(Double::parseDouble).thenComparing(Comparator.naturalOrder())
                : Comparator.naturalOrder();
        out.sort(order);
        return Collections.unmodifiableList(out);
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public String name() {
        return name;
    }

    /** Number of series n. */
    public int size() {
        return values.length;
    }

    /** Values per series, C·d (= the series length d when univariate); the length of every model's input vector. */
    public int length() {
        return values[0].length;
    }

    /** Number of channels C. */
    public int channels() {
        return channelNames.size();
    }

    /** Channel names in index order ({@code 0..C-1} unless the source named them). */
    public List<String> channelNames() {
        return channelNames;
    }

    /** Samples per channel d = {@link #length()} / C. */
    public int seriesLength() {
        return values[0].length / channelNames.size();
    }

    /** Number of classes G in the class list (including any absent from this split). */
    public int numClasses() {
        return classNames.size();
    }

    /** Class labels in index order, verbatim from the source. */
    public List<String> classNames() {
        return classNames;
    }

    /** Value k (0-based, in the time-major layout) of series i; sample k when univariate. */
    public double value(int i, int k) {
        return values[i][k];
    }

    /** The sample of channel c at time t of series i. */
    public double value(int i, int c, int t) {
        return values[i][t * channelNames.size() + c];
    }

    /** A copy of series i. */
    public double[] series(int i) {
        return values[i].clone();
    }

    /** A copy of all series as an n×d array. */
    public double[][] rows() {
        double[][] out = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i].clone();
        }
        return out;
    }

    /** Class index (0-based) of series i. */
    public int classOf(int i) {
        return classIndex[i];
    }

    /** A copy of all class indices. */
    public int[] classIndices() {
        return classIndex.clone();
    }

    /** Original label string of series i. */
    public String labelOf(int i) {
        return classNames.get(classIndex[i]);
    }

    /** Number of series per class index. */
    public int[] classCounts() {
        int[] counts = new int[classNames.size()];
        for (int g : classIndex) {
            counts[g]++;
        }
        return counts;
    }

    /** The subset of series at the given indices, keeping this dataset's class list. */
    public Dataset subset(int[] indices) {
        double[][] rows = new double[indices.length][];
        int[] y = new int[indices.length];
        for (int k = 0; k < indices.length; k++) {
            rows[k] = values[indices[k]];
            y[k] = classIndex[indices[k]];
        }
        Dataset out = of(name, rows, y, classNames).withChannels(channelNames);
        if (groups == null) {
            return out;
        }
        int[] g = new int[indices.length];
        for (int k = 0; k < indices.length; k++) {
            g[k] = groups[indices[k]];
        }
        return out.withGroups(g);
    }

    /** This dataset re-indexed to a (super)set of classes, e.g. a test split aligned to its training split. */
    public Dataset withClasses(List<String> classes) {
        Map<String, Integer> index = new TreeMap<>();
        for (int g = 0; g < classes.size(); g++) {
            index.put(classes.get(g), g);
        }
        int[] y = new int[classIndex.length];
        for (int i = 0; i < y.length; i++) {
            Integer g = index.get(labelOf(i));
            if (g == null) {
                throw new IllegalArgumentException("dataset " + name + ": label '" + labelOf(i) + "' of series " + i
                        + " is not among the classes " + classes);
            }
            y[i] = g;
        }
        Dataset out = of(name, values, y, classes).withChannels(channelNames);
        return groups == null ? out : out.withGroups(groups);
    }

    @Override
    public String toString() {
        String shape = channels() == 1 ? "d=" + length() : "C=" + channels() + ", d=" + seriesLength();
        return "Dataset[" + name + ", n=" + size() + ", " + shape + ", classes=" + classNames + "]";
    }

    /**
     * The series that repeat an earlier one exactly (same values, same class), each as {@code {i, j}}: series i
     * repeats series j &lt; i, the first of its kind. Exact repeats make leave-one-out scores optimistic (a left-out
     * series keeps its twin), which training reports.
     */
    public List<int[]> exactRepeats() {
        Map<List<Double>, Integer> first = new HashMap<>();
        List<int[]> repeats = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            double[] x = series(i);
            List<Double> key = new ArrayList<>(x.length + 1);
            for (double v : x) {
                key.add(v);
            }
            key.add((double) classOf(i));
            Integer j = first.putIfAbsent(key, i);
            if (j != null) {
                repeats.add(new int[] {i, j});
            }
        }
        return repeats;
    }
}
