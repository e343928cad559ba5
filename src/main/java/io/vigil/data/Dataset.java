package io.vigil.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An immutable set of equal-length labelled univariate series: the unit every reader returns and every
 * trainer consumes. Labels are kept as the exact strings of the file and mapped to class indices
 * {@code 0..G-1} in a stable order (numeric order when every label parses as a number, else
 * lexicographic), so output can always name the original label.
 */
public final class Dataset {
    private final String name;
    private final double[][] values;
    private final int[] classIndex;
    private final List<String> classNames;

    private Dataset(String name, double[][] values, int[] classIndex, List<String> classNames) {
        this.name = name;
        this.values = values;
        this.classIndex = classIndex;
        this.classNames = classNames;
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
        return new Dataset(name, copy, y.clone(), List.copyOf(classNames));
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

    /** Series length d. */
    public int length() {
        return values[0].length;
    }

    /** Number of classes G in the class list (including any absent from this split). */
    public int numClasses() {
        return classNames.size();
    }

    /** Class labels in index order, verbatim from the source. */
    public List<String> classNames() {
        return classNames;
    }

    /** Sample t (0-based) of series i. */
    public double value(int i, int t) {
        return values[i][t];
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
        return of(name, rows, y, classNames);
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
        return of(name, values, y, classes);
    }

    @Override
    public String toString() {
        return "Dataset[" + name + ", n=" + size() + ", d=" + length() + ", classes=" + classNames + "]";
    }
}
