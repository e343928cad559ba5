package io.vigil.watch;

/**
 * When a key may raise a new alarm for a class after an alarm for it (docs/watch.md). Every policy first merges a
 * decision whose window overlaps an open alarm's windows into that alarm; they differ in what happens to a decision of
 * the same class whose window does not overlap them:
 *
 * <ul>
 *   <li>{@link #WINDOWS_CLOSED} (the default): it is merged too, as long as a window that overlaps the alarm's windows
 *       is still open — the key re-arms for the class once every such window has closed, so one event gives one alarm
 *       however long the event class keeps being decided;
 *   <li>{@link #IMMEDIATE}: it raises a new alarm (merging by overlap only);
 *   <li>{@link #refractory(long) refractory:N}: it is merged (or, after the alarm's windows have closed, dropped) until
 *       N samples after the alarm's trigger, and raises a new alarm after that.
 * </ul>
 *
 * <p>The text form ({@link #toString()}, {@link #parse}) is the model file's {@code window.rearm} and the flag's value:
 * {@code windows-closed}, {@code immediate}, {@code refractory:N}.
 *
 * @param kind the policy
 * @param samples the refractory period N ≥ 1 for {@link Kind#REFRACTORY}, else 0
 */
public record RearmPolicy(Kind kind, long samples) {
    /** Re-arm when every window that overlapped the event has closed. */
    public static final RearmPolicy WINDOWS_CLOSED = new RearmPolicy(Kind.WINDOWS_CLOSED, 0);

    /** Re-arm at once: only windows overlapping the alarm's windows are merged. */
    public static final RearmPolicy IMMEDIATE = new RearmPolicy(Kind.IMMEDIATE, 0);

    /** The three policies. */
    public enum Kind {
        /** {@link RearmPolicy#WINDOWS_CLOSED}. */
        WINDOWS_CLOSED,
        /** {@link RearmPolicy#IMMEDIATE}. */
        IMMEDIATE,
        /** {@link RearmPolicy#refractory(long)}. */
        REFRACTORY
    }

    /** Validates. */
    public RearmPolicy {
        if (kind == null) {
            throw new IllegalArgumentException("re-arm policy kind is null");
        }
        if (kind == Kind.REFRACTORY ? samples < 1 : samples != 0) {
            throw new IllegalArgumentException(
                    "a refractory period must be ≥ 1 sample and only a refractory policy has one; got " + kind + " "
                            + samples);
        }
    }

    /** Re-arm {@code samples} ≥ 1 samples after an alarm's trigger. */
    public static RearmPolicy refractory(long samples) {
        return new RearmPolicy(Kind.REFRACTORY, samples);
    }

    /**
     * Parses the text form.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static RearmPolicy parse(String text) {
        if ("windows-closed".equals(text)) {
            return WINDOWS_CLOSED;
        }
        if ("immediate".equals(text)) {
            return IMMEDIATE;
        }
        if (text != null && text.matches("refractory:[1-9][0-9]{0,17}")) {
            return refractory(Long.parseLong(text.substring("refractory:".length())));
        }
        throw new IllegalArgumentException(
                "re-arm policy must be windows-closed, immediate or refractory:N (N ≥ 1), got '" + text + "'");
    }

    @Override
    public String toString() {
        return switch (kind) {
            case WINDOWS_CLOSED -> "windows-closed";
            case IMMEDIATE -> "immediate";
            case REFRACTORY -> "refractory:" + samples;
        };
    }
}
