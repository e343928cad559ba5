package io.vigil.flink.cli;

import io.vigil.flink.JobConfig;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.KafkaPreflight.KafkaSetupException;
import io.vigil.stream.StreamJson;
import java.time.Duration;
import java.util.OptionalLong;
import picocli.CommandLine;

/** {@code vigil run}'s check of Kafka before the job starts ({@link KafkaPreflight}), each failure in one line. */
final class RunPreflight {
    private RunPreflight() {}

    /**
     * Checks Kafka before the job starts: a broker answers, the input topic exists (an unbounded job waits for
     * it, saying so once), and the output topics exist (or the brokers create them on first use) and accept the
     * largest record the job writes to them.
     *
     * @throws KafkaSetupException with the one line to show (exit 1)
     */
    static void preflight(CommandLine cl, JobConfig cfg, Duration timeout) throws InterruptedException {
        try (KafkaPreflight kafka = KafkaPreflight.connect(cfg.bootstrap(), cfg.kafkaProperties(), timeout)) {
            if (!kafka.topicExists(cfg.input())) {
                if (cfg.bounded()) {
                    throw new KafkaSetupException(
                            "input topic '" + cfg.input() + "' does not exist at " + cfg.bootstrap()
                                    + " (a --bounded run reads what is there; check --input)",
                            null);
                }
                kafka.awaitTopic(cfg.input(), () -> {
                    cl.getErr()
                            .println("vigil run: input topic '" + cfg.input() + "' does not exist yet at "
                                    + cfg.bootstrap() + "; waiting for it (checked every "
                                    + KafkaPreflight.POLL_SECONDS + " s, Ctrl-C to stop)");
                    cl.getErr().flush();
                });
            }
            if (cfg.truthTopic() != null && !kafka.topicExists(cfg.truthTopic())) {
                throw new KafkaSetupException(
                        "truth topic '" + cfg.truthTopic() + "' does not exist at " + cfg.bootstrap()
                                + " (vigil replay --truth-topic writes it; check --truth-topic)",
                        null);
            }
            checkOutputTopic(kafka, cfg, cfg.output(), StreamJson.MAX_DECISION_BYTES, "decisions", null);
            checkOutputTopic(
                    kafka,
                    cfg,
                    cfg.deadLetter(),
                    cfg.maxDeadLetterRecordBytes(),
                    "dead letters",
                    "or lower --dead-letter-max-bytes (now " + cfg.deadLetterValueBytes() + ")");
        }
    }

    /** Bytes of key, headers and batch framing a record adds to its value, at most (series keys ≤ 1,024 bytes). */
    private static final long RECORD_OVERHEAD_BYTES = 2 * 1024;

    /**
     * An output topic must exist or be created by the brokers on first use, and accept the largest record the job
     * writes to it: a topic whose {@code max.message.bytes} is smaller fails the sink on every attempt, which no
     * restart can fix.
     */
    private static void checkOutputTopic(
            KafkaPreflight kafka, JobConfig cfg, String topic, long largestValue, String what, String alternative) {
        if (!kafka.topicExists(topic)) {
            if (!kafka.brokersCreateTopics()) {
                throw new KafkaSetupException(
                        "topic '" + topic + "' does not exist at " + cfg.bootstrap()
                                + " and the brokers do not create topics on first use"
                                + " (auto.create.topics.enable=false); create it first",
                        null);
            }
            return;
        }
        OptionalLong limit = kafka.maxMessageBytes(topic);
        long need = largestValue + RECORD_OVERHEAD_BYTES;
        if (limit.isPresent() && limit.getAsLong() < need) {
            throw new KafkaSetupException(
                    "topic '" + topic + "' accepts records of at most " + limit.getAsLong()
                            + " bytes (max.message.bytes) but " + what + " can take up to " + need
                            + " bytes; raise the topic's max.message.bytes"
                            + (alternative == null ? "" : " " + alternative),
                    null);
        }
    }
}
