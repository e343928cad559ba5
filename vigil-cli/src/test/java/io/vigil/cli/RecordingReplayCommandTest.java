package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.flink.cli.Json;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil replay --recordings} in-process against a real loopback broker: every watch record is read back with a
 * consumer and checked against the recording files (fields, values, sample order per key, time order across keys).
 */
class RecordingReplayCommandTest {
    @TempDir
    static Path dir;

    private static LoopbackKafka kafka;
    private static RecordingSet generated;
    private static Path generatedDir;
    private static Path mixedDir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void setUp() throws IOException {
        kafka = LoopbackKafka.start();
        generated = EventStream.generate(4, EventStream.MIN_LENGTH + 40, 7);
        generatedDir = dir.resolve("generated");
        RecordingWriter.writeSet(generated, generatedDir, false);
        // two channels at 10 Hz (one value missing) and one channel at 20 Hz, by their time columns
        mixedDir = dir.resolve("mixed");
        Files.createDirectories(mixedDir);
        StringBuilder slow = new StringBuilder("time\tp\tq\n");
        for (int i = 0; i < 10; i++) {
            slow.append(i * 100)
                    .append('\t')
                    .append(i)
                    .append('\t')
                    .append(i == 3 ? "" : "" + (10 + i))
                    .append('\n');
        }
        Files.writeString(mixedDir.resolve("slow.tsv"), slow);
        StringBuilder fast = new StringBuilder("time\tx\n");
        for (int i = 0; i < 20; i++) {
            fast.append(i * 50).append('\t').append(0.5 * i).append('\n');
        }
        Files.writeString(mixedDir.resolve("fast.tsv"), fast);
        Files.writeString(
                mixedDir.resolve("events.tsv"),
                "recording\tstart\tend\tlabel\tsplit\nslow\t2\t4\tbump\ttest\nfast\t\t\t\ttest\n");
        Path untimed = dir.resolve("untimed");
        Files.createDirectories(untimed);
        Files.writeString(untimed.resolve("u.tsv"), "x\n1\n2\n3\n");
        Files.writeString(untimed.resolve("events.tsv"), "recording\tstart\tend\tlabel\tsplit\nu\t1\t2\tbump\ttest\n");
        Path noSplit = dir.resolve("nosplit");
        Files.createDirectories(noSplit);
        Files.writeString(noSplit.resolve("u.tsv"), "time\tx\n0\t1\n20\t2\n");
        Files.writeString(noSplit.resolve("events.tsv"), "recording\tstart\tend\tlabel\nu\t1\t2\tbump\n");
    }

    @AfterAll
    static void tearDown() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private int run(String... args) {
        List<String> full = new ArrayList<>(List.of("replay", "--bootstrap", kafka.bootstrapServers()));
        full.addAll(List.of(args));
        return VigilCli.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(full.toArray(String[]::new));
    }

