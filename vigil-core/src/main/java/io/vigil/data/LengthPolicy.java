package io.vigil.data;

import java.util.Locale;

/**
 * What a reader does when the series of a file (or a test split against its training split) have unequal lengths.
 * Every model works on series of one length d, so unequal lengths must be made equal, and how is a choice the user
 * states ({@code --length-policy}).
 */
public enum LengthPolicy {
    /** Unequal lengths are an error naming the shortest and the longest series (the default). */
    REJECT,
    /** Every series is cut to the shortest length (a test split: to the training split's length). */
    TRUNCATE,
    /**
     * Every series is extended to the longest length by repeating its last value, channel by channel. A test split
     * goes to the training split's length: shorter series are padded, longer ones cut (the model has no coordinates
     * beyond its length).
     */
    PAD_LAST;

    /** The name on the command line: {@code reject}, {@code truncate}, {@code pad-last}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a command-line name.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static LengthPolicy fromCliName(String s) {
        for (LengthPolicy p : values()) {
            if (p.cliName().equalsIgnoreCase(s.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException(
                "unknown length policy '" + s + "'; expected one of reject, truncate, pad-last");
    }
}
