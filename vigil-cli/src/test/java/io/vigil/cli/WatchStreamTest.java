package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vigil.api.Vigil;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.DecisionOverrides;
import io.vigil.flink.StateDirectory;
import io.vigil.flink.WatchAlarm;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.TopicReader;
import io.vigil.kafka.WatchRecord;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import io.vigil.watch.AlarmEvent;
import io.vigil.watch.WatchReplay;
import io.vigil.watch.WindowSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil run --watch} on the loopback broker and an embedded Flink cluster: a generated event stream ({@code
 * generate --kind event-stream}'s generator), a window model trained on its training recordings in seconds, and the
 * test recordings sent as endless keyed streams. The committed alarm records equal, alarm by alarm, the alarms {@code
 * vigil evaluate --recordings} replays offline ({@link WatchReplay} with the model's spec); killed with SIGKILL while
 * values flow and restarted on the same state directory, the job still writes exactly one record per alarm. The two
 * modes refuse each other's models.
 */
class WatchStreamTest {
    private static final long TIMEOUT_S = 180;

    private static LoopbackKafka kafka;

    @TempDir
    static Path shared;

    private static Path model;
    private static RecordingSet test;
    private static Vigil vigil;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        kafka = LoopbackKafka.start();
        Path recordings = shared.resolve("rec");
        model = shared.resolve("w.json");
        EventStreamFixture.train(recordings, model).ok();
        test = RecordingSet.read(recordings, Double.NaN).split("test");
        vigil = Vigil.of(ModelFile.standard().load(model), DecisionOverrides.none());
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** The offline alarms of the test recordings, as evaluate replays them: key, label, start, trigger, window. */
    private static List<String> offline() {
        VigilModel m = vigil.model();
        WindowSpec spec = WindowSpec.of(vigil, WindowModels.requireWindowModel(m, "model"));
        List<String> out = new ArrayList<>();
        for (Recording r : test.recordings()) {
            for (AlarmEvent a : WatchReplay.run(vigil, spec, r.name(), new double[][] {r.channel(0)})
                    .alarms()) {
                out.add(describe(
                        a.key(),
                        a.label(),
                        a.eventStart(),
                        a.trigger(),
                        a.delaySamples(),
                        a.delayMs(),
                        a.windowStart(),
                        a.certified(),
                        a.guarantee(),
                        a.target()));
            }
        }
        return out.stream().sorted().toList();
    }

    private static String describe(
            String key,
            String label,
            long start,
            long trigger,
            long delay,
            double delayMs,
            long window,
            boolean certified,
            String guarantee,
            double target) {
        return key + " " + label + " " + start + ".." + trigger + " delay " + delay + " (" + delayMs + " ms) window "
                + window + " " + certified + " " + guarantee + " " + target;
    }

    private static String describe(WatchAlarm a) {
        return describe(
                a.key,
                a.label,
                a.eventStart,
                a.trigger,
                a.delaySamples,
                a.delayMs,
                a.windowStart,
                a.certified,
                a.guarantee,
                a.target);
    }

    /** Sends the test recordings as keyed streams, the keys interleaved sample by sample, at most {@code rate}/s. */
    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends the test recordings interleaved, at {@code rate} values/s (0: unpaced); after {@code holdAt} of the
     * values it waits (at most {@code TIMEOUT_S}) for {@code resume}, so that a test can act while values still flow
     * however slow the machine is.
     */
    private static void produce(String topic, double rate, double holdAt, CountDownLatch resume) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        long started = System.nanoTime();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            int n = test.recordings().get(0).samples();
            for (int i = 0; i < n; i++) {
                if (i == (int) (holdAt * n) && !await(resume)) {
                    return;
                }
                for (Recording r : test.recordings()) {
                    byte[] key = r.name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    producer.send(
                            new ProducerRecord<>(topic, key, WatchRecord.encode(r.name(), i + 1, -1, r.channel(0)[i])));
                    sent++;
                }
                if (rate > 0) {
                    long due = started + (long) (sent / rate * 1e9);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        try {
                            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                }
            }
        }
    }

    private static List<String> args(String in, String out, Path state, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--watch",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                in,
                "--output",
                out,
                "--dead-letter",
                out + "-dead",
                "--state-dir",
                state.toString(),
                "--max-alarms-per-minute",
                "0"));
        a.addAll(List.of(more));
        return a;
    }

    private static Map<String, Integer> committed(KafkaConsumer<byte[], byte[]> consumer, Map<String, Integer> seen) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            seen.merge(describe(WatchAlarm.fromJson(r.value())), 1, Integer::sum);
        }
        return seen;
    }

    @Test
    void streamAlarmsAreTheOfflineEvaluationsAlarmByAlarm() throws Exception {
        String in = "watch-values";
        String out = "watch-alarms";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        kafka.createTopic(out + "-dead", 1);
        produce(in, 0, 1, new CountDownLatch(0));
        Run run = Run.of(args(in, out, dir.resolve("state"), "--bounded", "--checkpoint-interval", "1s"))
                .ok();
        assertTrue(run.err().contains("vigil run: watch: alarms"), run.err());
        List<String> expected = offline();
        assertFalse(expected.isEmpty(), "the test recordings raise alarms");
        Map<String, Integer> got = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = TopicReader.fromBeginning(kafka.clientProperties(), out, true)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.values().stream().mapToInt(Integer::intValue).sum() < expected.size()
                    && System.nanoTime() < deadline) {
                committed(c, got);
            }
            for (int i = 0; i < 10; i++) {
                committed(c, got); // a duplicate or an extra alarm would show up here
            }
        }
        assertEquals(expected, List.copyOf(got.keySet()));
        got.forEach((a, n) -> assertEquals(1, n, a));
        Map<String, Integer> dead = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c =
                TopicReader.fromBeginning(kafka.clientProperties(), out + "-dead", true)) {
            for (int i = 0; i < 10; i++) {
                c.poll(Duration.ofMillis(100)).forEach(r -> dead.merge("x", 1, Integer::sum));
            }
        }
        assertEquals(Map.of(), dead, "no value of the recordings is dead-lettered");
    }

    @Test
    void sigkillAndRestartWriteExactlyOneRecordPerAlarm() throws Exception {
        String in = "kill-values";
        String out = "kill-alarms";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        Path state = dir.resolve("state");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> a = args(in, out, state, "--checkpoint-interval", "1s");
        List<CliProcess> started = new ArrayList<>();
        CountDownLatch killed = new CountDownLatch(1);
        Thread producer = new Thread(() -> produce(in, 300, 0.8, killed), "watch-producer");
        try {
            CliProcess first = CliProcess.start(dir, tmp, a);
            started.add(first);
            first.awaitErr("no checkpoint yet: starting with empty state", TIMEOUT_S);
            producer.start();
            try (KafkaConsumer<byte[], byte[]> c = TopicReader.fromBeginning(kafka.clientProperties(), out, false)) {
                await(first, () -> !c.poll(Duration.ofMillis(100)).isEmpty(), "an alarm written");
            }
            await(first, () -> latest(state) > 0, "a completed checkpoint");
            assertTrue(producer.isAlive(), "values still flow when the job is killed");
            first.process().destroyForcibly();
            assertTrue(first.process().waitFor(60, TimeUnit.SECONDS));
            killed.countDown();
            long from = latest(state);
            CliProcess second = CliProcess.start(dir, tmp, a);
            started.add(second);
            second.awaitErr("resuming from checkpoint " + from, TIMEOUT_S);
            producer.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
            List<String> expected = offline();
            Map<String, Integer> got = new TreeMap<>();
            try (KafkaConsumer<byte[], byte[]> c = TopicReader.fromBeginning(kafka.clientProperties(), out, true)) {
                await(second, () -> committed(c, got).size() >= expected.size(), "every alarm committed");
                long seen = latest(state);
                await(second, () -> latest(state) > seen + 1, "two more checkpoints");
                for (int i = 0; i < 10; i++) {
                    committed(c, got);
                }
            }
            assertEquals(expected, List.copyOf(got.keySet()));
            got.forEach((alarm, n) -> assertEquals(1, n, alarm));
        } finally {
            producer.interrupt();
            for (CliProcess c : started) {
                c.process().destroyForcibly();
                c.process().waitFor(60, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void eachModeRefusesTheOthersModelNamingIt() throws Exception {
        Path series = dir.resolve("series.json");
        Files.write(series, io.vigil.stream.StreamFixtures.MODEL_BYTES);
        kafka.createTopic("mode-values", 1);
        Run watchSeries = Run.of(args("mode-values", "mode-out", dir.resolve("s1"), "--bounded").stream()
                .map(s -> s.equals(model.toString()) ? series.toString() : s)
                .toList());
        assertEquals(1, watchSeries.exit(), watchSeries.err());
        assertTrue(watchSeries.err().contains("is a series model"), watchSeries.err());
        assertTrue(watchSeries.err().contains("without --watch"), watchSeries.err());
        Run seriesWindow = Run.of(args("mode-values", "mode-out", dir.resolve("s2"), "--bounded").stream()
                .filter(s -> !s.equals("--watch") && !s.equals("--max-alarms-per-minute") && !s.equals("0"))
                .toList());
        assertEquals(1, seriesWindow.exit(), seriesWindow.err());
        assertTrue(seriesWindow.err().contains("is a window model"), seriesWindow.err());
        assertTrue(seriesWindow.err().contains("vigil run --watch"), seriesWindow.err());
    }

    private static long latest(Path state) {
        try {
            return StateDirectory.latestCheckpoint(state.resolve(StateDirectory.CHECKPOINTS))
                    .map(StateDirectory.Checkpoint::id)
                    .orElse(0L);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void await(CliProcess c, BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!condition.getAsBoolean()) {
            if (!c.process().isAlive()) {
                fail("vigil run exited with " + c.process().exitValue() + " waiting for " + what + ": " + c.err());
            }
            if (System.nanoTime() > deadline) {
                fail("no " + what + " within " + TIMEOUT_S + " s: " + c.err());
            }
            Thread.sleep(5);
        }
    }
}
