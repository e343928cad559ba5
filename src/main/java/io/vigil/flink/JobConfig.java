package io.vigil.flink;

import io.vigil.early.DecisionParams;
import io.vigil.stream.SessionSettings;
import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
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
        String transactionalIdPrefix)
        implements Serializable {
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
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(delivery, "delivery");
        if (parallelism < 0) {
            throw new IllegalArgumentException("parallelism must be >= 1 (or 0 for the default), got " + parallelism);
        }
        Objects.requireNonNull(checkpointInterval, "checkpointInterval");
        if (checkpointInterval.toMillis() < 10) {
            throw new IllegalArgumentException("checkpoint interval must be at least 10 ms, got " + checkpointInterval);
        }
        kafkaProperties = Map.copyOf(new LinkedHashMap<>(kafkaProperties));
        requireText("group id", groupId);
        requireText("transactional id prefix", transactionalIdPrefix);
    }

    private static void requireText(String what, String s) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(what + " must be given");
        }
    }

    /** A configuration with defaults for everything but the endpoints and decision parameters. */
    public static JobConfig of(String bootstrap, String input, String output, String deadLetter, DecisionParams d) {
        return new JobConfig(
                bootstrap,
                input,
                output,
                deadLetter,
                d,
                SessionSettings.defaults(),
                Delivery.EXACTLY_ONCE,
                false,
                0,
                DEFAULT_CHECKPOINT_INTERVAL,
                Map.of(),
                "vigil-" + input,
                "vigil-" + output);
    }

    /** The same with another delivery guarantee. */
    public JobConfig withDelivery(Delivery d) {
        return toBuilder().delivery(d).build();
    }

    /** The same, bounded or not. */
    public JobConfig withBounded(boolean b) {
        return toBuilder().bounded(b).build();
    }

    /** The same with another parallelism. */
    public JobConfig withParallelism(int p) {
        return toBuilder().parallelism(p).build();
    }

    /** The same with another checkpoint interval. */
    public JobConfig withCheckpointInterval(Duration interval) {
        return toBuilder().checkpointInterval(interval).build();
    }

    /** The same with other session settings. */
    public JobConfig withSession(SessionSettings s) {
        return toBuilder().session(s).build();
    }

    /** The same with other Kafka client properties. */
    public JobConfig withKafkaProperties(Map<String, String> props) {
        return toBuilder().kafkaProperties(props).build();
    }

    /** The same with another consumer group and transactional id prefix. */
    public JobConfig withIds(String group, String txPrefix) {
        return toBuilder().groupId(group).transactionalIdPrefix(txPrefix).build();
    }

    /** The same with other endpoints. */
    public JobConfig withEndpoints(String servers, String in, String out, String dead) {
        return toBuilder()
                .bootstrap(servers)
                .input(in)
                .output(out)
                .deadLetter(dead)
                .build();
    }

    private Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable copy of every field, so each {@code with…} method changes one thing. */
    private static final class Builder {
        private String bootstrap;
        private String input;
        private String output;
        private String deadLetter;
        private final DecisionParams decision;
        private SessionSettings session;
        private Delivery delivery;
        private boolean bounded;
        private int parallelism;
        private Duration checkpointInterval;
        private Map<String, String> kafkaProperties;
        private String groupId;
        private String transactionalIdPrefix;

        Builder(JobConfig c) {
            bootstrap = c.bootstrap;
            input = c.input;
            output = c.output;
            deadLetter = c.deadLetter;
            decision = c.decision;
            session = c.session;
            delivery = c.delivery;
            bounded = c.bounded;
            parallelism = c.parallelism;
            checkpointInterval = c.checkpointInterval;
            kafkaProperties = c.kafkaProperties;
            groupId = c.groupId;
            transactionalIdPrefix = c.transactionalIdPrefix;
        }

        Builder bootstrap(String v) {
            bootstrap = v;
            return this;
        }

        Builder input(String v) {
            input = v;
            return this;
        }

        Builder output(String v) {
            output = v;
            return this;
        }

        Builder deadLetter(String v) {
            deadLetter = v;
            return this;
        }

        Builder session(SessionSettings v) {
            session = v;
            return this;
        }

        Builder delivery(Delivery v) {
            delivery = v;
            return this;
        }

        Builder bounded(boolean v) {
            bounded = v;
            return this;
        }

        Builder parallelism(int v) {
            parallelism = v;
            return this;
        }

        Builder checkpointInterval(Duration v) {
            checkpointInterval = v;
            return this;
        }

        Builder kafkaProperties(Map<String, String> v) {
            kafkaProperties = v;
            return this;
        }

        Builder groupId(String v) {
            groupId = v;
            return this;
        }

        Builder transactionalIdPrefix(String v) {
            transactionalIdPrefix = v;
            return this;
        }

        JobConfig build() {
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
                    transactionalIdPrefix);
        }
    }
}
