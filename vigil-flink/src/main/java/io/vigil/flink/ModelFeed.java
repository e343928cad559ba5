package io.vigil.flink;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Where a hot-swapping job reads models ({@code vigil run --model-topic}): the model topic and, per partition, the
 * offset to follow it from (the end offsets when the run read the topic's newest model before the job started, so
 * models already considered are not applied again). A job restored from a checkpoint resumes from the checkpointed
 * offsets instead.
 *
 * @param topic the model topic
 * @param startOffsets partition → first offset to read
 */
public record ModelFeed(String topic, Map<Integer, Long> startOffsets) implements Serializable {
    /** Validates and copies. */
    public ModelFeed {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("model topic must be given");
        }
        startOffsets = Map.copyOf(Objects.requireNonNull(startOffsets, "startOffsets"));
    }
}
