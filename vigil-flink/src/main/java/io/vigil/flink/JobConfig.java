package io.vigil.flink;

import io.vigil.early.DecisionParams;
import io.vigil.stream.SessionSettings;
import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything {@link VigilJob} needs besides the model: where to read and write, how to decide ({@link
 * DecisionParams}, the same as {@code vigil evaluate}'s), how series arrive ({@link SessionSettings}), the
 * delivery guarantee, checkpointing and parallelism, and Kafka client properties passed through unchanged (so
 * SASL/SSL need no code).
 *
 * @param bootstrap Kafka bootstrap servers
 * @param input sample topic
 * @param output decisions topic
 * @param deadLetter dead-letter topic
 * @param decision decision parameters
 * @param session reorder window and idle timeout
 * @param delivery delivery guarantee of the outputs
 * @param bounded read the input up to the offsets current at start, then finish
 * @param parallelism job parallelism (0: the environment's default)
 * @param checkpointInterval checkpoint interval (exactly-once output becomes visible at checkpoints)
 * @param kafkaProperties client properties applied to the source and both sinks
 * @param groupId consumer group id (offsets are also committed there on checkpoints, for monitoring)
 * @param transactionalIdPrefix prefix of the sinks' transactional ids (made unique per sink)
 * @param deadLetterValueBytes bound on the copy of a rejected record's value in its dead letter
 * @param modelFeed the model topic to follow for hot swaps, or null to keep the initial model
 * @param truthTopic the topic of true labels ({@code vigil replay --truth-topic}) the decisions are compared with
 *     for the agreement metrics ({@link TruthAgreement}), or null for none
 * @param boundedEnd where a bounded run stops reading, per input partition: the end offsets snapshot taken when the
 *     run started (and committed to the group when it finishes); empty to stop at the end offsets the source finds
 * @param fromBeginning read the input from offset 0, ignoring the group's committed offsets ({@code
 *     --from-beginning})
 */
