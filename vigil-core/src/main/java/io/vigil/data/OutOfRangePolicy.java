package io.vigil.data;

import java.util.Locale;

/**
 * What happens to a value beyond the range guard ({@code io.vigil.early.RangeGuard}: ±K training standard deviations at its t) before it reaches
 * the classifier. A finite but extreme value (1e308) overflows the squared Mahalanobis terms of the rule to ∞ and
 * then NaN, so the default keeps such values out of the arithmetic instead of trusting it to survive them.
 */
public enum OutOfRangePolicy {
    /**
     * The value is not used: in a stream it is dead-lettered with reason {@code out_of_range} and the series goes on
     * with that value missing (the any-order conditioning of docs/method.md §7); offline it is a missing value.
     */
    REJECT,
    /** The value is replaced by the nearer guard bound, mean ± K·sd at its t. */
    CLIP,
    /** The value is used as it is (the record is still marked {@code out_of_range}). */
    KEEP;

    /** The default of {@code --out-of-range}. */
    public static final OutOfRangePolicy DEFAULT = REJECT;

    /** The CLI spelling: {@code reject}, {@code clip} or {@code keep}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses the CLI spelling.
     *
     * @throws IllegalArgumentException naming the valid values
     */
    public static OutOfRangePolicy parse(String text) {
        for (OutOfRangePolicy p : values()) {
            if (p.cliName().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown out-of-range policy '" + text + "'; use reject, clip or keep");
    }
}
