package io.vigil.kafka;

import io.vigil.util.Failures;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Checks, before a job or a replay starts, that Kafka is usable with the user's client settings: the client can
 * be built (a malformed JAAS line or a missing truststore is reported as such, in one line), a broker answers
 * within a bounded time, and the topics exist. Errors no retry can fix are found here, in seconds, instead of in a
 * job that would restart forever.
 *
 * <p>Every failure is a {@link KafkaSetupException} whose message is one line naming the bootstrap servers and
 * the root cause; nothing is retried beyond {@link #timeout}.
 */
public final class KafkaPreflight implements AutoCloseable {
    /** Default bound on every check (the Admin client's API timeout). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    /** How often {@link #awaitTopic} asks again (seconds). */
    public static final long POLL_SECONDS = 2;

    /** A Kafka set-up error: the message is the one line to show. */
    public static final class KafkaSetupException extends RuntimeException implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        /** An error with its one-line message and, for debugging, its cause (may be null). */
        public KafkaSetupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Admin admin;
    private final String bootstrap;
    private final Duration timeout;

    private KafkaPreflight(Admin admin, String bootstrap, Duration timeout) {
        this.admin = admin;
        this.bootstrap = bootstrap;
        this.timeout = timeout;
    }

    /**
     * Builds an Admin client from the user's properties and checks that a broker answers.
     *
     * @param bootstrap bootstrap servers (win over {@code bootstrap.servers} in {@code properties})
     * @param properties client properties (security settings, …) as given to the job or replay
     * @throws KafkaSetupException when the client cannot be built or no broker answers within {@code timeout}
     */
    public static KafkaPreflight connect(String bootstrap, Map<String, ?> properties, Duration timeout) {
        Map<String, Object> p = new HashMap<>();
        properties.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) { // producer/consumer-only keys would only be warned
                p.put(k, v);
            }
        });
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(ms, 10_000));
        // Fewer reconnect attempts (and WARN lines) against a broker that is down: 1 s, backing off to 5 s.
        p.putIfAbsent(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 1_000);
        p.putIfAbsent(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 5_000);
        p.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "vigil-preflight");
        Admin admin;
        try {
            admin = Admin.create(p);
        } catch (RuntimeException e) {
            throw new KafkaSetupException(
                    "cannot create a Kafka client for " + bootstrap + " with these properties: "
                            + Failures.ownMessageOfRoot(e),
                    e);
        }
        KafkaPreflight k = new KafkaPreflight(admin, bootstrap, timeout);
        try {
            k.requireBroker();
        } catch (RuntimeException e) {
            k.close();
            throw e;
        }
        return k;
    }

    private void requireBroker() {
        Collection<Node> nodes = get(
                admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms()))
                        .nodes(),
                "no Kafka broker answered at " + bootstrap + " within " + seconds()
                        + " (is it running, and are --bootstrap and the security settings right?)");
        if (nodes.isEmpty()) {
            throw new KafkaSetupException("the Kafka cluster at " + bootstrap + " reports no brokers", null);
        }
    }

    /** Whether {@code topic} exists (and is visible to these credentials). */
    public boolean topicExists(String topic) {
        Set<String> names = get(
                admin.listTopics(new ListTopicsOptions().timeoutMs(ms()).listInternal(false))
                        .names(),
                "cannot list the topics at " + bootstrap);
        return names.contains(topic);
    }

    /**
     * Checks that each topic exists or that the brokers create topics on first use, for a producer about to write
     * to them.
     *
     * @throws KafkaSetupException naming the first topic that neither exists nor would be created
     */
    public void requireWritable(List<String> topics) {
        for (String t : topics) {
            if (!topicExists(t) && !brokersCreateTopics()) {
                throw new KafkaSetupException(
                        "topic '" + t + "' does not exist at " + bootstrap + " and the brokers do not create "
                                + "topics on first use (auto.create.topics.enable=false); create it first",
                        null);
            }
        }
    }

    /**
     * Waits until {@code topic} exists, checking every {@value #POLL_SECONDS} s; {@code waiting} runs once, the
     * first time it is missing.
     *
     * @throws InterruptedException when interrupted while waiting (Ctrl-C)
     */
    public void awaitTopic(String topic, Runnable waiting) throws InterruptedException {
        boolean said = false;
        while (!topicExists(topic)) {
            if (!said) {
                waiting.run();
                said = true;
            }
            Thread.sleep(POLL_SECONDS * 1_000);
        }
    }

    /**
     * Whether the brokers create a topic on first use ({@code auto.create.topics.enable}); true when the setting
     * cannot be read (the producer then reports a missing topic itself).
     */
    public boolean brokersCreateTopics() {
        try {
            Collection<Node> nodes = admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Node any = nodes.iterator().next();
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(any.id()));
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(List.of(broker)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            ConfigEntry e = configs.get(broker).get("auto.create.topics.enable");
            return e == null || e.value() == null || Boolean.parseBoolean(e.value());
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * The largest record batch the brokers accept on {@code topic} ({@code max.message.bytes}), or empty when it
     * cannot be read (no permission to describe configs, an old broker).
     */
    public OptionalLong maxMessageBytes(String topic) {
        return topicConfig(topic, "max.message.bytes")
                .map(v -> OptionalLong.of(Long.parseLong(v)))
                .orElse(OptionalLong.empty());
    }

    /**
     * The value of one configuration entry of {@code topic} (its own or the brokers' default), or empty when it
     * cannot be read (no permission to describe configs, an old broker).
     */
    public Optional<String> topicConfig(String topic, String name) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config c = admin.describeConfigs(List.of(r))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(r);
            ConfigEntry e = c == null ? null : c.get(name);
            return Optional.ofNullable(e == null ? null : e.value());
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Creates {@code topic} with one partition, the brokers' default replication and these topic configs.
     *
     * @return false when it already existed (created meanwhile by someone else)
     * @throws KafkaSetupException when the brokers refuse, naming the topic and the reason
     */
    public boolean createTopic(String topic, Map<String, String> configs) {
        NewTopic t = new NewTopic(topic, Optional.of(1), Optional.empty()).configs(configs);
        try {
            admin.createTopics(List.of(t)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new KafkaSetupException(
                    "cannot create topic '" + topic + "' at " + bootstrap + ": "
                            + Failures.ownMessageOfRoot(e.getCause()),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaSetupException("creating topic '" + topic + "' at " + bootstrap + " timed out", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaSetupException("interrupted while creating topic '" + topic + "'", e);
        }
    }

    /**
     * The end offsets of every partition of {@code topic} as a read_committed consumer sees them (the last stable
     * offsets: records of open transactions are not counted), keyed by partition.
     */
    public Map<Integer, Long> endOffsets(String topic) {
        TopicDescription d = get(
                        admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(ms()))
                                .allTopicNames(),
                        "cannot describe topic '" + topic + "' at " + bootstrap)
                .get(topic);
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        d.partitions().forEach(p -> ask.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> got = get(
                admin.listOffsets(ask, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs(ms()))
                        .all(),
                "cannot read the end offsets of topic '" + topic + "' at " + bootstrap);
        Map<Integer, Long> out = new TreeMap<>();
        got.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    /** The offsets consumer group {@code group} has committed on the partitions of {@code topic}, keyed by partition. */
    public Map<Integer, Long> committedOffsets(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> got = get(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "cannot read consumer group " + group + "'s offsets at " + bootstrap);
        Map<Integer, Long> out = new TreeMap<>();
        got.forEach((tp, om) -> {
            if (tp.topic().equals(topic) && om != null) {
                out.put(tp.partition(), om.offset());
            }
        });
        return out;
    }

    /**
     * Commits {@code offsets} (keyed by partition of {@code topic}) for consumer group {@code group}, which must have
     * no active members (the job's Kafka source assigns partitions itself and never joins its group).
     */
    public void commitOffsets(String group, String topic, Map<Integer, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((p, o) -> commit.put(new TopicPartition(topic, p), new OffsetAndMetadata(o)));
        get(
                admin.alterConsumerGroupOffsets(group, commit).all(),
                "cannot commit consumer group " + group + "'s offsets on topic '" + topic + "' at " + bootstrap);
    }

    private <T> T get(org.apache.kafka.common.KafkaFuture<T> f, String what) {
        try {
            return f.get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw new KafkaSetupException(what, c);
            }
            if (c instanceof AuthenticationException || c instanceof AuthorizationException) {
                throw new KafkaSetupException(
                        "Kafka at " + bootstrap + " refused these credentials: " + Failures.ownMessageOfRoot(c), c);
            }
            throw new KafkaSetupException(what + ": " + Failures.ownMessageOfRoot(c), c);
        } catch (TimeoutException e) {
            throw new KafkaSetupException(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaSetupException("interrupted while checking Kafka at " + bootstrap, e);
        }
    }

    private int ms() {
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    private String seconds() {
        return timeout.toSeconds() + " s";
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
