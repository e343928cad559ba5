package io.vigil.data;

import java.nio.file.Path;

/**
 * Parses one numeric field without regular expressions (the readers see a million values per large
 * file) and turns every malformed value into a {@link DataFormatException} naming file, line, column and
 * the offending token.
 */
final class Values {
    /** Names a column for an error message; only called when a message is built. */
    @FunctionalInterface
    interface ColumnNamer {
        String name(int column);
    }

    private final Path file;
    private final boolean interpolateMissing;
    private final ColumnNamer namer;

    Values(Path file, boolean interpolateMissing, ColumnNamer namer) {
        this.file = file;
        this.interpolateMissing = interpolateMissing;
        this.namer = namer;
    }

    /** The message fragment every missing-value error ends with: how to opt in to interpolation. */
    static final String MISSING_HINT = "missing values are rejected unless --interpolate-missing is given"
            + " (it fills each gap by linear interpolation between the observed neighbours)";

    /**
     * The value of {@code line[start, end)} (surrounding blanks ignored), or {@code NaN} for a missing
     * value when interpolation is on.
     */
    double parse(String line, int start, int end, long lineNo, int column) throws DataFormatException {
        while (start < end && isBlank(line.charAt(start))) {
            start++;
        }
        while (end > start && isBlank(line.charAt(end - 1))) {
            end--;
        }
        if (start == end) {
            return missing(lineNo, column, "an empty field");
        }
        char last = line.charAt(end - 1);
        if ((last >= '0' && last <= '9') || last == '.') {
            char first = line.charAt(start);
            // Every decimal number starts with a digit, a sign or a dot; anything else cannot parse.
            if ((first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.') {
                try {
                    double v = Double.parseDouble(line.substring(start, end));
                    if (Double.isInfinite(v)) {
                        throw new DataFormatException(
                                file,
                                lineNo,
                                namer.name(column) + ": value '" + line.substring(start, end)
                                        + "' overflows to infinity; infinite values are not allowed");
                    }
                    return v;
                } catch (NumberFormatException e) {
                    // reported below as a non-numeric token
                }
            }
        }
        String token = line.substring(start, end);
        if (isMissingToken(token)) {
            return missing(lineNo, column, "'" + token + "'");
        }
        if (isInfinityToken(token)) {
            throw new DataFormatException(
                    file, lineNo, namer.name(column) + ": infinite value '" + token + "' is not allowed");
        }
        throw new DataFormatException(file, lineNo, namer.name(column) + ": '" + token + "' is not a number");
    }

    private double missing(long lineNo, int column, String what) throws DataFormatException {
        if (interpolateMissing) {
            return Double.NaN;
        }
        throw new DataFormatException(
                file, lineNo, namer.name(column) + ": missing value (" + what + "); " + MISSING_HINT);
    }

    static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\u00a0';
    }

    /** Whether a token is a finite or missing value, as {@link #parse} would read it (separator guessing). */
    static boolean isNumber(String token) {
        if (isMissingToken(token)) {
            return true;
        }
        try {
            return Double.isFinite(Double.parseDouble(token));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** {@code NaN} in any case, or {@code ?} (ARFF and {@code .ts} missing marker). */
    static boolean isMissingToken(String token) {
        return token.equals("?")
                || token.equalsIgnoreCase("nan")
                || token.equalsIgnoreCase("+nan")
                || token.equalsIgnoreCase("-nan");
    }

    static boolean isInfinityToken(String token) {
        String t = token.startsWith("+") || token.startsWith("-") ? token.substring(1) : token;
        return t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity");
    }
}
