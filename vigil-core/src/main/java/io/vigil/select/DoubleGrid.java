package io.vigil.select;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable, strictly ascending grid of γ candidates in (0, 1] (thesis §3.5.2). Value semantics come from the
 * record; {@link #toArray()} gives the primitive copy the search loops read.
 *
 * @param values the candidates, ascending, each in (0, 1], at least one
 */
public record DoubleGrid(List<Double> values) {
    /** Validates and copies. */
    public DoubleGrid {
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the gamma grid is empty");
        }
        for (int i = 0; i < values.size(); i++) {
            double v = values.get(i);
            if (!(v > 0 && v <= 1) || (i > 0 && v <= values.get(i - 1))) {
                throw new IllegalArgumentException("the gamma grid must be ascending within (0, 1], got " + values);
            }
        }
    }

    /** The grid of these values. */
    public static DoubleGrid of(double... values) {
        List<Double> list = new ArrayList<>(values.length);
        for (double v : values) {
            list.add(v);
        }
        return new DoubleGrid(list);
    }

    /** The candidates as a fresh array. */
    public double[] toArray() {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
