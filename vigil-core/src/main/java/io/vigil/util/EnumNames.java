package io.vigil.util;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Parses the stable external names of enum constants (command-line values, model-file ids): trimmed,
 * case-insensitive, and an unknown name is an error that lists every valid one. Enums are persisted and
 * parsed by these names, never by ordinal (docs/data-and-training.md, "Model files").
 */
public final class EnumNames {
    private EnumNames() {}

    /**
     * The constant of {@code type} whose external name is {@code text}.
     *
     * @param nameOf the constant's external name (lower case)
     * @param what what the value is, for the message ("classifier", "shrinkage method" …)
     * @throws IllegalArgumentException {@code unknown <what> '<text>'; expected one of a, b, …}
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String text, Function<E, String> nameOf, String what) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (E e : type.getEnumConstants()) {
            if (nameOf.apply(e).equals(key)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + text + "'; expected one of "
                + Arrays.stream(type.getEnumConstants()).map(nameOf).collect(Collectors.joining(", ")));
    }
}
