package io.vigil.select;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable, strictly ascending grid of positive integers (neighbour counts searched by cross-validation).
 * Value semantics come from the record; {@link #toArray()} gives the primitive copy the search loops read.
 *
 * @param values the candidates, ascending, each ≥ 1, at least one
 */
public record IntGrid(List<Integer> values) {
    /** Validates and copies. */
    public IntGrid {
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the neighbour grid is empty");
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) < 1 || (i > 0 && values.get(i) <= values.get(i - 1))) {
                throw new IllegalArgumentException("the neighbour grid must be ascending and ≥ 1, got " + values);
            }
        }
    }

    /** The grid of these values. */
    public static IntGrid of(int... values) {
        List<Integer> list = new ArrayList<>(values.length);
        for (int v : values) {
            list.add(v);
        }
        return new IntGrid(list);
    }

    /** The candidates as a fresh array. */
    public int[] toArray() {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
