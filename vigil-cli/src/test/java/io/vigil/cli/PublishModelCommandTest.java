package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.ModelTopic;
import io.vigil.stream.ModelId;
import io.vigil.stream.StreamFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil publish-model} against the loopback broker: a compacted topic of whole model files. */
class PublishModelCommandTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static LoopbackKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void startKafka() {
        kafka = LoopbackKafka.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    static Run run(String... args) {
        return Run.of(args);
    }

    private Path model(String name, byte[] bytes) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static String config(String topic, String key) {
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), TIMEOUT)) {
            return k.topicConfig(topic, key).orElseThrow();
        }
    }

    @Test
    void createsACompactedTopicAndWritesTheModelUnderOneKeyPrintingItsId() throws Exception {
        Path a = model("a.model.json", StreamFixtures.MODEL_BYTES);
        byte[] otherBytes = Arrays.copyOf(StreamFixtures.MODEL_BYTES, StreamFixtures.MODEL_BYTES.length + 1);
        otherBytes[otherBytes.length - 1] = '\n';
        Path b = model("b.model.json", otherBytes);
        Run first = run("publish-model", "--bootstrap", kafka.bootstrapServers(), "--topic", "models", a.toString());
        assertEquals(0, first.exit(), first.err());
        assertEquals(ModelId.of(StreamFixtures.MODEL_BYTES), first.out().strip());
        assertTrue(first.err().contains("new compacted topic models"), first.err());
        Run second = run("publish-model", "--bootstrap", kafka.bootstrapServers(), "--topic", "models", b.toString());
        assertEquals(0, second.exit(), second.err());
        assertEquals(ModelId.of(otherBytes), second.out().strip());

        assertEquals("compact", config("models", "cleanup.policy"));
        assertTrue(Long.parseLong(config("models", "max.message.bytes")) >= otherBytes.length);
        ModelTopic.Contents c = ModelTopic.read(kafka.bootstrapServers(), Map.of(), "models", TIMEOUT);
        assertEquals(2, c.entries().size());
        assertArrayEquals(StreamFixtures.MODEL_BYTES, c.entries().get(0).value());
        assertArrayEquals(otherBytes, c.newest().value());
        assertEquals(Map.of(0, 2L), c.endOffsets());
    }

    @Test
    void aModelLargerThanTheKafkaDefaultGetsATopicThatTakesIt() throws Exception {
        // The model file with 1.5 MB of trailing whitespace: still the same model, larger than 1 MiB records.
        byte[] big = Arrays.copyOf(StreamFixtures.MODEL_BYTES, StreamFixtures.MODEL_BYTES.length + 1_500_000);
        Arrays.fill(big, StreamFixtures.MODEL_BYTES.length, big.length, (byte) ' ');
        Run o = run(
                "publish-model",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "big-models",
                model("big.model.json", big).toString());
        assertEquals(0, o.exit(), o.err());
        assertArrayEquals(
                big,
                ModelTopic.read(kafka.bootstrapServers(), Map.of(), "big-models", TIMEOUT)
                        .newest()
                        .value());
    }

    @Test
    void aBadModelIsRejectedBeforeAnythingIsWritten() throws Exception {
        Path broken = model("broken.model.json", "{\"format\":".getBytes(StandardCharsets.UTF_8));
        Run o = run("publish-model", "--bootstrap", kafka.bootstrapServers(), "--topic", "never", broken.toString());
        assertEquals(1, o.exit());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("broken.model.json") && o.err().contains("the file is truncated"), o.err());
        Run missing = run(
                "publish-model",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "never",
                dir.resolve("nope.json").toString());
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("does not exist"), missing.err());
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), TIMEOUT)) {
            assertTrue(!k.topicExists("never"), "nothing was created for a bad model");
        }
        assertEquals(2, run("publish-model", "--topic", "x", broken.toString()).exit(), "missing --bootstrap");
    }

    @Test
    void anExistingTopicThatIsNotCompactedIsRefusedNamingItsPolicy() throws Exception {
        kafka.createTopic("plain", 1);
        Run o = run(
                "publish-model",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "plain",
                model("a.model.json", StreamFixtures.MODEL_BYTES).toString());
        assertEquals(1, o.exit());
        assertTrue(o.err().contains("cleanup.policy=delete") && o.err().contains("compacted"), o.err());
    }
}
