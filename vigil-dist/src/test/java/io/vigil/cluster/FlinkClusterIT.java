package io.vigil.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.cli.VigilCli;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.ModelTopic;
import io.vigil.kafka.Replay;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.ModelId;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import picocli.CommandLine;

/**
 * Vigil's job jar on a real standalone Flink session cluster: a JobManager and two TaskManagers as separate JVMs
 * on 127.0.0.1 ({@link FlinkProcessCluster}), the loopback Kafka broker in this JVM, the job submitted through the
 * REST API ({@code /jars/upload}, {@code /jars/:id/run}) at parallelism 4 (2 TaskManagers × 2 slots, so keyed
 * records cross TaskManagers). Runs only with {@code mvn -B verify -Pcluster-it}.
 *
 * <ol>
 *   <li>Throughput: 5,000 CBF series pre-loaded, a bounded exactly-once run on the cluster and the same job on a
 *       MiniCluster in this JVM; both give exactly the offline decisions.
 *   <li>Exactly-once under failure and a model hot swap: the job follows a model topic ({@code --model-topic});
 *       while 5,000 series are replayed, model A' (A's file with a trailing newline: the same classifier under
 *       another id) is published, then one TaskManager is killed with SIGKILL and a replacement started; the job
 *       restarts from the last checkpoint (models from broadcast state) and a read_committed consumer sees exactly
 *       one decision per series, each equal to the offline decision, from A or A' (both decide some).
 *   <li>At-least-once under the same failure: every series decided, every record equal to the offline decision;
 *       duplicates are counted.
 *   <li>Stop-with-savepoint and resume with the same model mid-replay: no loss, no duplicates; then a second
 *       stop-with-savepoint mid-replay and a resume with a different model (other data, ℓ = 3 instead of 4): series
 *       undecided at the upgrade have their stored prefix replayed under the new model (metric and log), every
 *       series gets exactly one decision (none left undecided), and every decision equals the offline decision of
 *       the model it names, so no decision mixes the two models.
 * </ol>
 *
 * Recovery time, lost/duplicated decisions and throughput go to {@code target/cluster-it-figures.md}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkClusterIT {
    private static final Path TARGET = Path.of("target");
    private static final Path WORK = TARGET.resolve("cluster-it");
    private static final Path JOB_JAR = TARGET.resolve("vigil-flink-job.jar");
    private static final Path CLASSPATH_FILE = WORK.resolve("classpath.txt");
    private static final Path FIGURES = TARGET.resolve("cluster-it-figures.md");
    private static final String ENTRY_CLASS = "io.vigil.flink.cli.VigilJobMain";

    private static final int SERIES = 5_000;
    private static final int UPGRADE_SERIES = 1_500;
    private static final int TRAIN = 100;
    /** LDG dimensions ℓ of model A and of the upgrade's model B (different, so restored state cannot fit B). */
    private static final int DIMS_A = 4;

    private static final int DIMS_B = 3;
    private static final int PARALLELISM = 4;
    private static final int PARTITIONS = 4;
    /** Replay rate while a job runs (samples/s across all series) and series interleaved at a time. */
    private static final double RATE = 20_000;

    private static final int CONCURRENCY = 50;
    /** Upgrade replay rate: 38 s for 1,500 CBF series, so series are in flight at the savepoint under load. */
    private static final double UPGRADE_RATE = 5_000;

    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration DECISIONS_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration METRIC_TIMEOUT = Duration.ofSeconds(30);

    private static LoopbackKafka kafka;
    private static FlinkProcessCluster cluster;
    private static FlinkRest rest;
    private static String jarId;
    private static Path modelA;
    private static Path modelB;
    private static String idA;
    private static String idB;
    /** Model A's file with a trailing newline: the model hot-swapped in, with A's decisions under another id. */
    private static byte[] modelA2;

    private static String idA2;
    private static Dataset test;
    private static Dataset upgradeTest;
    /** Offline decisions by series id, per model id. */
    private static final Map<String, Map<String, DecisionRecord>> OFFLINE = new HashMap<>();

    private static final Map<String, String> FIGURE_LINES = new LinkedHashMap<>();
    private static long classStart;

    /** Prints every cluster process's log tail when a test fails. */
    @RegisterExtension
    static final TestWatcher LOG_TAILS = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (cluster != null) {
                System.err.println("FlinkClusterIT." + context.getDisplayName() + " failed; cluster logs:\n"
                        + cluster.logTails(80));
            }
        }
    };

    @BeforeAll
    static void startEverything() throws Exception {
        classStart = System.nanoTime();
        assertTrue(Files.isRegularFile(JOB_JAR), JOB_JAR + " is built by mvn package");
        assertTrue(
                Files.isRegularFile(CLASSPATH_FILE),
                CLASSPATH_FILE + " is written by the cluster-it profile: run mvn -B verify -Pcluster-it");
        String classpath = FlinkProcessCluster.flinkClasspath(Files.readString(CLASSPATH_FILE));

        TrainTest dataA = SyntheticData.generate(SyntheticKind.CBF, TRAIN, SERIES, 11L);
        TrainTest dataB = SyntheticData.generate(SyntheticKind.CBF, TRAIN, UPGRADE_SERIES, 12L);
        test = dataA.test();
        Dataset b = dataB.test();
        upgradeTest = Dataset.of("CBFU", b.rows(), b.classIndices(), b.classNames());
        Files.createDirectories(WORK);
        modelA = WORK.resolve("cbf-a.model.json");
        modelB = WORK.resolve("cbf-b.model.json");
        idA = saveModel(train(dataA, DIMS_A), modelA);
        idB = saveModel(train(dataB, DIMS_B), modelB);
        assertTrue(!idA.equals(idB), "the two models differ");
        byte[] a = Files.readAllBytes(modelA);
        modelA2 = java.util.Arrays.copyOf(a, a.length + 1);
        modelA2[a.length] = '\n';
        idA2 = ModelId.of(modelA2);
        Map<String, DecisionRecord> asA2 = new HashMap<>();
        OFFLINE.get(idA).forEach((series, r) -> {
            DecisionRecord c = new DecisionRecord();
            c.series = r.series;
            c.label = r.label;
            c.t = r.t;
            c.early = r.early;
            c.model = idA2;
            asA2.put(series, c);
        });
        OFFLINE.put(idA2, asA2);

        kafka = LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(PARTITIONS));
        cluster = FlinkProcessCluster.start(
                Path.of("config", "flink", "config.yaml"),
                Files.createTempDirectory(WORK, "cluster-"),
                WORK.resolve("logs"),
                classpath,
                2,
                Map.of());
        rest = new FlinkRest(cluster.restUrl());
        jarId = rest.uploadJar(JOB_JAR);
    }

    /** EarlyFixtures' fixed small parameters (fast to train), with the LDG dimension ℓ given. */
    private static VigilModel train(TrainTest data, int dims) {
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(dims)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        VigilModel m = Trainer.train(data.train(), p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        return EarlyModelTrainer.addSections(m, data.train(), EarlyModelTrainer.Params.defaults());
    }

    private static String saveModel(VigilModel model, Path file) throws IOException {
        byte[] bytes = ModelFile.standard().toBytes(model);
        Files.write(file, bytes);
        String id = ModelId.of(bytes);
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        Map<String, DecisionRecord> byId = new HashMap<>();
        for (Dataset d : List.of(test, upgradeTest)) {
            List<SeriesDecision> offline = EarlyReplay.replay(c, d);
            for (int i = 0; i < d.size(); i++) {
                SeriesDecision s = offline.get(i);
                DecisionRecord r = new DecisionRecord();
                r.series = d.name() + "/test/" + i;
                r.label = c.classNames().get(s.label());
                r.t = s.t();
                r.early = s.early();
                r.model = id;
                byId.put(r.series, r);
            }
        }
        OFFLINE.put(id, byId);
        return id;
    }

    @AfterAll
    static void stopEverything() throws IOException {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
            FIGURE_LINES.put(
                    "Whole IT (data, models, broker, cluster, all scenarios)", seconds(System.nanoTime() - classStart));
            DecisionCheck.writeFigures(FIGURES, FIGURE_LINES, RATE, CONCURRENCY);
        }
    }

    @Test
    @Order(1)
    void boundedRunOnTheClusterAndOnAMiniClusterGiveTheOfflineDecisions() throws Exception {
        String input = "tp-samples";
        kafka.createTopic(input, PARTITIONS);
        Replay.run(
                test,
                Replay.Split.TEST,
                new Replay.Settings(input, null, 0, CONCURRENCY, 1),
                kafka.clientProperties(),
                Progress.none());
        long samples = (long) SERIES * test.length();

        try (DecisionCollector out = new DecisionCollector(kafka.clientProperties(), "tp-cluster-decisions")) {
            List<String> args = jobArgs(modelA, input, "tp-cluster-decisions", "exactly-once", "tp-cluster");
            args.add("--bounded");
            String job = rest.runJar(jarId, ENTRY_CLASS, args, PARALLELISM, null);
            rest.awaitState(job, "FINISHED", JOB_TIMEOUT);
            long ms = rest.job(job).path("duration").asLong();
            assertTrue(out.awaitAtLeast(SERIES, DECISIONS_TIMEOUT), "decisions of the bounded cluster run");
            DecisionCheck c = DecisionCheck.of(out.arrivals(), test, OFFLINE, idA);
            assertEquals(0, c.lost(), "lost: " + c.lostExamples());
            assertEquals(0, c.duplicated(), "duplicated");
            throughputFigure(
                    "Throughput, 2-TaskManager cluster (bounded, exactly-once, p = 4, job duration)", samples, ms);
        }

        try (DecisionCollector out = new DecisionCollector(kafka.clientProperties(), "tp-mini-decisions")) {
            List<String> args = jobArgs(modelA, input, "tp-mini-decisions", "exactly-once", "tp-mini");
            args.add(0, "run");
            args.add("--bounded");
            StringWriter stdout = new StringWriter();
            StringWriter stderr = new StringWriter();
            CommandLine cl = VigilCli.commandLine();
            cl.setOut(new PrintWriter(stdout));
            cl.setErr(new PrintWriter(stderr));
            int code = cl.execute(args.toArray(String[]::new));
            assertEquals(0, code, () -> "vigil run on a MiniCluster failed: " + stderr);
            Matcher m = Pattern.compile("job finished after (\\d+) ms").matcher(stdout.toString());
            assertTrue(m.find(), () -> "no run time in: " + stdout);
            long ms = Long.parseLong(m.group(1));
            assertTrue(out.awaitAtLeast(SERIES, DECISIONS_TIMEOUT), "decisions of the MiniCluster run");
            DecisionCheck c = DecisionCheck.of(out.arrivals(), test, OFFLINE, idA);
            assertEquals(0, c.lost(), "lost: " + c.lostExamples());
            assertEquals(0, c.duplicated(), "duplicated");
            throughputFigure(
                    "Throughput, MiniCluster in the test JVM (same job, same input, p = 4, job run time)", samples, ms);
        }
    }

    @Test
    @Order(2)
    void exactlyOnceSurvivesAModelHotSwapAndATaskManagerKillWithoutLossOrDuplicates() throws Exception {
        DecisionCheck c = killRun("eo", "exactly-once");
        assertEquals(0, c.lost(), () -> "decisions lost after the kill: " + c.lostExamples());
        assertEquals(0, c.duplicated(), () -> "decisions duplicated after the kill: " + c.duplicateExamples());
        assertEquals(0, c.wrong(), () -> "decisions unlike the offline ones: " + c.wrongExamples());
    }

    @Test
    @Order(3)
    void atLeastOnceSurvivesATaskManagerKillWithoutLoss() throws Exception {
        DecisionCheck c = killRun("alo", "at-least-once");
        assertEquals(0, c.lost(), () -> "decisions lost after the kill: " + c.lostExamples());
        assertEquals(0, c.wrong(), () -> "decisions unlike the offline ones: " + c.wrongExamples());
    }

    /**
     * Replays {@link #SERIES} series while the job runs, kills a TaskManager once decisions flow, starts a
     * replacement, and collects every decision; records recovery time and lost/duplicated counts.
     */
    private DecisionCheck killRun(String name, String delivery) throws Exception {
        String input = name + "-samples";
        String output = name + "-decisions";
        kafka.createTopic(input, PARTITIONS);
        boolean swap = delivery.equals("exactly-once");
        String models = name + "-models";
        List<String> args = jobArgs(modelA, input, output, delivery, name);
        if (swap) {
            publishModel(models, Files.readAllBytes(modelA));
            args.addAll(List.of("--model-topic", models));
        }
        try (DecisionCollector out = new DecisionCollector(kafka.clientProperties(), output)) {
            String job = rest.runJar(jarId, ENTRY_CLASS, args, PARALLELISM, null);
            rest.awaitAllTasksRunning(job, JOB_TIMEOUT);
            CompletableFuture<Replay.Summary> replay = replayAsync(test, input, RATE);
            if (swap) {
                assertTrue(out.awaitAtLeast(SERIES / 10, DECISIONS_TIMEOUT), () -> "decisions before the swap");
                publishModel(models, modelA2);
            }
            assertTrue(
                    out.awaitAtLeast(SERIES / 5, DECISIONS_TIMEOUT),
                    () -> "decisions before the kill: " + out.size() + "; " + rest.exceptions(job));
            FlinkProcessCluster.Node victim = cluster.liveTaskManagers().get(0);
            long killAt = System.currentTimeMillis();
            FlinkProcessCluster.kill(victim);
            int before = out.size();
            cluster.startTaskManager();
            awaitRestart(job, killAt);
            replay.get(DECISIONS_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            Set<String> all = DecisionCheck.seriesIds(test);
            assertTrue(
                    out.awaitSeries(all, d -> true, DECISIONS_TIMEOUT),
                    () -> "not every series decided after the kill; exceptions: " + rest.exceptions(job));
            // Two more checkpoints: duplicates (at-least-once) would show up now.
            Thread.sleep(3_000);
            List<DecisionCollector.Arrival> arrivals = out.arrivals();
            // The last switch to RUNNING: the first attempt after the kill may still pick the dead TaskManager's
            // slots (until its heartbeat times out) and fail once more.
            long runningAgain = rest.job(job).path("timestamps").path("RUNNING").asLong();
            long restarts = rest.jobMetric(job, "numRestarts", METRIC_TIMEOUT);
            assertTrue(restarts >= 1, "the job restarted after the kill: numRestarts " + restarts);
            rest.cancel(job);
            rest.awaitState(job, "CANCELED", JOB_TIMEOUT);
            cluster.awaitTaskManagers(2);
            DecisionCheck c = DecisionCheck.of(arrivals, test, OFFLINE, idA, idA2);
            if (swap) {
                long byA2 = arrivals.stream()
                        .filter(a -> a.decision().model.equals(idA2))
                        .count();
                assertTrue(
                        byA2 > 0 && byA2 < arrivals.size(),
                        "decisions of both models across the swap: " + byA2 + " of " + arrivals.size() + " by A'");
            }
            long firstNew = arrivals.stream()
                    .filter(a -> a.decision().emittedAt >= runningAgain)
                    .mapToLong(a -> a.decision().emittedAt)
                    .min()
                    .orElseThrow();
            long firstNewSeen = arrivals.stream()
                    .filter(a -> a.decision().emittedAt >= runningAgain)
                    .mapToLong(DecisionCollector.Arrival::receivedAt)
                    .min()
                    .orElseThrow();
            FIGURE_LINES.put(
                    "Kill one TaskManager (" + delivery + ", " + SERIES + " series, " + before
                            + " decisions before the kill)",
                    String.format(
                            Locale.ROOT,
                            "%d restart(s), job RUNNING for good %.1f s after the kill; first decision emitted after"
                                    + " that %.1f s after the kill, visible to read_committed %.1f s after the kill;"
                                    + " lost %d, duplicated %d (%d records for %d series)",
                            restarts,
                            (runningAgain - killAt) / 1e3,
                            (firstNew - killAt) / 1e3,
                            (firstNewSeen - killAt) / 1e3,
                            c.lost(),
                            c.duplicated(),
                            arrivals.size(),
                            SERIES));
            return c;
        }
    }

    @Test
    @Order(4)
    void stopWithSavepointResumesWithoutLossOrDuplicatesAndAModelUpgradeRestartsOldSeries() throws Exception {
        String input = "sp-samples";
        String output = "sp-decisions";
        kafka.createTopic(input, PARTITIONS);
        Path savepoints = cluster.home().resolve("savepoints");
        try (DecisionCollector out = new DecisionCollector(kafka.clientProperties(), output)) {
            String v1 = rest.runJar(
                    jarId, ENTRY_CLASS, jobArgs(modelA, input, output, "exactly-once", "sp"), PARALLELISM, null);
            rest.awaitAllTasksRunning(v1, JOB_TIMEOUT);
            CompletableFuture<Replay.Summary> replay = replayAsync(test, input, RATE);
            assertTrue(out.awaitAtLeast(SERIES / 4, DECISIONS_TIMEOUT), "decisions before the first savepoint");
            long t0 = System.nanoTime();
            String sp1 = rest.stopWithSavepoint(v1, savepoints, JOB_TIMEOUT);
            long stopMs = (System.nanoTime() - t0) / 1_000_000;
            int atSp1 = out.size();
            assertTrue(atSp1 < SERIES, "the first savepoint is taken mid-stream: " + atSp1 + " decisions already");
            t0 = System.nanoTime();
            String v2 = rest.runJar(
                    jarId, ENTRY_CLASS, jobArgs(modelA, input, output, "exactly-once", "sp"), PARALLELISM, sp1);
            rest.awaitAllTasksRunning(v2, JOB_TIMEOUT);
            long resumeMs = (System.nanoTime() - t0) / 1_000_000;
            replay.get(DECISIONS_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(
                    out.awaitSeries(DecisionCheck.seriesIds(test), d -> true, DECISIONS_TIMEOUT),
                    () -> "not every series decided after the resume; exceptions: " + rest.exceptions(v2));
            Thread.sleep(3_000);
            DecisionCheck same = DecisionCheck.of(out.arrivals(), test, OFFLINE, idA);
            assertEquals(0, same.lost(), () -> "lost across the savepoint: " + same.lostExamples());
            assertEquals(0, same.duplicated(), () -> "duplicated across the savepoint: " + same.duplicateExamples());
            assertEquals(0, same.wrong(), () -> "unlike the offline decisions: " + same.wrongExamples());
            assertEquals(
                    0,
                    rest.vertexMetricSum(v2, "Reliable early decision", "incompatibleStateRestarts", METRIC_TIMEOUT),
                    "same model: no series restarted");
            FIGURE_LINES.put(
                    "Stop-with-savepoint mid-replay and resume, same model (exactly-once, " + SERIES + " series)",
                    String.format(
                            Locale.ROOT,
                            "%d decisions before the savepoint; stop %.1f s, resume to all tasks running %.1f s; lost %d,"
                                    + " duplicated %d",
                            atSp1,
                            stopMs / 1e3,
                            resumeMs / 1e3,
                            same.lost(),
                            same.duplicated()));

            modelUpgrade(v2, input, output, out, savepoints);
        }
    }

    /** Second half of the savepoint test: stop {@code v2} mid-replay and resume it with model B. */
    private void modelUpgrade(String v2, String input, String output, DecisionCollector out, Path savepoints)
            throws Exception {
        int before = out.size();
        CompletableFuture<Replay.Summary> replay = replayAsync(upgradeTest, input, UPGRADE_RATE);
        assertTrue(out.awaitAtLeast(before + UPGRADE_SERIES / 4, DECISIONS_TIMEOUT), "decisions before the upgrade");
        assertFalse(replay.isDone(), "the upgrade replay still sends when the savepoint is triggered");
        String sp2 = rest.stopWithSavepoint(v2, savepoints, JOB_TIMEOUT);
        assertTrue(out.size() - before < UPGRADE_SERIES, "the second savepoint is taken mid-stream");
        String v3 =
                rest.runJar(jarId, ENTRY_CLASS, jobArgs(modelB, input, output, "exactly-once", "sp"), PARALLELISM, sp2);
        rest.awaitAllTasksRunning(v3, JOB_TIMEOUT);
        replay.get(DECISIONS_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertTrue(out.awaitQuiet(Duration.ofSeconds(5), DECISIONS_TIMEOUT), "decisions still arriving");
        long replayed = rest.vertexMetricSum(v3, "Reliable early decision", "upgradeReplays", METRIC_TIMEOUT);
        long restoredToReplay =
                rest.vertexMetricSum(v3, "Reliable early decision", "upgradeSessionsRestored", METRIC_TIMEOUT);
        long restarted =
                rest.vertexMetricSum(v3, "Reliable early decision", "incompatibleStateRestarts", METRIC_TIMEOUT);
        rest.cancel(v3);
        rest.awaitState(v3, "CANCELED", JOB_TIMEOUT);

        List<DecisionCollector.Arrival> upgrade = out.arrivals().stream()
                .filter(a -> a.decision().series.startsWith(upgradeTest.name() + "/"))
                .toList();
        Map<String, Integer> perSeries = new HashMap<>();
        int byA = 0;
        int byB = 0;
        List<String> wrong = new ArrayList<>();
        for (DecisionCollector.Arrival a : upgrade) {
            DecisionRecord d = a.decision();
            perSeries.merge(d.series, 1, Integer::sum);
            assertTrue(d.model.equals(idA) || d.model.equals(idB), () -> "decision from an unknown model: " + d.model);
            if (d.model.equals(idA)) {
                byA++;
            } else {
                byB++;
            }
            DecisionRecord expected = OFFLINE.get(d.model).get(d.series);
            if (!DecisionCheck.same(expected, d)) {
                wrong.add(d.series + " " + d.model + " t=" + d.t + " " + d.label + " (offline t=" + expected.t + " "
                        + expected.label + ")");
            }
        }
        assertEquals(List.of(), wrong, "every decision equals the offline decision of the model it names");
        List<String> twice = perSeries.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .toList();
        assertEquals(List.of(), twice, "no series decided twice across the upgrade");
        assertTrue(byA > 0 && byB > 0, "decisions of both models: " + byA + " by A, " + byB + " by B");
        int undecided = UPGRADE_SERIES - perSeries.size();
        assertEquals(0, undecided, "every series decided across the upgrade");
        assertEquals(0, restarted, "no restored session had to be discarded");
        assertTrue(restoredToReplay > 0, "undecided sessions of model A restored at the upgrade: " + restoredToReplay);
        assertTrue(replayed > 0, "series in flight at the upgrade savepoint were replayed: " + replayed);
        long logged = cluster.loggedReplays(v3);
        assertEquals(
                restoredToReplay,
                logged,
                "the sessions counted at restore, as logged by the TaskManagers, match the metric");
        // A restored session is replayed when next touched (a sample or its expiry): never more than restored.
        assertTrue(
                replayed <= restoredToReplay,
                "replayed " + replayed + " of the " + restoredToReplay + " restored undecided sessions");
        assertTrue(
                restoredToReplay <= 2L * CONCURRENCY,
                "at most the series in flight were restored: " + restoredToReplay);
        FIGURE_LINES.put(
                "Model upgrade by savepoint (" + UPGRADE_SERIES + " more series, resumed with model B)",
                String.format(
                        Locale.ROOT,
                        "%d decided by model A before the savepoint, %d by model B after it, %d undecided sessions"
                                + " of model A restored (metric and log), %d of them replayed under model B from their"
                                + " stored prefix when the metric was read, %d series left undecided, 0 mixed",
                        byA,
                        byB,
                        restoredToReplay,
                        replayed,
                        undecided));
    }

    /** Publishes a model file to a model topic as {@code vigil publish-model} does. */
    private static void publishModel(String topic, byte[] model) {
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), JOB_TIMEOUT)) {
            ModelTopic.prepare(k, topic, model.length);
        }
        ModelTopic.publish(kafka.bootstrapServers(), Map.of(), topic, model, JOB_TIMEOUT);
    }

    private static List<String> jobArgs(Path model, String input, String output, String delivery, String name) {
        return new ArrayList<>(List.of(
                "--model",
                model.toAbsolutePath().toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                input,
                "--output",
                output,
                "--dead-letter",
                name + "-dead",
                "--delivery",
                delivery,
                "--parallelism",
                Integer.toString(PARALLELISM),
                "--checkpoint-interval",
                "1s",
                "--group-id",
                "vigil-" + name,
                "--transactional-id-prefix",
                "vigil-" + name));
    }

    private static CompletableFuture<Replay.Summary> replayAsync(Dataset data, String topic, double rate) {
        return CompletableFuture.supplyAsync(() -> Replay.run(
                data,
                Replay.Split.TEST,
                new Replay.Settings(topic, null, rate, CONCURRENCY, 1),
                kafka.clientProperties(),
                Progress.none()));
    }

    /** Waits until the job is RUNNING again after {@code killAt}. */
    private static void awaitRestart(String job, long killAt) throws Exception {
        long deadline = System.nanoTime() + JOB_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode j = rest.job(job);
            long running = j.path("timestamps").path("RUNNING").asLong();
            if ("RUNNING".equals(j.path("state").asText()) && running > killAt) {
                return;
            }
            if ("FAILED".equals(j.path("state").asText())) {
                fail("job failed after the kill: " + rest.exceptions(job));
            }
            Thread.sleep(100);
        }
        fail("job not RUNNING again within " + JOB_TIMEOUT + ": " + rest.exceptions(job));
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.0f s", nanos / 1e9);
    }

    private static void throughputFigure(String label, long samples, long ms) {
        FIGURE_LINES.put(
                label,
                String.format(
                        Locale.ROOT, "%,d samples in %.1f s = %,.0f samples/s", samples, ms / 1e3, samples * 1e3 / ms));
    }
}
