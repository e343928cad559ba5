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
 * @param length when positive, the series length this file must have (the training split's length, so a
 *     mismatched test row is reported at its line); {@code 0} (the default) accepts the first row's length
 */
public record ReadOptions(boolean interpolateMissing, DataFormat format, List<String> classes, int length) {
    /** Missing values rejected, format detected, class list and length from the file. */
    public static final ReadOptions DEFAULT = new ReadOptions(false, null, null, 0);

    public ReadOptions {
        classes = classes == null ? null : List.copyOf(classes);
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0 (0 = any), got " + length);
        }
    }

    /** A copy with missing-value interpolation switched on or off. */
    public ReadOptions withInterpolateMissing(boolean interpolate) {
        return new ReadOptions(interpolate, format, classes, length);
    }

    /** A copy that reads the given format instead of detecting it ({@code null} = detect). */
    public ReadOptions withFormat(DataFormat f) {
        return new ReadOptions(interpolateMissing, f, classes, length);
    }

    /** A copy whose labels must come from {@code classList} ({@code null} = derive from the file). */
    public ReadOptions withClasses(List<String> classList) {
        return new ReadOptions(interpolateMissing, format, classList, length);
    }

    /** A copy whose series must have {@code d} values ({@code 0} = any). */
    public ReadOptions withLength(int d) {
        return new ReadOptions(interpolateMissing, format, classes, d);
    }
}