    @Test
    void sendsEveryValueOfTheSplitAsWatchRecordsInTimeOrder() throws IOException {
        kafka.createTopic("watch-generated", 1);
        RecordingSet test = generated.split("test");
        int code = run(
                "--recordings",
                generatedDir.toString(),
                "--split",
                "test",
                "--topic",
                "watch-generated",
                "--speed",
                "max",
                "--json");
        assertEquals(0, code, err.toString());
        String line = out.toString().strip();
        assertFalse(line.contains("\n"), line);
        JsonNode j = Json.mapper().readTree(line);
        long expected = test.recordings().stream()
                .mapToLong(r -> (long) r.samples() * r.channelCount())
                .sum();
        assertEquals(test.recordings().size(), j.get("recordings").asInt());
        assertEquals(expected, j.get("values").asLong());
        assertEquals("max", j.get("speed").asText());

        List<ConsumerRecord<byte[], byte[]>> records = read("watch-generated", (int) expected);
        Map<String, Integer> nextSample = new LinkedHashMap<>();
        long lastSample = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode v = Json.mapper().readTree(r.value());
            List<String> fields = new ArrayList<>();
            for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
                fields.add(it.next());
            }
            assertEquals(List.of("key", "channel", "value", "i"), fields, v.toString());
            String key = v.get("key").asText();
            assertEquals(key, new String(r.key(), StandardCharsets.UTF_8), "record key is the recording's name");
            Recording rec = test.recording(key).orElseThrow();
            long i = v.get("i").asLong();
            assertEquals(nextSample.getOrDefault(key, 1), (int) i, key + " arrives sample by sample");
            nextSample.put(key, (int) i + 1);
            assertEquals(0, v.get("channel").asInt());
            assertEquals(rec.value(0, (int) i), v.get("value").asDouble(), 0.0, key + " value at " + i + " is exact");
            // one rate for all: time order is sample order across the keys
            assertTrue(i >= lastSample, "time order across recordings: sample " + i + " after " + lastSample);
            lastSample = i;
        }
        for (Recording rec : test.recordings()) {
            assertEquals(rec.samples() + 1, nextSample.get(rec.name()), rec.name() + " sent completely");
        }
    }

    @Test
    void interleavesRecordingsOfDifferentRatesByTimeAndSkipsMissingValues() throws IOException {
        kafka.createTopic("watch-mixed", 1);
        int code = run("--recordings", mixedDir.toString(), "--topic", "watch-mixed", "--speed", "100");
        assertEquals(0, code, err.toString());
        assertTrue(
                out.toString().startsWith("replayed 2 recordings (39 values, 1 missing not sent, 1.0 s recorded) of "),
                out.toString());
        List<String> actual = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : read("watch-mixed", 39)) {
            JsonNode v = Json.mapper().readTree(r.value());
            actual.add(v.get("key").asText() + "@" + v.get("i").asLong() + "/"
                    + v.get("channel").asInt());
        }
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 20; k++) { // fast sample k+1 is due at 50k ms, slow sample k/2+1 at 100(k/2) ms
            if (k % 2 == 0) {
                int i = k / 2 + 1;
                expected.add("fast@" + (k + 1) + "/0");
                expected.add("slow@" + i + "/0");
                if (i != 4) {
                    expected.add("slow@" + i + "/1");
                }
            } else {
                expected.add("fast@" + (k + 1) + "/0");
            }
        }
        assertEquals(expected, actual);
    }

    @Test
    void aRecordingWithoutTimeColumnNeedsSamplingRate() {
        String untimed = dir.resolve("untimed").toString();
        assertEquals(2, run("--recordings", untimed, "--topic", "watch-untimed"));
        assertTrue(
                err.toString()
                        .contains("recording 'u' has no time column, so its sampling rate is unknown; give"
                                + " --sampling-rate HZ"),
                err.toString());
        err.getBuffer().setLength(0);
        kafka.createTopic("watch-untimed", 1);
        assertEquals(
                0,
                run("--recordings", untimed, "--topic", "watch-untimed", "--sampling-rate", "1000", "--speed", "max"),
                err.toString());
        assertEquals(3, read("watch-untimed", 3).size());
    }

    @Test
    void aSplitNeedsASplitColumn() {
        assertEquals(1, run("--recordings", dir.resolve("nosplit").toString(), "--split", "test", "--topic", "t"));
        assertTrue(err.toString().contains("has no split column"), err.toString());
    }

    @Test
    void refusesBadSpeedAndSeriesOptions() {
        assertEquals(2, run("--recordings", mixedDir.toString(), "--topic", "t", "--speed", "0"));
        assertTrue(err.toString().contains("--speed must be a positive factor or max, got '0'"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--recordings", mixedDir.toString(), "--topic", "t", "--speed", "fast"));
        assertTrue(err.toString().contains("got 'fast'"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--recordings", mixedDir.toString(), "--topic", "t", "--concurrency", "3"));
        assertTrue(
                err.toString().contains("--concurrency applies to data set replays, not to --recordings"),
                err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("--data", dir.toString(), "--dataset", "CBF", "--topic", "t", "--speed", "2"));
        assertTrue(err.toString().contains("--speed applies to --recordings only"), err.toString());
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records =
                KafkaTestSupport.readTopic(p, topic, expected, Duration.ofSeconds(30));
        assertEquals(expected, records.size(), "no surplus records on " + topic);
        return records;
    }
}
