package io.vigil.kafka;

import java.util.Objects;
import java.util.Optional;

/**
 * The id {@code vigil replay} gives a replayed series, used as Kafka key and as {@code series} in the value:
 * {@code DATASET/SPLIT/INDEX}, e.g. {@code CBF/test/17}, with {@code #REPETITION} appended when a split is
 * replayed more than once ({@code CBF/test/17#2} is the second pass). INDEX is the 0-based row of the series in
 * the split file, so a decision can be matched back to the offline evaluation of the same row.
 *
 * @param dataset dataset name; non-empty, without {@code /} or {@code #}
 * @param split split name (e.g. {@code test}); non-empty, without {@code /} or {@code #}
 * @param index 0-based row in the split
 * @param repetition 0 for a single pass (no suffix), else the 1-based pass number
 */
public record SeriesId(String dataset, String split, int index, int repetition) {
    /** Validates the parts so that {@link #toString()} and {@link #parse} are inverse. */
    public SeriesId {
        requirePart("dataset", dataset);
        requirePart("split", split);
        if (index < 0) {
            throw new IllegalArgumentException("series index must be >= 0, got " + index);
        }
        if (repetition < 0) {
            throw new IllegalArgumentException("repetition must be >= 0, got " + repetition);
        }
    }

    private static void requirePart(String what, String s) {
        Objects.requireNonNull(s, what);
        if (s.isEmpty() || s.indexOf('/') >= 0 || s.indexOf('#') >= 0) {
            throw new IllegalArgumentException(what + " '" + s + "' must be non-empty and contain neither / nor #");
        }
    }

    /**
     * Parses an id written by {@link #toString()}; empty for any other string (series ids from other producers
     * are free-form).
     */
    public static Optional<SeriesId> parse(String id) {
        if (id == null) {
            return Optional.empty();
        }
        String[] parts = id.split("/", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        String last = parts[2];
        int hash = last.indexOf('#');
        try {
            int index = Integer.parseInt(hash < 0 ? last : last.substring(0, hash));
            int repetition = hash < 0 ? 0 : Integer.parseInt(last.substring(hash + 1));
            if (hash >= 0 && repetition < 1) {
                return Optional.empty();
            }
            SeriesId parsed = new SeriesId(parts[0], parts[1], index, repetition);
            return parsed.toString().equals(id) ? Optional.of(parsed) : Optional.empty();
        } catch (IllegalArgumentException e) { // NumberFormatException included
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        String base = dataset + "/" + split + "/" + index;
        return repetition == 0 ? base : base + "#" + repetition;
    }
}
