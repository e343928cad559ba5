package io.vigil.kafka;

import io.vigil.kafka.KafkaPreflight.KafkaSetupException;
import io.vigil.util.Failures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The model topic of a hot-swapping stream job: a compacted topic of one partition whose records are whole model
 * files under one fixed key ({@value #KEY}), so compaction keeps the newest model. {@code vigil publish-model}
 * writes to it ({@link #prepare}, {@link #publish}); {@code vigil run --model-topic} reads what it holds before the
 * job starts ({@link #read}) and the job follows it from there.
 */
public final class ModelTopic {
    /** The key of every model record: one key, so compaction keeps only the newest model. */
    public static final String KEY = "vigil-model";

    /** Bytes a record adds to its value (key, headers, batch framing), with a margin. */
    static final long RECORD_OVERHEAD_BYTES = 16 * 1024;

    /** Smallest {@code max.message.bytes} given to a topic this class creates (Kafka's default, 1 MiB). */
    static final long MIN_MAX_MESSAGE_BYTES = 1024 * 1024;

    /** The producer's own bound on a send (Kafka's default {@code delivery.timeout.ms}). */
    private static final long DELIVERY_TIMEOUT_MS = 120_000;

    private ModelTopic() {}

    /** The {@code max.message.bytes} a topic needs for a model file of this many bytes. */
    public static long requiredMessageBytes(long modelBytes) {
        return modelBytes + RECORD_OVERHEAD_BYTES;
    }

    /**
     * Makes sure {@code topic} can take a model of {@code modelBytes}: creates it when missing (compacted, one
     * partition, {@code max.message.bytes} with room for a model twice this size); an existing topic must be
     * compacted and accept the record.
     *
     * @return true when the topic was created
     * @throws KafkaSetupException naming the topic and what is wrong with it
     */
    public static boolean prepare(KafkaPreflight kafka, String topic, long modelBytes) {
        long need = requiredMessageBytes(modelBytes);
        if (!kafka.topicExists(topic)) {
            long limit = Math.max(MIN_MAX_MESSAGE_BYTES, requiredMessageBytes(2 * modelBytes));
            boolean created = kafka.createTopic(
                    topic, Map.of("cleanup.policy", "compact", "max.message.bytes", Long.toString(limit)));
            if (created) {
                return true;
            }
        }
        String policy = kafka.topicConfig(topic, "cleanup.policy").orElse("compact");
        if (!List.of(policy.split(",")).contains("compact")) {
            throw new KafkaSetupException(
                    "topic '" + topic + "' has cleanup.policy=" + policy + "; a model topic must be compacted (one "
                            + "key, so the newest model is kept however old it is): use another topic, or set "
                            + "cleanup.policy=compact on it",
                    null);
        }
        OptionalLong limit = kafka.maxMessageBytes(topic);
        if (limit.isPresent() && limit.getAsLong() < need) {
            throw new KafkaSetupException(
                    "topic '" + topic + "' accepts records of at most " + limit.getAsLong()
                            + " bytes (max.message.bytes) but this model needs " + need
                            + "; raise the topic's max.message.bytes",
                    null);
        }
        return false;
    }

    /**
     * Writes a model file to the topic under {@link #KEY} and waits for the acknowledgement (idempotent producer,
     * acks=all, {@code max.request.size} sized for the model).
     *
     * @param properties client properties (security settings, ...); {@code bootstrap} wins over theirs
     * @throws KafkaSetupException when the write fails or times out, with the reason
     */
    public static RecordMetadata publish(
            String bootstrap, Map<String, ?> properties, String topic, byte[] model, Duration timeout) {
        Map<String, Object> p = new HashMap<>(properties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        long request = requiredMessageBytes(model.length);
        atLeast(p, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, request);
        atLeast(p, ProducerConfig.BUFFER_MEMORY_CONFIG, 2 * request);
        p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            return producer.send(new ProducerRecord<>(topic, KEY.getBytes(StandardCharsets.UTF_8), model))
                    .get(timeout.toMillis() + DELIVERY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new KafkaSetupException(
                    "writing the model to topic '" + topic + "' at " + bootstrap + " failed: "
                            + Failures.ownMessageOfRoot(e.getCause()),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaSetupException(
                    "writing the model to topic '" + topic + "' at " + bootstrap + " was not acknowledged in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaSetupException("interrupted while writing the model to '" + topic + "'", e);
        }
    }

    /** Raises an integer client setting to at least {@code min} (a larger value given by the user stays). */
    private static void atLeast(Map<String, Object> p, String key, long min) {
        Object given = p.get(key);
        long value = given == null ? 0 : Long.parseLong(String.valueOf(given).trim());
        long v = Math.min(Integer.MAX_VALUE, Math.max(value, min));
        p.put(key, key.equals(ProducerConfig.BUFFER_MEMORY_CONFIG) ? (Object) v : (Object) (int) v);
    }

    /**
     * Consumer settings for reading model records: a fetch takes a whole model file (the 1 MiB defaults make the
     * consumer fall back to slow oversized fetches for larger models).
     */
    public static final Map<String, String> CONSUMER_FETCH = Map.of(
            ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(64 << 20),
            ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(64 << 20),
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "16");

    /** A record of the model topic. */
    public record Entry(int partition, long offset, byte[] value) {}

    /**
     * What the topic holds now: its records in offset order per partition (tombstones left out), and the end
     * offsets they were read up to, from which the job follows the topic.
     */
    public record Contents(List<Entry> entries, Map<Integer, Long> endOffsets) {
        /** The newest record (the last one written, on the partition of the fixed key), or null when empty. */
        public Entry newest() {
            return entries.isEmpty() ? null : entries.get(entries.size() - 1);
        }
    }

    /**
     * Reads the whole topic from the beginning to the end offsets of this moment (no consumer group).
     *
     * @throws KafkaSetupException when the topic does not exist or cannot be read within {@code timeout}
     */
    public static Contents read(String bootstrap, Map<String, ?> properties, String topic, Duration timeout) {
        Map<String, Object> p = new HashMap<>(properties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        p.putAll(CONSUMER_FETCH);
        p.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new KafkaSetupException(
                        "model topic '" + topic + "' does not exist at " + bootstrap
                                + " (publish a model with `vigil publish-model`)",
                        null);
            }
            List<TopicPartition> parts = infos.stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
            List<Entry> entries = new ArrayList<>();
            while (parts.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new KafkaSetupException(
                            "reading model topic '" + topic + "' at " + bootstrap + " took longer than "
                                    + timeout.toSeconds() + " s",
                            null);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null && r.offset() < end.get(new TopicPartition(topic, r.partition()))) {
                        entries.add(new Entry(r.partition(), r.offset(), r.value()));
                    }
                }
            }
            Map<Integer, Long> ends = new HashMap<>();
            end.forEach((tp, o) -> ends.put(tp.partition(), o));
            return new Contents(List.copyOf(entries), Map.copyOf(ends));
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new KafkaSetupException(
                    "cannot read model topic '" + topic + "' at " + bootstrap + ": " + Failures.ownMessageOfRoot(e), e);
        }
    }
}
