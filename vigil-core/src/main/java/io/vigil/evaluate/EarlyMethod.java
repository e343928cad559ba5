package io.vigil.evaluate;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The early classifiers {@code vigil evaluate --method} compares: Vigil's reliable rule and the
 * baselines of {@link io.vigil.baseline}.
 */
public enum EarlyMethod {
    /** Vigil's reliable early decisions (thesis ch. 5). */
    VIGIL("vigil"),
    /** ECTS (Xing, Pei &amp; Yu 2012; thesis §5.5.1). */
    ECTS("ects"),
    /** Fixed-time local QDA in LDG space at one fraction of d. */
    FIXED_QDA("fixed-qda"),
    /** Fixed-time Euclidean 1-NN at one fraction of d. */
    FIXED_1NN("fixed-1nn"),
    /** TEASER (Schäfer &amp; Leser 2020) with 1-NN slaves. */
    TEASER("teaser");

    private final String cliName;

    EarlyMethod(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the command line and in JSON. */
    public String cliName() {
        return cliName;
    }

    /** All names, comma separated, for messages. */
    public static String names() {
        return Arrays.stream(values()).map(EarlyMethod::cliName).collect(Collectors.joining(", "));
    }

    /**
     * Parses a name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static EarlyMethod parse(String name) {
        String key = name.strip().toLowerCase(Locale.ROOT);
        for (EarlyMethod m : values()) {
            if (m.cliName.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown method '" + name + "'; expected one of: " + names());
    }
}
