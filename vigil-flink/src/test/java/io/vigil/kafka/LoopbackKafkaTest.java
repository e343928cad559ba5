package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The loopback broker with real Kafka clients; one broker is shared by the whole class. */
class LoopbackKafkaTest {
    private static LoopbackKafka kafka;

    @BeforeAll
    static void start() {
        kafka = LoopbackKafka.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void topicsThatTheBrokerCreatesOnFirstUseAreWritableBeforeTheyExist() {
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), Duration.ofSeconds(15))) {
            assertFalse(k.topicExists("written-later"));
            assertTrue(k.brokersCreateTopics());
            k.requireWritable(List.of("written-later", "also-later"));
        }
    }

    @Test
    void answersWithOneNodeAdvertisedOnLoopback() throws Exception {
        assertEquals("127.0.0.1:" + kafka.port(), kafka.bootstrapServers());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            Collection<Node> nodes = admin.describeCluster().nodes().get();
            assertEquals(1, nodes.size());
            Node node = nodes.iterator().next();
            assertEquals("127.0.0.1", node.host());
            assertEquals(kafka.port(), node.port());
            assertEquals(LoopbackKafka.NODE_ID, node.id());
        }
    }

    /**
     * Reads the kernel's socket table: every listening socket on the client and controller ports must be bound
     * to 127.0.0.1 (plain or IPv4-mapped IPv6), never to a wildcard or another interface.
     */
    @Test
    void listensOnLoopbackOnly() throws IOException {
        Path tcp4 = Path.of("/proc/net/tcp");
        Path tcp6 = Path.of("/proc/net/tcp6");
        Assumptions.assumeTrue(Files.isReadable(tcp4), "no /proc/net/tcp (not Linux); socket table check skipped");
        for (int port : new int[] {kafka.port(), kafka.controllerPort()}) {
            List<String> addresses = new ArrayList<>(listeningAddresses(tcp4, port));
            if (Files.isReadable(tcp6)) {
                addresses.addAll(listeningAddresses(tcp6, port));
            }
            assertFalse(addresses.isEmpty(), "nothing listens on port " + port);
            for (String a : addresses) {
                assertTrue(
                        a.equals("0100007F") || a.equals("0000000000000000FFFF00000100007F"),
                        "port " + port + " is bound to " + a + ", not 127.0.0.1");
            }
        }
    }

    /** Local hex addresses of sockets in state LISTEN (0A) on {@code port} in a /proc/net/tcp* table. */
    private static List<String> listeningAddresses(Path table, int port) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line :
                Files.readAllLines(table).subList(1, Files.readAllLines(table).size())) {
            String[] f = line.trim().split("\\s+");
            String[] local = f[1].split(":");
            if (f[3].equals("0A") && Integer.parseInt(local[1], 16) == port) {
                out.add(local[0]);
            }
        }
        return out;
    }

    @Test
    void roundTripsRecordsInOrderPerPartition() {
        String topic = "round-trip";
        kafka.createTopic(topic, 3);
        int n = 300;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps())) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + (i % 7), Integer.toString(i)));
            }
            producer.flush();
        }
        Map<String, List<Integer>> byKey = new HashMap<>();
        for (ConsumerRecord<String, String> r : consumeAll(topic, n, "read_uncommitted")) {
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(Integer.parseInt(r.value()));
        }
        assertEquals(7, byKey.size());
        for (int k = 0; k < 7; k++) {
            List<Integer> expected = new ArrayList<>();
            for (int i = k; i < n; i += 7) {
                expected.add(i);
            }
            assertEquals(expected, byKey.get("k" + k), "key k" + k);
        }
    }

    /** Committed transactions are visible to read_committed consumers; aborted ones are written but hidden. */
    @Test
    void readCommittedSeesCommittedButNotAbortedTransactions() {
        String topic = "transactions";
        kafka.createTopic(topic, 2);
        Map<String, Object> props = producerProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "vigil-test-tx");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            producer.initTransactions();
            sendInTransaction(producer, topic, "committed-1", 5);
            producer.commitTransaction();
            sendInTransaction(producer, topic, "aborted", 5);
            producer.flush(); // written to the log first: abortTransaction() drops batches not yet sent
            producer.abortTransaction();
            sendInTransaction(producer, topic, "committed-2", 5);
            producer.commitTransaction();
        }
        List<String> committed = values(consumeAll(topic, 10, "read_committed"));
        assertEquals(10, committed.size());
        assertTrue(committed.stream().allMatch(v -> v.startsWith("committed-")), committed.toString());
        // The aborted records did reach the log: a read_uncommitted consumer sees all 15.
        List<String> everything = values(consumeAll(topic, 15, "read_uncommitted"));
        assertEquals(5, everything.stream().filter(v -> v.startsWith("aborted")).count());
        // Transaction markers and aborted records occupy offsets but are not counted.
        assertEquals(10, TopicReader.countCommitted(kafka.clientProperties(), topic, Duration.ofSeconds(30)));
    }

    private static void sendInTransaction(KafkaProducer<String, String> producer, String topic, String tag, int n) {
        producer.beginTransaction();
        for (int i = 0; i < n; i++) {
            producer.send(new ProducerRecord<>(topic, "key-" + i, tag + "/" + i));
        }
    }

    @Test
    void createTopicReportsAnExistingTopic() {
        kafka.createTopic("twice", 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> kafka.createTopic("twice", 1));
        assertTrue(e.getMessage().contains("twice") && e.getMessage().contains("already exists"), e.getMessage());
    }

    @Test
    void refusesAPortInUseWithAOneLineReason() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> LoopbackKafka.start(LoopbackKafka.Settings.defaults().withPort(port)));
            assertEquals("port " + port + " on 127.0.0.1 is already in use", e.getMessage());
        }
    }

    @Test
    void refusesADirectoryHoldingSomethingElse(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "not Kafka");
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDir(dir)));
        assertTrue(e.getMessage().contains("not empty and holds no Kafka storage"), e.getMessage());
    }

    static Map<String, Object> producerProps() {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return p;
    }

    /** Reads {@code topic} from the beginning until {@code expected} records arrived (fails after a timeout). */
    static List<ConsumerRecord<String, String>> consumeAll(String topic, int expected, String isolation) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        return KafkaTestSupport.readTopic(p, topic, expected, Duration.ofSeconds(30));
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
