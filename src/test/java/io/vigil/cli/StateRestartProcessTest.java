package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vigil.data.Dataset;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.StateDirectory;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.TopicReader;
import io.vigil.stream.StreamFixtures;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil run} killed with SIGKILL and restarted on the same state directory, as separate JVMs against the
 * loopback broker of this JVM, while samples keep arriving. Under exactly-once every series ends with exactly one
 * committed decision (read_committed) whatever moment the kill hit: before the first checkpoint (the crashed run's
 * open transaction must be aborted by the next one, which needs the same transactional-id prefix), between two
 * checkpoints, and during one (a {@code chk-N} directory without its {@code _metadata}). Under at-least-once no
 * series is lost. Before durable state, a restart began from the group's committed offsets with empty state: the
 * series in flight got no decision at all.
 */
class StateRestartProcessTest {
    private static final long START_TIMEOUT_S = 180;

    private static final long STOP_TIMEOUT_S = 60;

    /** Series replayed while the job is killed and restarted; 128 samples each. */
    private static final int SERIES = 200;

    /** Replay rate (samples/s): the replay outlasts the first kills, so they hit a job with data flowing. */
    private static final double RATE = 1_000;

    private static LoopbackKafka kafka;

    private static Dataset data;

    @TempDir
    static Path shared;

