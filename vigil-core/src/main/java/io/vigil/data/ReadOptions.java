package io.vigil.data;

import java.util.List;

/**
 * How {@link DatasetReader} reads one file.
 *
 * @param interpolateMissing when false (the default) a missing value ({@code NaN}, {@code nan}, {@code ?},
 *     an empty field) is an error; when true gaps are filled by linear interpolation between the observed
 *     neighbours and leading/trailing gaps take the nearest observed value (a series with no observed value
 *     is still an error)
 * @param format the format to read, or {@code null} (the default) to detect it from the file name and,
 *     when the name is ambiguous, from the content
 * @param classes when non-null, the class list of the split this file must agree with (a test split
 *     read against its training split): a label not in the list is an error naming the label and line,
 *     and the returned dataset uses exactly this class list; {@code null} (the default) derives the class
 *     list from the labels found
 * @param length when positive, the samples per channel this file must have (the training split's length, so a
 *     mismatched test row is reported at its line, or so the length policy cuts or pads to it); {@code 0} (the
 *     default) takes the length from the file
 * @param lengthPolicy what to do with series of unequal lengths ({@link LengthPolicy#REJECT} by default)
 * @param bounds the bounds values are checked against ({@link ValueBounds}), or {@code null} (the default) for none
 */
public record ReadOptions(
        boolean interpolateMissing,
        DataFormat format,
        List<String> classes,
        int length,
        LengthPolicy lengthPolicy,
        ValueBounds bounds) {
    /** Missing values rejected, format detected, class list and length from the file, unequal lengths rejected. */
    public static final ReadOptions DEFAULT = new ReadOptions(false, null, null, 0, LengthPolicy.REJECT, null);

    /** Options without value bounds. */
    public ReadOptions(
            boolean interpolateMissing,
            DataFormat format,
            List<String> classes,
            int length,
            LengthPolicy lengthPolicy) {
        this(interpolateMissing, format, classes, length, lengthPolicy, null);
    }

    public ReadOptions {
        classes = classes == null ? null : List.copyOf(classes);
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0 (0 = any), got " + length);
        }
        if (lengthPolicy == null) {
            throw new IllegalArgumentException("lengthPolicy is required");
        }
    }

    /** A copy with the given policy for unequal lengths. */
    public ReadOptions withLengthPolicy(LengthPolicy policy) {
        return new ReadOptions(interpolateMissing, format, classes, length, policy, bounds);
    }

    /** A copy with missing-value interpolation switched on or off. */
    public ReadOptions withInterpolateMissing(boolean interpolate) {
        return new ReadOptions(interpolate, format, classes, length, lengthPolicy, bounds);
    }

    /** A copy that reads the given format instead of detecting it ({@code null} = detect). */
    public ReadOptions withFormat(DataFormat f) {
        return new ReadOptions(interpolateMissing, f, classes, length, lengthPolicy, bounds);
    }

    /** A copy whose labels must come from {@code classList} ({@code null} = derive from the file). */
    public ReadOptions withClasses(List<String> classList) {
        return new ReadOptions(interpolateMissing, format, classList, length, lengthPolicy, bounds);
    }

    /** A copy whose series must have {@code d} values ({@code 0} = any). */
    public ReadOptions withLength(int d) {
        return new ReadOptions(interpolateMissing, format, classes, d, lengthPolicy, bounds);
    }

    /** A copy whose values are checked against {@code b} ({@code null} = unchecked). */
    public ReadOptions withBounds(ValueBounds b) {
        return new ReadOptions(interpolateMissing, format, classes, length, lengthPolicy, b);
    }
}
