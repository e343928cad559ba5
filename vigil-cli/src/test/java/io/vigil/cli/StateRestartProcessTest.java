package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.Dataset;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.EarlyFixtures;
import io.vigil.flink.StateDirectory;
import io.vigil.flink.cli.Json;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.TopicReader;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.StreamFixtures;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
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
import picocli.CommandLine;

/**
 * {@code vigil run} killed with SIGKILL and restarted on the same state directory, as separate JVMs against the
 * loopback broker of this JVM, while samples keep arriving. Under exactly-once every series ends with exactly one
 * committed decision (read_committed) whatever moment the kill hit: before the first checkpoint (the crashed run's
 * open transaction must be aborted by the next one, which needs the same transactional-id prefix), between two
 * checkpoints, and during one (a {@code chk-N} directory without its {@code _metadata}). Under at-least-once (with
 * the RocksDB backend) no series is lost. One job at a time per state directory, and only a job its state fits;
 * state beyond 5 MB. Before durable state, a restart began from the group's committed offsets with empty state: the
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
        topics(in, out);
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

            // Between two: right after a checkpoint completed (the next starts at least half an interval, 2 s, later).
            c = run(started, in, out, state, "exactly-once", "4s");
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
            Map<String, Integer> decided = awaitAllDecided(c, out, state, SERIES);
            assertEquals(allSeries(), decided.keySet().stream().sorted().toList(), "every series decided");
            KafkaTestSupport.assertOncePerKey(decided);
        } finally {
            killAll(started);
            replay.interrupt();
        }
    }

    @Test
    void atLeastOnceWithRocksDbLosesNoSeriesAfterSigkill() throws Exception {
        String in = "alo-samples";
        String out = "alo-decisions";
        topics(in, out);
        Path state = dir.resolve("state");
        Thread replay = replay(in);
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess c = run(started, in, out, state, "at-least-once", "1s", "--state-backend", "rocksdb");
            awaitUncommitted(c, out);
            await(c, () -> completed(state).isPresent(), "a completed checkpoint");
            kill(c);
            long at = completed(state).getAsLong();
            c = run(started, in, out, state, "at-least-once", "1s", "--state-backend", "rocksdb");
            c.awaitErr("vigil run: resuming from checkpoint " + at + " in " + state, START_TIMEOUT_S);
            replay.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_S));
            Map<String, Integer> decided = awaitAllDecided(c, out, state, SERIES);
            assertEquals(allSeries(), decided.keySet().stream().sorted().toList(), "no series lost");
            try (Stream<Path> left = Files.list(dir.resolve("tmp"))) {
                assertEquals(List.of(), left.toList(), "RocksDB's working files went with the temp directory");
            }
        } finally {
            killAll(started);
            replay.interrupt();
        }
    }

    @Test
    void aStateDirectoryServesOneJobAtATimeAndOnlyAJobItFits() throws Exception {
        String in = "fit-samples";
        String out = "fit-decisions";
        topics(in, out);
        produce(in, data, 20, 1, 128);
        Path state = dir.resolve("state");
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess first = run(started, in, out, state, "exactly-once", "1s");
            await(first, () -> completed(state).isPresent(), "a completed checkpoint");
            Outcome second = vigil(args(in, out, state, model, "--bounded"));
            assertOneLine(
                    second,
                    "state directory " + state + " is in use by another job (pid "
                            + first.process().pid() + ", started ");
            assertTrue(
                    second.err()
                            .contains("vigil run, job fit-samples-to-fit-decisions (fit-samples -> fit-decisions)); "
                                    + "stop that job first or give this one another --state-dir"),
                    second.err());
            kill(first);
            long at = completed(state).getAsLong();

            Path sameShape = dir.resolve("standardized.model.json");
            Files.write(sameShape, ModelFile.standard().toBytes(EarlyFixtures.CBF_STANDARDIZED_MODEL));
            CliProcess other =
                    CliProcess.start(dir, Files.createDirectories(dir.resolve("tmp")), args(in, out, state, sameShape));
            started.add(other);
            other.awaitErr("vigil run: resuming from checkpoint " + at + " in " + state, START_TIMEOUT_S);
            other.awaitErr("vigil run: the model changed (", START_TIMEOUT_S);
            assertTrue(other.err().contains("same shape): undecided series continue under the new model"), other.err());
            await(other, () -> completed(state).orElse(0) > at, "a checkpoint of the resumed job");
            kill(other);
            long last = completed(state).getAsLong();

            Outcome topics = vigil(args(in, "other-decisions", state, model, "--job-name", "fit"));
            assertOneLine(
                    topics,
                    "state directory " + state + " holds the state of job fit-samples-to-fit-decisions, which does "
                            + "not fit this run: output topic 'fit-decisions' there, 'other-decisions' in this run; "
                            + "dead-letter topic 'fit-decisions-dead' there, 'other-decisions-dead' in this run; "
                            + "start over with --fresh (discards checkpoint " + last + ") or give another --state-dir");
            Path shorter = dir.resolve("d64.model.json");
            Files.write(
                    shorter,
                    ModelFile.standard()
                            .toBytes(EarlyFixtures.train(
                                    SyntheticData.generate(SyntheticKind.CBF, 24, 1, 5L, false, 64), false)));
            assertOneLine(
                    vigil(args(in, out, state, shorter)),
                    "model shape 'd = 128, ℓ = 4, classes [1, 2, 3]' there, 'd = 64, ℓ = 4");
            assertOneLine(
                    vigil(args(in, out, state, model, "--state-backend", "rocksdb")),
                    "state backend 'hashmap' there, 'rocksdb' in this run");

            Path manifest = state.resolve(StateDirectory.MANIFEST);
            byte[] kept = Files.readAllBytes(manifest);
            Files.writeString(manifest, "{");
            Outcome corrupt = vigil(args(in, out, state, model));
            assertOneLine(corrupt, manifest + ": not JSON (");
            assertTrue(
                    corrupt.err().contains("start over with --fresh (discards checkpoint " + last + ")"),
                    corrupt.err());
            Files.write(manifest, kept);

            Outcome fresh = vigil(args(in, out, state, model, "--fresh", "--bounded"));
            assertEquals(0, fresh.code(), fresh.err());
            assertTrue(
                    fresh.err()
                            .contains("vigil run: --fresh: discarding checkpoint " + last + " in " + state
                                    + " (completed "),
                    fresh.err());
            assertEquals(0, count(fresh.err(), "resuming"), fresh.err());
        } finally {
            killAll(started);
        }
    }

    /**
     * SIGTERM (as Ctrl-C) on an unbounded run: the job is cancelled, the final summary is printed (here as the
     * {@code --json} object) and the state stays: the next run resumes with the series that were in flight, which
     * get their one decision when their remaining samples arrive (without their first 12 samples, restored from
     * the checkpoint, they could not be decided).
     */
    @Test
    void sigtermPrintsTheSummaryAndKeepsTheStateForTheNextRun() throws Exception {
        String in = "term-samples";
        String out = "term-decisions";
        topics(in, out);
        produce(in, data, 0, 20, 1, 128);
        produce(in, data, 20, 10, 1, HELD);
        Path state = dir.resolve("state");
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess c = run(started, in, out, state, "exactly-once", "1s", "--json");
            Map<String, Integer> decided = awaitAllDecided(c, out, state, 20);
            assertEquals(20, decided.size(), decided.toString());
            assertTrue(c.err().contains("vigil run: stopped; the job's state stays in " + state), c.err());
            JsonNode summary = Json.mapper().readTree(Files.readString(c.out()));
            assertEquals(
                    20,
                    summary.get("decided_early").asLong()
                            + summary.get("decided_complete").asLong(),
                    summary.toString());
            assertEquals(20 * 128 + 10 * HELD, summary.get("samples").asLong(), summary.toString());
            long at = completed(state).orElseThrow();

            produce(in, data, 20, 10, HELD + 1, 128);
            c = run(started, in, out, state, "exactly-once", "1s", "--json");
            c.awaitErr("vigil run: resuming from checkpoint " + at + " in " + state, START_TIMEOUT_S);
            decided = awaitAllDecided(c, out, state, 30);
            Map<String, Integer> once = new TreeMap<>();
            IntStream.range(0, 30).forEach(i -> once.put(data.name() + "/test/" + i, 1));
            assertEquals(once, decided, "one decision per series, the held ones completed after the restart");
        } finally {
            killAll(started);
        }
    }

    /**
     * Two jobs with one transactional-id prefix: the second one's start aborts the first one's open transaction
     * and fences its producer (Kafka's rule for a transactional id taken over). The first job learns it with its
     * next record and ends at once with one line naming the prefix and the fix, instead of restarting (which would
     * fence the second job in turn) and failing later with an unrelated error. The first job checkpoints only
     * every 10 min, so its producer is the one fenced when the next samples arrive.
     */
    @Test
    void aJobWhoseProducerIsFencedByAnotherJobWithItsPrefixEndsWithOneLineNamingIt() throws Exception {
        topics("fence-a", "fence-a-decisions");
        topics("fence-b", "fence-b-decisions");
        produce("fence-a", data, 0, 20, 1, 128);
        produce("fence-b", data, 0, 5, 1, 128);
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess first = run(
                    started,
                    "fence-a",
                    "fence-a-decisions",
                    dir.resolve("state-a"),
                    "exactly-once",
                    "10min",
                    "--transactional-id-prefix",
                    "shared");
            awaitUncommitted(first, "fence-a-decisions");
            Outcome second = vigil(args(
                    "fence-b",
                    "fence-b-decisions",
                    dir.resolve("state-b"),
                    model,
                    "--bounded",
                    "--transactional-id-prefix",
                    "shared"));
            assertEquals(0, second.code(), second.err());
            assertTrue(first.process().isAlive(), first.err());
            produce("fence-a", data, 20, 20, 1, 128);
            assertTrue(first.process().waitFor(START_TIMEOUT_S, TimeUnit.SECONDS), "still running: " + first.err());
            assertEquals(1, first.process().exitValue(), first.err());
            List<String> lines = first.err().strip().lines().toList();
            String last = lines.get(lines.size() - 1);
            assertTrue(
                    last.startsWith("vigil run: another job with the same transactional-id prefix 'shared' took over "
                                    + "this job's Kafka transactions (")
                            && last.contains("--transactional-id-prefix"),
                    first.err());
            assertEquals(0, count(first.err(), "NoResourceAvailableException"), first.err());
        } finally {
            killAll(started);
        }
    }

    /**
     * The first failure seen with large state, scaled down: with checkpoints in JobManager memory, state beyond 5 MB failed every
     * checkpoint and, after the tolerated failures, the job. Many series are held in flight with their first samples
     * (pure noise in CBF, so none is decided yet) until a checkpoint of more than 5 MB is on disk; then some of them
     * are completed and get their one committed decision.
     */
    @Test
    void stateBeyondFiveMegabytesIsCheckpointedAndTheJobKeepsDeciding() throws Exception {
        String in = "big-samples";
        String out = "big-decisions";
        topics(in, out);
        Path state = dir.resolve("state");
        Dataset big = SyntheticData.generate(SyntheticKind.CBF, 3, BIG_SERIES, 26L, true)
                .test();
        List<CliProcess> started = new ArrayList<>();
        try {
            CliProcess c = run(started, in, out, state, "exactly-once", "1s");
            c.awaitErr("no checkpoint yet", START_TIMEOUT_S);
            produce(in, big, BIG_SERIES, 1, HELD);
            await(c, () -> checkpointBytes(state) > FIVE_MB, "a completed checkpoint larger than 5 MB");
            produce(in, big, COMPLETED, HELD + 1, big.length());
            Map<String, Integer> decided = awaitAllDecided(c, out, state, COMPLETED);
            for (int i = 0; i < COMPLETED; i++) {
                assertEquals(1, decided.get(big.name() + "/test/" + i), "decisions of completed series " + i);
            }
        } finally {
            killAll(started);
        }
    }

    /** Series of the large-state test, all in flight at once. */
    private static final int BIG_SERIES = 25_000;

    /** Samples of each series sent before the checkpoint is measured (CBF's shapes start at t = 16 or later). */
    private static final int HELD = 12;

    /** Series completed after the large checkpoint. */
    private static final int COMPLETED = 200;

    private static final long FIVE_MB = 5L * 1024 * 1024;

    /** Bytes of the latest completed checkpoint's files (0 when there is none). */
    private static long checkpointBytes(Path state) {
        try {
            Optional<StateDirectory.Checkpoint> c =
                    StateDirectory.latestCheckpoint(state.resolve(StateDirectory.CHECKPOINTS));
            if (c.isEmpty()) {
                return 0;
            }
            try (Stream<Path> files = Files.walk(c.get().directory())) {
                return files.filter(Files::isRegularFile)
                        .mapToLong(f -> f.toFile().length())
                        .sum();
            }
        } catch (IOException | UncheckedIOException removedMeanwhile) {
            return 0;
        }
    }

    /** Publishes samples {@code from..to} of the first {@code series} series of {@code d}, t-major (all in flight). */
    private static void produce(String topic, Dataset d, int series, int from, int to) {
        produce(topic, d, 0, series, from, to);
    }

    /** Publishes samples {@code from..to} of series {@code first..first+series-1} of {@code d}, t-major. */
    private static void produce(String topic, Dataset d, int first, int series, int from, int to) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int t = from; t <= to; t++) {
                for (int i = first; i < first + series; i++) {
                    String id = d.name() + "/test/" + i;
                    producer.send(new ProducerRecord<>(
                            topic, SampleRecord.key(id), SampleRecord.encode(id, t, d.value(i, t - 1))));
                }
            }
        }
    }

    private static List<String> args(String in, String out, Path state, Path modelFile, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--model",
                modelFile.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                in,
                "--output",
                out,
                "--dead-letter",
                out + "-dead",
                "--state-dir",
                state.toString()));
        a.addAll(List.of(more));
        return a;
    }

    private record Outcome(int code, String err) {}

    /** Runs the CLI in this JVM. */
    private static Outcome vigil(List<String> args) {
        CommandLine cl = VigilCli.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        return new Outcome(cl.execute(args.toArray(String[]::new)), err.toString());
    }

    /** Exit 1 with one line that contains {@code fragment}. */
    private static void assertOneLine(Outcome o, String fragment) {
        assertEquals(1, o.code(), o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains(fragment), () -> "'" + fragment + "' in " + o.err());
    }

    private CliProcess run(
            List<CliProcess> started,
            String in,
            String out,
            Path state,
            String delivery,
            String interval,
            String... more)
            throws IOException {
        List<String> a = args(in, out, state, model, "--delivery", delivery, "--checkpoint-interval", interval);
        a.addAll(List.of(more));
        CliProcess c = CliProcess.start(dir, Files.createDirectories(dir.resolve("tmp")), a);
        started.add(c);
        return c;
    }

    private static void topics(String in, String out) {
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
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
    private static Map<String, Integer> awaitAllDecided(CliProcess c, String topic, Path state, int series)
            throws Exception {
        Map<String, Integer> perSeries = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                TopicReader.fromBeginning(kafka.clientProperties(), topic, true)) {
            await(
                    c,
                    () -> {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                            perSeries.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                        }
                        return perSeries.size() >= series;
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

    /** Kills every process a test started and waits for them, so none writes into the test's directory later. */
    private static void killAll(List<CliProcess> started) throws InterruptedException {
        for (CliProcess c : started) {
            kill(c);
        }
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