    private static Path model;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        kafka = LoopbackKafka.start();
        model = shared.resolve("cbf.model.json");
        Files.write(model, StreamFixtures.MODEL_BYTES);
        data = SyntheticData.generate(SyntheticKind.CBF, 3, SERIES, 25L, true).test();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void exactlyOnceGivesOneDecisionPerSeriesAfterSigkillBeforeBetweenAndDuringCheckpoints() throws Exception {
        String in = "eo-samples";
        String out = "eo-decisions";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        Path state = dir.resolve("state");
        Thread replay = replay(in);
        List<CliProcess> started = new ArrayList<>();
        try {
            // Before the first checkpoint: a 10 min interval puts it at least 5 min after the start.
            CliProcess c = run(started, in, out, state, "exactly-once", "10min");
            awaitUncommitted(c, out);
            assertTrue(completed(state).isEmpty(), "no checkpoint yet");
            kill(c);
            assertTrue(completed(state).isEmpty(), "killed before the first checkpoint");

            // Between two: right after a checkpoint completed (the next starts at least half an interval later).
            c = run(started, in, out, state, "exactly-once", "1s");
            c.awaitErr("no checkpoint yet: starting with empty state", START_TIMEOUT_S);
            await(c, () -> completed(state).isPresent(), "a completed checkpoint");
            kill(c);
            long between = completed(state).getAsLong();
            assertEquals(List.of(), inProgress(state), "killed between checkpoints");

            // During one: as soon as a checkpoint directory appears, before its metadata.
            long resumedFrom = between;
            boolean during = false;
            for (int attempt = 0; attempt < 3 && !during; attempt++) {
                c = run(started, in, out, state, "exactly-once", "1s");
                c.awaitErr("vigil run: resuming from checkpoint " + resumedFrom + " in " + state, START_TIMEOUT_S);
                assertEquals(1, count(c.err(), "resuming from"), c.err());
                long last = resumedFrom;
                await(c, () -> inProgress(state).stream().anyMatch(id -> id > last), "a checkpoint in progress");
                kill(c);
                during = !inProgress(state).isEmpty();
                resumedFrom = completed(state).orElse(resumedFrom);
            }
            assertTrue(during, "a kill during a checkpoint in 3 attempts");

            c = run(started, in, out, state, "exactly-once", "1s");
            c.awaitErr("vigil run: resuming from checkpoint " + resumedFrom + " in " + state, START_TIMEOUT_S);
            replay.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_S));
            Map<String, Integer> decided = awaitAllDecided(c, out, state);
            assertEquals(allSeries(), decided.keySet().stream().sorted().toList(), "every series decided");
            assertEquals(
                    Map.of(),
                    decided.entrySet().stream()
                            .filter(e -> e.getValue() != 1)
                            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                    "series with more than one committed decision");
        } finally {
            started.forEach(p -> p.process().destroyForcibly());
            replay.interrupt();
        }
    }

    @Test
    void atLeastOnceLosesNoSeriesAfterSigkill() throws Exception {
        String in = "alo-samples";
        String out = "alo-decisions";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        Path state = dir.resolve("state");
        Thread replay = replay(in);
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess c = run(started, in, out, state, "at-least-once", "1s");
            awaitUncommitted(c, out);
            await(c, () -> completed(state).isPresent(), "a completed checkpoint");
            kill(c);
            long at = completed(state).getAsLong();
            c = run(started, in, out, state, "at-least-once", "1s");
            c.awaitErr("vigil run: resuming from checkpoint " + at + " in " + state, START_TIMEOUT_S);
            replay.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_S));
            Map<String, Integer> decided = awaitAllDecided(c, out, state);
            assertEquals(allSeries(), decided.keySet().stream().sorted().toList(), "no series lost");
        } finally {
            started.forEach(p -> p.process().destroyForcibly());
            replay.interrupt();
        }
    }

    private CliProcess run(
            List<CliProcess> started, String in, String out, Path state, String delivery, String interval)
            throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        CliProcess c = CliProcess.start(
                dir,
                tmp,
                List.of(
                        "run",
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
                        "--delivery",
                        delivery,
                        "--checkpoint-interval",
                        interval,
                        "--state-dir",
                        state.toString()));
        started.add(c);
        return c;
    }

    /** Replays the test series at {@link #RATE} on a new thread. */
    private static Thread replay(String topic) {
        Thread t = new Thread(
                () -> Replay.run(
                        data,
                        Replay.Split.TEST,
                        new Replay.Settings(topic, null, RATE, 60, 1),
                        kafka.clientProperties(),
                        Progress.none()),
                "test-replay");
        t.start();
        return t;
    }

    private static List<String> allSeries() {
        return IntStream.range(0, SERIES)
                .mapToObj(i -> data.name() + "/test/" + i)
                .sorted()
                .toList();
    }

    /** Waits until the job has written a decision, committed or not (under exactly-once: inside a transaction). */
    private static void awaitUncommitted(CliProcess c, String topic) throws Exception {
        try (KafkaConsumer<byte[], byte[]> consumer =
                TopicReader.fromBeginning(kafka.clientProperties(), topic, false)) {
            await(c, () -> !consumer.poll(Duration.ofMillis(100)).isEmpty(), "a decision written");
        }
    }

    /**
     * Waits until every series has a committed decision and one more checkpoint completed (so a duplicate would
     * have been committed too), stops the job with SIGTERM and returns the committed decisions per series.
     */
    private static Map<String, Integer> awaitAllDecided(CliProcess c, String topic, Path state) throws Exception {
        Map<String, Integer> perSeries = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                TopicReader.fromBeginning(kafka.clientProperties(), topic, true)) {
            await(
                    c,
                    () -> {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                            perSeries.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                        }
                        return perSeries.size() >= SERIES;
                    },
                    "a committed decision for every series");
            long seen = completed(state).orElse(0);
            await(c, () -> completed(state).orElse(0) > seen, "one more checkpoint");
            Process kill = new ProcessBuilder(
                            "kill", "-TERM", Long.toString(c.process().pid()))
                    .start();
            assertEquals(0, kill.waitFor());
            assertTrue(c.process().waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "still running after SIGTERM");
            Map<org.apache.kafka.common.TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_S);
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                assertTrue(System.nanoTime() < deadline, "reading to the end of " + topic);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    perSeries.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                }
            }
        }
        return perSeries;
    }

    /** SIGKILL, as {@code kill -9}. */
    private static void kill(CliProcess c) throws InterruptedException {
        c.process().destroyForcibly();
        assertTrue(c.process().waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "still alive after SIGKILL");
    }

    /** The id of the latest completed checkpoint in a state directory, if any. */
    private static OptionalLong completed(Path state) {
        try {
            return StateDirectory.latestCheckpoint(state.resolve(StateDirectory.CHECKPOINTS))
                    .map(k -> OptionalLong.of(k.id()))
                    .orElse(OptionalLong.empty());
        } catch (IOException e) {
            return OptionalLong.empty(); // a directory removed while listed: look again
        }
    }

    /** Ids of the checkpoint directories without metadata (in progress, or left by a kill during one). */
    private static List<Long> inProgress(Path state) {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> jobs = Files.newDirectoryStream(state.resolve(StateDirectory.CHECKPOINTS))) {
            for (Path job : jobs) {
                try (DirectoryStream<Path> chks = Files.newDirectoryStream(job, "chk-*")) {
                    for (Path chk : chks) {
                        if (!Files.exists(chk.resolve(StateDirectory.METADATA))) {
                            out.add(Long.parseLong(chk.getFileName().toString().substring(4)));
                        }
                    }
                }
            }
        } catch (IOException notYet) {
            // no checkpoint directory yet, or one removed while listed
        }
        return out;
    }

    /** Polls {@code condition} (every few ms) until it holds; fails when the process exits or time runs out. */
    private static void await(CliProcess c, BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        while (!condition.getAsBoolean()) {
            if (!c.process().isAlive()) {
                fail("vigil run exited with " + c.process().exitValue() + " while waiting for " + what + ": "
                        + c.err());
            }
            if (System.nanoTime() > deadline) {
                fail("no " + what + " within " + START_TIMEOUT_S + " s: " + c.err());
            }
            Thread.sleep(2);
        }
    }

    private static int count(String text, String fragment) {
        return text.split(java.util.regex.Pattern.quote(fragment), -1).length - 1;
    }
}
