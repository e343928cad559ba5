package io.vigil.kafka;

import java.util.Locale;
import java.util.Objects;

/**
 * The outcome of decoding one Kafka record: the decoded value, or the precise reason it was rejected. Decoders
 * return this instead of throwing, so a stream processor can route a bad record to a dead-letter topic with its
 * reason and carry on; nothing is thrown across the stream for bad input.
 *
 * @param <T> the decoded type
 */
public sealed interface Decoded<T> permits Decoded.Ok, Decoded.Rejected {

    /** Why a record was rejected; {@link #code()} is the stable string written to dead-letter records. */
    enum Problem {
        /** The record has no value, or a zero-length one. */
        EMPTY_VALUE,
        /** The value is not well-formed JSON (syntax error, bad encoding, trailing data, duplicate field). */
        UNPARSEABLE_JSON,
        /** The value is JSON but not an object. */
        NOT_AN_OBJECT,
        /** A required field is absent. */
        MISSING_FIELD,
        /** A field has the wrong JSON type (e.g. a string value, a fractional t, an empty series id). */
        WRONG_TYPE,
        /** The sample value is NaN or infinite (written as NaN/Infinity, or a number beyond double range). */
        NON_FINITE_VALUE,
        /** The time index t is below 1 (t is 1-based). */
        T_BELOW_ONE,
        /** The record key is not the series id in the value. */
        KEY_MISMATCH,
        /** The series id is longer than {@link SampleRecord#MAX_SERIES_BYTES} UTF-8 bytes. */
        SERIES_TOO_LONG;

        /** Lower-case name, e.g. {@code non_finite_value}: stable across releases, safe in JSON and metrics. */
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** True when a value was decoded. */
    boolean isOk();

    /**
     * The decoded value.
     *
     * @throws IllegalStateException when the record was rejected
     */
    T value();

    /** A successfully decoded value. */
    record Ok<T>(T value) implements Decoded<T> {
        /** Requires a value. */
        public Ok {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean isOk() {
            return true;
        }
    }

    /**
     * A rejected record.
     *
     * @param problem the class of problem
     * @param detail a one-line human-readable explanation naming the field and what was found
     * @param t the record's time index when it could be read, else 0
     */
    record Rejected<T>(Problem problem, String detail, int t) implements Decoded<T> {
        /** Requires both parts. */
        public Rejected {
            Objects.requireNonNull(problem, "problem");
            Objects.requireNonNull(detail, "detail");
        }

        /** A rejection before any time index could be read. */
        public Rejected(Problem problem, String detail) {
            this(problem, detail, 0);
        }

        @Override
        public boolean isOk() {
            return false;
        }

        @Override
        public T value() {
            throw new IllegalStateException("record was rejected (" + problem.code() + "): " + detail);
        }
    }
}
