package io.vigil.kafka;

import io.vigil.util.FileTrees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache Kafka's own KRaft server (one combined broker + controller) running inside this JVM, reachable only on
 * {@code 127.0.0.1}: the broker behind {@code vigil broker}, the demo and every Kafka test. It formats storage
 * like {@code kafka-storage.sh format} would, starts {@link KafkaRaftServer}, and returns once an Admin client
 * gets an answer, so a caller can produce immediately.
 *
 * <p>Why not {@code KafkaClusterTestKit}: it binds every interface. Here every listener (client and controller),
 * and the advertised address, is {@code 127.0.0.1}, so nothing is exposed to the network. Replication factors
 * and min ISR are 1 (one node), so transactions and consumer groups work; see {@link #brokerProperties} for each
 * setting and why.
 */
public final class LoopbackKafka implements AutoCloseable {
    /** The only address the broker listens on and advertises. */
    public static final String HOST = "127.0.0.1";

    /** Node id of the single combined broker + controller. */
    public static final int NODE_ID = 1;

    /** Listener name for clients (and inter-broker traffic, which a single node does not have). */
    static final String CLIENT_LISTENER = "PLAINTEXT";

    /** Listener name for the KRaft controller quorum. */
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    /** How often, while starting, the Admin client asks again whether the broker is up. */
    private static final Duration READY_POLL = Duration.ofMillis(100);

    /** Attempts with fresh free ports when another process grabs an automatically chosen port first. */
    private static final int AUTO_PORT_ATTEMPTS = 3;

    /** Segment size for all topics: small, so a local broker does not allocate 1 GiB segments per partition. */
    private static final int SEGMENT_BYTES = 16 * 1024 * 1024;

    /**
     * Memory of the log cleaner's dedupe map (default 128 MiB, allocated up front). 8 MiB holds ~350,000 keys,
     * plenty for the compacted offset and transaction topics of a local broker.
     */
    private static final int CLEANER_DEDUPE_BYTES = 8 * 1024 * 1024;

    /** Controller events slower than this are logged as ERROR (Kafka's default: 2 s). */
    private static final long SLOW_EVENT_LOG_MS = 60_000;

    /** Partitions of {@code __consumer_offsets} and {@code __transaction_state} (default 50 each). */
    private static final int INTERNAL_TOPIC_PARTITIONS = 4;

    private static final Logger LOG = LoggerFactory.getLogger(LoopbackKafka.class);

    private final KafkaRaftServer server;
    private final Admin admin;
    private final int port;
    private final int controllerPort;
    private final Path dir;
    private final boolean ownsDir;
    private final Duration startupTime;
    private final Duration timeout;
    private boolean closed;

    /** Removes a temp directory this instance created when the JVM exits without {@link #close} (SIGTERM, Ctrl-C). */
    /** The temp storage and its shutdown hook when this broker created the directory, else null. */
    private final LoopbackStorage storage;

    /**
     * How to start the broker.
     *
     * @param port client port on 127.0.0.1; 0 picks a free one
     * @param dir storage directory kept across runs (formatted on first use); {@code null} for a temp directory
     *     deleted on {@link #close()}
     * @param defaultPartitions partitions of topics created automatically on first use ({@code num.partitions})
     * @param timeout how long to wait for the broker to answer, and for each admin operation
     */
    public record Settings(int port, Path dir, int defaultPartitions, Duration timeout) {
        /** Default partitions for automatically created topics. */
        public static final int DEFAULT_PARTITIONS = 1;

        /** Default start and admin timeout: a cold JVM on a busy 2-core machine starts Kafka in a few seconds. */
        public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

        /** Validates the settings. */
        public Settings {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in 0..65535, got " + port);
            }
            if (defaultPartitions < 1) {
                throw new IllegalArgumentException("default partitions must be at least 1, got " + defaultPartitions);
            }
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, got " + timeout);
            }
        }

        /** A free port, a temp directory, 1 partition per auto-created topic, 60 s timeout. */
        public static Settings defaults() {
            return new Settings(0, null, DEFAULT_PARTITIONS, DEFAULT_TIMEOUT);
        }

        public Settings withPort(int newPort) {
            return new Settings(newPort, dir, defaultPartitions, timeout);
        }

        public Settings withDir(Path newDir) {
            return new Settings(port, newDir, defaultPartitions, timeout);
        }

        public Settings withDefaultPartitions(int partitions) {
            return new Settings(port, dir, partitions, timeout);
        }

        public Settings withTimeout(Duration newTimeout) {
            return new Settings(port, dir, defaultPartitions, newTimeout);
        }
    }

    private LoopbackKafka(
            KafkaRaftServer server,
            Admin admin,
            int port,
            int controllerPort,
            Path dir,
            LoopbackStorage storage,
            Duration startupTime,
            Duration timeout) {
        this.server = server;
        this.admin = admin;
        this.port = port;
        this.controllerPort = controllerPort;
        this.dir = dir;
        this.ownsDir = storage != null;
        this.storage = storage;
        this.startupTime = startupTime;
        this.timeout = timeout;
    }

    /** Starts a broker with {@link Settings#defaults()}. */
    public static LoopbackKafka start() {
        return start(Settings.defaults());
    }

    /**
     * Formats storage (unless {@code settings.dir()} already holds this broker's data), starts the server and
     * waits until it answers an Admin {@code describeCluster}.
     *
     * @throws IllegalStateException when a requested port is in use, the directory holds something else, or the
     *     broker does not answer within the timeout; the reason is in the message
     */
    public static LoopbackKafka start(Settings settings) {
        Objects.requireNonNull(settings, "settings");
        long t0 = System.nanoTime();
        boolean ownsDir = settings.dir() == null;
        Path dir = ownsDir ? createTempDir() : prepareDir(settings.dir());
        // Registered before Kafka starts, so a signal while it starts still stops it and deletes the directory.
        LoopbackStorage storage = ownsDir ? LoopbackStorage.register(dir) : null;
        try {
            int attempts = settings.port() == 0 ? AUTO_PORT_ATTEMPTS : 1;
            for (int attempt = 1; ; attempt++) {
                int port = settings.port() == 0 ? freePort() : requireFree(settings.port());
                int controllerPort = freePort();
                try {
                    return startOnce(settings, dir, storage, port, controllerPort, t0);
                } catch (PortTakenException e) {
                    if (attempt >= attempts) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                    LOG.warn("{}; retrying with other ports", e.getMessage());
                }
            }
        } catch (RuntimeException e) {
            if (storage != null) {
                storage.release();
                storage.unregister();
            }
            throw e;
        }
    }

    private static LoopbackKafka startOnce(
            Settings settings, Path dir, LoopbackStorage storage, int port, int controllerPort, long t0) {
        // A shutdown hook that comes while Kafka starts waits until it has started (or failed), then stops it.
        synchronized (storage == null ? new Object() : storage) {
            return startLocked(settings, dir, storage, port, controllerPort, t0);
        }
    }

    private static LoopbackKafka startLocked(
            Settings settings, Path dir, LoopbackStorage storage, int port, int controllerPort, long t0) {
        if (storage != null && storage.released()) {
            throw new IllegalStateException("the JVM is shutting down; Kafka was not started");
        }
        Properties props = brokerProperties(dir, port, controllerPort, settings.defaultPartitions());
        KafkaConfig config = KafkaConfig.fromProps(props);
        format(dir);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        if (storage != null) {
            storage.serving(server);
        }
        try {
            server.startup();
        } catch (RuntimeException e) {
            stopQuietly(server);
            if (storage != null) {
                storage.serving(null);
            }
            BindException bind = findCause(e, BindException.class);
            if (bind != null) {
                throw new PortTakenException("port " + port + " or " + controllerPort + " on " + HOST
                        + " is already in use (" + bind.getMessage() + ")");
            }
            throw new IllegalStateException("Kafka failed to start in " + dir + ": " + e.getMessage(), e);
        }
        Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                HOST + ":" + port,
                AdminClientConfig.CLIENT_ID_CONFIG,
                "vigil-loopback-admin"));
        try {
            awaitReady(admin, port, settings.timeout());
        } catch (RuntimeException e) {
            admin.close(Duration.ZERO);
            stopQuietly(server);
            if (storage != null) {
                storage.serving(null);
            }
            throw e;
        }
        Duration startup = Duration.ofNanos(System.nanoTime() - t0);
        return new LoopbackKafka(server, admin, port, controllerPort, dir, storage, startup, settings.timeout());
    }

    /**
     * The broker's configuration. Every listener, advertised or not, is on {@link #HOST}; the rest sizes a
     * one-node cluster: replication factor and min ISR 1 for the internal topics (or transactions and consumer
     * groups would wait forever for replicas), no initial rebalance delay (a local consumer group should start at
     * once), small segments and a small cleaner buffer (a laptop broker, not a server), few internal partitions.
     */
    static Properties brokerProperties(Path dir, int port, int controllerPort, int defaultPartitions) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(NODE_ID));
        p.setProperty("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        p.setProperty(
                "listeners",
                CLIENT_LISTENER + "://" + HOST + ":" + port + "," + CONTROLLER_LISTENER + "://" + HOST + ":"
                        + controllerPort);
        p.setProperty("advertised.listeners", CLIENT_LISTENER + "://" + HOST + ":" + port);
        p.setProperty("controller.listener.names", CONTROLLER_LISTENER);
        p.setProperty("inter.broker.listener.name", CLIENT_LISTENER);
        p.setProperty(
                "listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.setProperty("log.dirs", dir.toString());
        p.setProperty("metadata.log.dir", dir.toString());
        p.setProperty("num.partitions", Integer.toString(defaultPartitions));
        p.setProperty("auto.create.topics.enable", "true");
        p.setProperty("default.replication.factor", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.setProperty("offsets.topic.segment.bytes", Integer.toString(SEGMENT_BYTES));
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.setProperty("transaction.state.log.segment.bytes", Integer.toString(SEGMENT_BYTES));
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("log.segment.bytes", Integer.toString(SEGMENT_BYTES));
        p.setProperty("log.cleaner.dedupe.buffer.size", Integer.toString(CLEANER_DEDUPE_BYTES));
        // Two network and four I/O threads: the machine this targets has a few cores shared with the job.
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "4");
        // The controller logs an ERROR for every event slower than this (default 2 s); on a loopback broker sharing a
        // starved CPU that is the machine's load, not the broker's health, and it broke the demo's clean output.
        p.setProperty("controller.performance.always.log.threshold.ms", Long.toString(SLOW_EVENT_LOG_MS));
        return p;
    }

    /** Writes {@code meta.properties} and the bootstrap metadata, unless the directory is already formatted. */
    private static void format(Path dir) {
        if (Files.exists(dir.resolve("meta.properties"))) {
            return;
        }
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8))
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(dir.toString()))
                    .setMetadataLogDirectory(dir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .run();
        } catch (Exception e) { // Formatter.run() declares Exception
            throw new IllegalStateException("cannot format Kafka storage in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void awaitReady(Admin admin, int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                                .timeoutMs((int) READY_POLL.multipliedBy(10).toMillis()))
                        .nodes()
                        .get();
                if (!nodes.isEmpty()) {
                    return;
                }
                last = "no broker registered yet";
            } catch (ExecutionException e) {
                last = e.getCause() == null ? e.toString() : e.getCause().toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Kafka on " + HOST + ":" + port, e);
            }
            sleep(READY_POLL);
        }
        throw new IllegalStateException("Kafka on " + HOST + ":" + port + " did not answer within "
                + timeout.toSeconds() + " s (last: " + last + ")");
    }

    /** {@code host:port} for the {@code bootstrap.servers} client property. */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    /** Client properties to reach this broker ({@code bootstrap.servers}); add serializers etc. to a copy. */
    public Map<String, Object> clientProperties() {
        return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    }

    /** The client port on {@link #HOST}. */
    public int port() {
        return port;
    }

    /** The KRaft controller port on {@link #HOST} (clients never use it). */
    public int controllerPort() {
        return controllerPort;
    }

    /** The storage directory (log and metadata). */
    public Path dir() {
        return dir;
    }

    /** Wall time from {@link #start} until the broker answered, formatting included. */
    public Duration startupTime() {
        return startupTime;
    }

    /**
     * Creates a topic with replication factor 1 and waits until every partition has a leader, so producers and
     * consumers can use it at once.
     *
     * @throws IllegalArgumentException on a blank name or partitions &lt; 1
     * @throws IllegalStateException when Kafka refuses (e.g. the topic exists) or does not answer in time
     */
    public void createTopic(String name, int partitions) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + ": partitions must be at least 1, got " + partitions);
        }
        checkOpen();
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            awaitLeaders(name, partitions);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException("cannot create topic " + name + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "cannot create topic " + name + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        }
    }

    private void awaitLeaders(String name, int partitions)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            TopicDescription d;
            try {
                d = admin.describeTopics(List.of(name))
                        .allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .get(name);
            } catch (ExecutionException e) {
                // Right after creation the broker's metadata cache may not know the topic yet; that is retriable.
                if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                    throw e;
                }
                d = null;
            }
            if (d != null
                    && d.partitions().size() == partitions
                    && d.partitions().stream()
                            .map(TopicPartitionInfo::leader)
                            .allMatch(l -> l != null && !l.isEmpty())) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions of " + name + " have no leader");
            }
            sleep(READY_POLL);
        }
    }

    /**
     * Stops the server and waits for it to finish (a controlled shutdown: logs are flushed and closed cleanly), then
     * deletes the temp directory if this instance created it. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        admin.close(Duration.ofSeconds(5));
        if (storage != null) {
            storage.release(); // stops the server, then deletes the directory (once, whichever hook comes first)
            storage.unregister();
        } else {
            server.shutdown();
            server.awaitShutdown();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the broker on " + bootstrapServers() + " is closed");
        }
    }

    static void stopQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("error while stopping a broker that failed to start: {}", e.toString());
        }
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("vigil-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory for Kafka: " + e.getMessage(), e);
        }
    }

    /** A user directory must be absent, empty, or this broker's own formatted storage. */
    private static Path prepareDir(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        try {
            if (Files.exists(abs) && !Files.isDirectory(abs)) {
                throw new IllegalStateException(abs + " is not a directory");
            }
            Files.createDirectories(abs);
            if (!Files.exists(abs.resolve("meta.properties")) && !isEmpty(abs)) {
                throw new IllegalStateException(abs + " is not empty and holds no Kafka storage (no meta.properties);"
                        + " use an empty or new directory");
            }
            return abs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use " + abs + " for Kafka storage: " + e.getMessage(), e);
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName(HOST);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot resolve " + HOST, e);
        }
    }

    /** A port that was free on 127.0.0.1 a moment ago (start retries if another process takes it first). */
    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, loopback())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + HOST + ": " + e.getMessage(), e);
        }
    }

    /** Fails with a one-line reason when {@code port} cannot be bound on 127.0.0.1 (as Kafka would bind it). */
    private static int requireFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(loopback(), port));
            return port;
        } catch (BindException e) {
            throw new IllegalStateException("port " + port + " on " + HOST + " is already in use");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check port " + port + " on " + HOST + ": " + e.getMessage(), e);
        }
    }

    private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        }
    }

    static void deleteQuietly(Path dir) {
        if (!FileTrees.delete(dir)) {
            LOG.warn("cannot delete Kafka temp directory {}", dir);
        }
    }

    /** A listener port was taken between choosing it and Kafka binding it. */
    private static final class PortTakenException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }
}
