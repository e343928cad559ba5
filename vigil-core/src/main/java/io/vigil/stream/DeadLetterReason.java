package io.vigil.stream;

import java.util.Locale;

/**
 * Why a sample went to the dead-letter output instead of a series. {@link #code()} is the stable string written
 * in dead-letter records and used as the metric name suffix; codes are never renamed.
 */
public enum DeadLetterReason {
    /** The record has no value. */
    EMPTY_VALUE,
    /** The value is not well-formed JSON. */
    UNPARSEABLE_JSON,
    /** The value is JSON but not an object. */
    NOT_AN_OBJECT,
    /** {@code series} or {@code value} is absent. */
    MISSING_FIELD,
    /** A field has the wrong JSON type. */
    WRONG_TYPE,
    /** The value is NaN or infinite. */
    NON_FINITE_VALUE,
    /** t &lt; 1 (t is 1-based). */
    T_BELOW_ONE,
    /** The record key is not the series id in the value. */
    KEY_MISMATCH,
    /** The series id is longer than the job accepts (1,024 UTF-8 bytes). */
    SERIES_TOO_LONG,
    /** t exceeds the model's series length d. */
    T_BEYOND_LENGTH,
    /** The record names a channel the model does not have (by index beyond C − 1, or by an unknown name). */
    UNKNOWN_CHANNEL,
    /** A sample with this t was already seen for the series (consumed or waiting in the reorder buffer). */
    DUPLICATE,
    /** t is further ahead of the next expected sample than the reorder buffer holds. */
    GAP_BEYOND_BUFFER,
    /**
     * Buffered when its series expired although the series never began (t = 1 never arrived): typically a
     * sample that arrived after its series had completed or expired.
     */
    LATE_SAMPLE,
    /** Buffered when its series expired waiting for an earlier sample that never arrived. */
    GAP_UNFILLED,
    /**
     * Processing the sample failed unexpectedly (e.g. restored state that does not fit the model); the series ends
     * with one {@code "status":"error"} record naming the reason, its later samples are ignored up to t = d, and the
     * job carries on.
     */
    PROCESSING_ERROR,
    /**
     * The value lies beyond the range guard (±K training standard deviations at its t) under {@code --out-of-range
     * reject}: it is not used and the series goes on with that value missing.
     */
    OUT_OF_RANGE,
    /**
     * Watch mode: a value of a sample whose windows have all closed (its index lies a window length or more behind
     * the key's newest sample, or before a timeout restarted the key's windows), so no window can use it.
     */
    LATE_VALUE,
    /**
     * Watch mode: not an input record but an alarm the flood guard held back (more alarms of the key in one minute
     * than {@code --max-alarms-per-minute}); the dead letter carries the alarm record.
     */
    ALARM_FLOOD;

    /** Lower-case name, e.g. {@code gap_beyond_buffer}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