public record JobConfig(
        String bootstrap,
        String input,
        String output,
        String deadLetter,
        DecisionParams decision,
        SessionSettings session,
        Delivery delivery,
        boolean bounded,
        int parallelism,
        Duration checkpointInterval,
        Map<String, String> kafkaProperties,
        String groupId,
        String transactionalIdPrefix,
        int deadLetterValueBytes,
        ModelFeed modelFeed,
        String truthTopic,
        Map<Integer, Long> boundedEnd,
        boolean fromBeginning)
        implements Serializable {
    /** Largest allowed copy of a rejected value: twice it (text + Base64) stays well under Kafka's 1 MiB request. */
    public static final int MAX_DEAD_LETTER_VALUE_BYTES = 256 * 1024;

    /** Default checkpoint interval: exactly-once decisions become visible at most this long after they are made. */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(2);

    /** Validates and copies the properties. */
    public JobConfig {
        requireText("bootstrap", bootstrap);
        requireText("input topic", input);
        requireText("output topic", output);
        requireText("dead-letter topic", deadLetter);
        if (input.equals(output) || input.equals(deadLetter) || output.equals(deadLetter)) {
            throw new IllegalArgumentException("input, output and dead-letter topics must differ, got " + input + ", "
                    + output + ", " + deadLetter);
        }
        if (modelFeed != null && List.of(input, output, deadLetter).contains(modelFeed.topic())) {
            throw new IllegalArgumentException(
                    "the model topic must differ from the input, output and dead-letter topics, got "
                            + modelFeed.topic());
        }
        if (truthTopic != null
                && (truthTopic.isBlank()
                        || List.of(input, output, deadLetter).contains(truthTopic)
                        || (modelFeed != null && modelFeed.topic().equals(truthTopic)))) {
            throw new IllegalArgumentException(
                    "the truth topic must be non-blank and differ from the job's other topics, got '" + truthTopic
                            + "'");
        }
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(delivery, "delivery");
        if (parallelism < 0) {
            throw new IllegalArgumentException("parallelism must be >= 1 (or 0 for the default), got " + parallelism);
        }
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
        boundedEnd = Map.copyOf(Objects.requireNonNull(boundedEnd, "boundedEnd"));
        if (checkpointInterval.toMillis() < 10) {
            throw new IllegalArgumentException("checkpoint interval must be at least 10 ms, got " + checkpointInterval);
        }
        kafkaProperties = Map.copyOf(new LinkedHashMap<>(kafkaProperties));
        requireText("group id", groupId);
        requireText("transactional id prefix", transactionalIdPrefix);
        if (deadLetterValueBytes < 0 || deadLetterValueBytes > MAX_DEAD_LETTER_VALUE_BYTES) {
            throw new IllegalArgumentException("the dead-letter value copy must be 0.." + MAX_DEAD_LETTER_VALUE_BYTES
                    + " bytes (it is written twice and must fit Kafka's 1 MiB request), got " + deadLetterValueBytes);
        }
    }

    private static void requireText(String what, String s) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(what + " must be given");
        }
    }

    /**
     * A builder with defaults for everything but the endpoints and decision parameters: default session settings,
     * exactly-once, unbounded, the environment's parallelism, {@link #DEFAULT_CHECKPOINT_INTERVAL}, no extra Kafka
     * properties, group id {@code vigil-<input>} and transactional-id prefix {@code vigil-<output>}.
     */
    public static Builder builder(String bootstrap, String input, String output, String deadLetter, DecisionParams d) {
        Builder b = new Builder(d);
        b.bootstrap = bootstrap;
        b.input = input;
        b.output = output;
        b.deadLetter = deadLetter;
        b.groupId = "vigil-" + input;
        b.transactionalIdPrefix = "vigil-" + output;
        return b;
    }

    /**
     * The largest dead-letter record the job writes with this configuration: the bound of {@link
     * io.vigil.stream.StreamJson#maxDeadLetterBytes}, or of a record without its value copy when that bound exceeds
     * what the sink writes whole (such a record is shrunk).
     */
    public long maxDeadLetterRecordBytes() {
        long whole = io.vigil.stream.StreamJson.maxDeadLetterBytes(deadLetterValueBytes);
        return whole <= KafkaOutputs.DeadLetters.MAX_RECORD_BYTES
                ? whole
                : io.vigil.stream.StreamJson.maxDeadLetterBytes(0);
    }

    /** A builder preset with this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder(decision);
        b.bootstrap = bootstrap;
        b.input = input;
        b.output = output;
        b.deadLetter = deadLetter;
        b.session = session;
        b.delivery = delivery;
        b.bounded = bounded;
        b.parallelism = parallelism;
        b.checkpointInterval = checkpointInterval;
        b.kafkaProperties = kafkaProperties;
        b.groupId = groupId;
        b.transactionalIdPrefix = transactionalIdPrefix;
        b.deadLetterValueBytes = deadLetterValueBytes;
        b.modelFeed = modelFeed;
        b.truthTopic = truthTopic;
        b.boundedEnd = boundedEnd;
        b.fromBeginning = fromBeginning;
        return b;
    }

    /** Sets fields one at a time; {@link #build()} validates them together. */
    public static final class Builder {
        private String bootstrap;
        private String input;
        private String output;
        private String deadLetter;
        private final DecisionParams decision;
        private SessionSettings session = SessionSettings.defaults();
        private Delivery delivery = Delivery.EXACTLY_ONCE;
        private boolean bounded;
        private int parallelism;
        private Duration checkpointInterval = DEFAULT_CHECKPOINT_INTERVAL;
        private Map<String, String> kafkaProperties = Map.of();
        private String groupId;
        private Map<Integer, Long> boundedEnd = Map.of();
        private boolean fromBeginning;
        private String transactionalIdPrefix;
        private int deadLetterValueBytes = io.vigil.stream.StreamJson.DEFAULT_DEAD_LETTER_VALUE_BYTES;
        private ModelFeed modelFeed;
        private String truthTopic;

        private Builder(DecisionParams decision) {
            this.decision = decision;
        }

        public Builder bootstrap(String v) {
            bootstrap = v;
            return this;
        }

        public Builder input(String v) {
            input = v;
            return this;
        }

        public Builder output(String v) {
            output = v;
            return this;
        }

        public Builder deadLetter(String v) {
            deadLetter = v;
            return this;
        }

        public Builder session(SessionSettings v) {
            session = v;
            return this;
        }

        public Builder delivery(Delivery v) {
            delivery = v;
            return this;
        }

        public Builder bounded(boolean v) {
            bounded = v;
            return this;
        }

        public Builder parallelism(int v) {
            parallelism = v;
            return this;
        }

        public Builder checkpointInterval(Duration v) {
            checkpointInterval = v;
            return this;
        }

        public Builder kafkaProperties(Map<String, String> v) {
            kafkaProperties = v;
            return this;
        }

        /** Stopping offsets of a bounded run, per input partition (empty: the end offsets the source finds). */
        public Builder boundedEnd(Map<Integer, Long> v) {
            boundedEnd = v;
            return this;
        }

        /** Read the input from offset 0 instead of the group's committed offsets. */
        public Builder fromBeginning(boolean v) {
            fromBeginning = v;
            return this;
        }

        public Builder groupId(String v) {
            groupId = v;
            return this;
        }

        public Builder transactionalIdPrefix(String v) {
            transactionalIdPrefix = v;
            return this;
        }

        /** Bound on the copy of a rejected record's value in its dead letter. */
        public Builder deadLetterValueBytes(int v) {
            deadLetterValueBytes = v;
            return this;
        }

        /** The model topic to follow for hot swaps (null: none). */
        public Builder modelFeed(ModelFeed v) {
            modelFeed = v;
            return this;
        }

        /** The topic of true labels the decisions are compared with (null: none). */
        public Builder truthTopic(String v) {
            truthTopic = v;
            return this;
        }

        /**
         * The configuration.
         *
         * @throws IllegalArgumentException on a missing or invalid value
         */
        public JobConfig build() {
            return new JobConfig(
                    bootstrap,
                    input,
                    output,
                    deadLetter,
                    decision,
                    session,
                    delivery,
                    bounded,
                    parallelism,
                    checkpointInterval,
                    kafkaProperties,
                    groupId,
                    transactionalIdPrefix,
                    deadLetterValueBytes,
                    modelFeed,
                    truthTopic,
                    boundedEnd,
                    fromBeginning);
        }
    }
}
