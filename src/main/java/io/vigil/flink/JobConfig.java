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
        return new JobConfig(
                bootstrap,
                input,
                output,
                deadLetter,
                decision,
                session,
                d,
                bounded,
                parallelism,
                checkpointInterval,
                kafkaProperties,
                groupId,
                transactionalIdPrefix);
    }

    /** The same, bounded or not. */
    public JobConfig withBounded(boolean b) {
        return new JobConfig(
                bootstrap,
                input,
                output,
                deadLetter,
                decision,
                session,
                delivery,
                b,
                parallelism,
                checkpointInterval,
                kafkaProperties,
                groupId,
                transactionalIdPrefix);
    }

    /** The same with another parallelism. */
    public JobConfig withParallelism(int p) {
        return new JobConfig(
                bootstrap,
                input,
                output,
                deadLetter,
                decision,
                session,
                delivery,
                bounded,
                p,
                checkpointInterval,
                kafkaProperties,
                groupId,
                transactionalIdPrefix);
    }

    /** The same with another checkpoint interval. */
    public JobConfig withCheckpointInterval(Duration interval) {
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
                interval,
                kafkaProperties,
                groupId,
                transactionalIdPrefix);
    }

    /** The same with other session settings. */
    public JobConfig withSession(SessionSettings s) {
        return new JobConfig(
                bootstrap,
                input,
                output,
                deadLetter,
                decision,
                s,
                delivery,
                bounded,
                parallelism,
                checkpointInterval,
                kafkaProperties,
                groupId,
                transactionalIdPrefix);
    }

    /** The same with other Kafka client properties. */
    public JobConfig withKafkaProperties(Map<String, String> props) {
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
                props,
                groupId,
                transactionalIdPrefix);
    }

    /** The same with another consumer group and transactional id prefix. */
    public JobConfig withIds(String group, String txPrefix) {
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
                group,
                txPrefix);
    }
}
