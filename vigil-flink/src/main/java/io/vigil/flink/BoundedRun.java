package io.vigil.flink;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The bounded run of a state directory ({@value StateDirectory#BOUNDED_RUN}): which input and consumer group it
 * read, the end offsets snapshot it reads up to (taken when it started, so a resumed run stops where the first
 * attempt would have), and when it finished. A finished run has committed exactly those offsets to its group, so
 * the next identical run starts where it ended; its checkpoints are never resumed.
 *
 * @param input the input topic
 * @param groupId the consumer group the offsets are committed to
 * @param endOffsets the end offsets snapshot, keyed by partition
 * @param startedAt when the run took the snapshot (ISO-8601)
 * @param finishedAt when the run finished and committed the snapshot (ISO-8601), or null while it has not
 */
public record BoundedRun(
        String input, String groupId, Map<Integer, Long> endOffsets, String startedAt, String finishedAt) {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Validates and copies the offsets (sorted by partition). */
    public BoundedRun {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(startedAt, "startedAt");
        endOffsets = java.util.Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(endOffsets)));
    }

    /** Whether the run finished (and committed its end offsets). */
    public boolean finished() {
        return finishedAt != null;
    }

    /** This run, finished at {@code when}. */
    public BoundedRun finishedAt(String when) {
        return new BoundedRun(input, groupId, endOffsets, startedAt, when);
    }

    /** Whether this run read {@code input} under {@code groupId}. */
    public boolean reads(String input, String groupId) {
        return this.input.equals(input) && this.groupId.equals(groupId);
    }

    /** Offsets in words: {@code partition 0: 4140, partition 1: 4140}. */
    public static String describe(Map<Integer, Long> offsets) {
        return offsets.isEmpty()
                ? "no partitions"
                : new TreeMap<>(offsets)
                        .entrySet().stream()
                                .map(e -> "partition " + e.getKey() + ": " + e.getValue())
                                .collect(Collectors.joining(", "));
    }

    /** The record as JSON text. */
    public byte[] toJson() {
        try {
            return MAPPER.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the bounded run", e);
        }
    }

    /**
     * Reads a record.
     *
     * @param what names the file in errors
     * @throws IOException when it is not one, saying why
     */
    public static BoundedRun fromJson(byte[] json, String what) throws IOException {
        try {
            return MAPPER.readValue(json, BoundedRun.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(
                    what + ": not a Vigil bounded-run record ("
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")",
                    e);
        }
    }
}
