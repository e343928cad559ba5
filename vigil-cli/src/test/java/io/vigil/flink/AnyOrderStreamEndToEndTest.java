package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.cli.VigilCli;
import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.Decision;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyReplay;
import io.vigil.early.PatternReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SubsetState;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.SeriesId;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.MultiChannelFixtures;
import io.vigil.stream.StreamJson;
import io.vigil.util.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stream ≡ offline evaluation, series by series, for multichannel data with values missing at random and arrival
 * shuffled: {@code vigil replay}'s publisher sends each series' observed values (one record per value, {@code
 * channel} set) in the pattern's order and an end record for each series that lost values; {@code vigil run
 * --bounded} on an embedded MiniCluster over Apache Kafka's own broker on loopback decides every series exactly as
 * {@link PatternReplay} of the same values in the same order does, on the heap and on the RocksDB state backend.
 */
class AnyOrderStreamEndToEndTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * On either state backend (under RocksDB every session is read back per record: conditioned-state cache), and with
     * the per-class mixture as the complete-series estimator (its any-order form, thesis 5.20 on the observed set).
     * The fraction missing is chosen so that both early and incomplete decisions occur: the mixture, whose class
     * posterior sharpens within a few dozen values of this well separated fixture, needs fewer values and a stricter τ
     * to leave some series undecided until their end record.
     */
    @ParameterizedTest
    @CsvSource({"hashmap, joint, 0.9, 0.85", "rocksdb, joint, 0.9, 0.85", "hashmap, gmm, 0.999, 0.97"})
    void missingValuesInShuffledOrderDecideInTheStreamAsOffline(
            String backend, String estimator, double tau, double missing) throws Exception {
        Dataset test = MultiChannelFixtures.TEST;
        // A mix of series decided early on their few values and series decided incomplete at their end.
        ObservationPattern pattern = ObservationPattern.builder()
                .missing(missing)
                .shuffled(true)
                .seed(4)
                .build();
        Path model = dir.resolve("multi.model.json");
        ModelFile.standard().save(EarlyFixtures.MultiChannel.MODEL, model);
        try (LoopbackKafka kafka =
                LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(2))) {
            String samples = "any-samples";
            kafka.createTopic(samples, 2);
            Replay.Summary sent = Replay.run(
                    test,
                    Replay.Split.TEST,
                    new Replay.Settings(samples, null, 0, 7, 1, pattern),
                    kafka.clientProperties(),
                    Progress.none());
            assertEquals(
                    Replay.records(test, Replay.Split.TEST, new Replay.Settings(samples, null, 0, 7, 1, pattern)),
                    sent.samples());
            String printed = run(
                    "run",
                    "--json",
                    "--model",
                    model.toString(),
                    "--bootstrap",
                    kafka.bootstrapServers(),
                    "--input",
                    samples,
                    "--output",
                    "any-decisions",
                    "--dead-letter",
                    "any-dead",
                    "--bounded",
                    "--parallelism",
                    "2",
                    "--checkpoint-interval",
                    "500ms",
                    "--delivery",
                    "exactly-once",
                    "--state-backend",
                    backend,
                    "--estimator",
                    estimator,
                    "--tau",
                    Double.toString(tau),
                    "--state-dir",
                    dir.resolve("state").toString());
            int n = test.size();
            Map<String, Object> props = new HashMap<>(kafka.clientProperties());
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            List<ConsumerRecord<byte[], byte[]>> records =
                    KafkaTestSupport.readTopic(props, "any-decisions", n, READ_TIMEOUT);
            Map<String, DecisionRecord> byId = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : records) {
                DecisionRecord d = StreamJson.readDecision(r.value());
                assertNull(byId.put(d.series, d), "second record for " + d.series);
            }
            assertEquals(n, byId.size());

            EarlyClassifier c = MultiChannelFixtures.classifier(DecisionParams.defaults()
                    .withEstimator(EstimatorType.fromId(estimator))
                    .withTau(tau));
            EarlyClassifier.Workspace ws = c.newWorkspace();
            SubsetState state = c.newSubsetState();
            Decision want = Decision.withReliability();
            List<SeriesDecision> evaluated =
                    EarlyReplay.run(c, test, pattern, test.name() + "/test/").decisions();
            int incomplete = 0;
            int early = 0;
            for (int i = 0; i < n; i++) {
                String id = new SeriesId(test.name(), "test", i, 0).toString();
                int[] order = pattern.order(id, c.channels(), c.length());
                boolean byRule = PatternReplay.decide(c, state, test.series(i), order, ws, want);
                DecisionRecord got = byId.get(id);
                String what = id + " (" + order.length + " values observed)";
                assertEquals(DecisionRecord.DECIDED, got.status, what);
                assertEquals(c.classNames().get(want.label()), got.label, what);
                assertEquals(want.position(), got.t, what);
                assertEquals(evaluated.get(i).t(), got.t, what + ": t as evaluate reports it");
                assertEquals(c.classNames().get(evaluated.get(i).label()), got.label, what);
                assertEquals(want.time() + 1, got.triggerT, what);
                assertEquals(c.model().channelNames().get(want.channel()), got.triggerChannel, what);
                assertEquals(want.observedFraction(), got.observedFraction, what);
                assertEquals(byRule, got.complete, what);
                assertEquals(want.reliability(), got.reliability, 1e-9, what);
                incomplete += got.complete ? 0 : 1;
                early += got.early ? 1 : 0;
            }
            assertTrue(
                    incomplete > 0 && early > 0, incomplete + " incomplete, " + early + " early: both kinds covered");
            JsonNode summary = new ObjectMapper().readTree(printed);
            assertEquals(early, summary.get("decided_early").asLong(), printed);
            assertEquals(incomplete, summary.get("decided_incomplete").asLong(), printed);
            assertEquals(n - early - incomplete, summary.get("decided_complete").asLong(), printed);
            assertEquals(0, summary.get("undecided").asLong(), printed);
            assertTrue(
                    KafkaTestSupport.readTopic(props, "any-dead", 0, Duration.ofSeconds(2))
                            .isEmpty(),
                    "nothing dead-lettered");
        }
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = VigilCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        assertEquals(0, code, () -> "vigil " + String.join(" ", args) + " failed: " + err + out);
        return out.toString();
    }
}
