package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Reading whole topics in tests without consumer groups, and running Debian's kcat against our topics. */
public final class KafkaTestSupport {
    private static final Duration POLL = Duration.ofMillis(100);

    /** Longest a kcat run may take. */
    private static final long KCAT_TIMEOUT_S = 60;

    private KafkaTestSupport() {}

    /**
     * Reads every partition of {@code topic} from the beginning until {@code expected} records arrived, then on
     * to the end offsets of that moment, so surplus records show up in the result instead of being missed. Fails
     * the test when fewer than {@code expected} arrive within {@code timeout}.
     *
     * @param props consumer properties (bootstrap, deserializers, isolation level); no group id is needed
     */
    public static <K, V> List<ConsumerRecord<K, V>> readTopic(
            Map<String, Object> props, String topic, int expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(props)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            List<TopicPartition> parts = infos.stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(POLL).forEach(out::add);
            }
            if (out.size() < expected) {
                fail("only " + out.size() + " of " + expected + " records arrived in " + topic + " within "
                        + timeout.toSeconds() + " s");
            }
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                consumer.poll(POLL).forEach(out::add);
            }
        }
        return out;
    }

    /** Fails naming every key that occurs other than exactly once in {@code perKey} (records counted per key). */
    public static void assertOncePerKey(Map<String, Integer> perKey) {
        assertEquals(
                Map.of(),
                perKey.entrySet().stream()
                        .filter(e -> e.getValue() != 1)
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                "keys with more than one record");
    }

    /** Runs kcat with {@code stdin} (or none), returns its stdout; fails on a non-zero exit with its stderr. */
    public static String kcat(String stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("kcat");
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("kcat", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            byte[] out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(KCAT_TIMEOUT_S, TimeUnit.SECONDS), "kcat did not finish: " + cmd);
            assertEquals(0, p.exitValue(), "kcat " + String.join(" ", args) + ": " + Files.readString(err));
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** Whether an executable of this name is on PATH. */
    public static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
