package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.Certification;
import io.vigil.early.DecisionOverrides;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operating point that is not certified decides every series only at t = d; {@code inspect}'s text, {@code vigil
 * run}'s start line and {@code --require-certified} say so (they used to print "tau 0.9" as for any model).
 */
class UncertifiedIsLoudTest {
    private static final String NEVER_EARLY = "NOT CERTIFIED: decides only at t = d (never early)";

    private static LoopbackKafka kafka;

    /** 30 CBF training series: tau 0.5 is certified on them, 0.999 is not. */
    private static TrainedCbf trained;

    /** Stored operating point at a target no 30 series can certify. */
    private static TrainedCbf uncertified;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        trained = TrainedCbf.of(30, 20, 5L, TrainedCbf.FIXED);
        List<String> flags = new ArrayList<>(TrainedCbf.FIXED);
        flags.addAll(List.of("--objective", "earliest-at-reliability", "--target-reliability", "0.995"));
        uncertified = TrainedCbf.of(30, 20, 5L, flags);
        kafka = LoopbackKafka.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void inspectTextSaysWhetherTheOperatingPointIsCertified() throws IOException {
        VigilModel m = ModelFile.standard().load(uncertified.model());
        CalibrationSection.OperatingPoint p =
                DecisionOverrides.operatingPoint(m).orElseThrow();
        assertFalse(p.certified(), "0.995 on 30 series: " + uncertified.train().err());
        String text = Run.of("inspect", uncertified.model().toString()).ok().out();
        assertTrue(text.contains("operating point   earliest-at-reliability objective, rule "), text);
        assertTrue(text.contains("tau " + p.tau() + " " + NEVER_EARLY), text);

        VigilModel good = ModelFile.standard().load(trained.model());
        Certification c = Certification.of(good, DecisionOverrides.none().resolve(good));
        String goodText = Run.of("inspect", trained.model().toString()).ok().out();
        assertTrue(goodText.contains(c.describe()), goodText);
        assertEquals(
                DecisionOverrides.operatingPoint(good).orElseThrow().certified(),
                goodText.contains("certified (pac)"),
                goodText);
        assertFalse(goodText.contains("NOT CERTIFIED") && c.certified(), goodText);
    }

    @Test
    void requireCertifiedRefusesAModelThatDecidesOnlyAtTheEnd() {
        Run r = Run.of(run("uc", "--tau", "0.999", "--require-certified"));
        assertEquals(1, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(
                r.err()
                        .contains("vigil run: --require-certified: " + trained.model() + "'s operating point at tau "
                                + "0.999 is not certified (the training set could not certify it), so every series is "
                                + "decided only at t = d, never early; lower --tau"),
                r.err());
    }

    @Test
    void theStartLineSaysWhetherTheTauIsCertified() throws IOException {
        VigilModel m = ModelFile.standard().load(trained.model());
        assertTrue(Certification.of(m, DecisionOverrides.none().withTau(0.5).resolve(m))
                .certified());
        produce("loud-in");
        produce("never-in");

        Run certified = Run.of(run("loud", "--tau", "0.5", "--require-certified"));
        assertEquals(0, certified.exit(), certified.err());
        assertTrue(
                certified.err().contains(" at " + kafka.bootstrapServers() + ", tau 0.5 certified (pac), "),
                certified.err());
        assertFalse(certified.err().contains("warning"), certified.err());

        Run never = Run.of(run("never", "--tau", "0.999"));
        assertEquals(0, never.exit(), never.err());
        assertTrue(never.err().contains(", tau 0.999 " + NEVER_EARLY + ", "), never.err());
        assertTrue(
                never.err()
                        .contains("vigil run: warning: " + trained.model() + "'s operating point at tau 0.999 "
                                + "is not certified"),
                never.err());
        assertFalse(
                Certification.of(m, DecisionOverrides.none().withTau(0.999).resolve(m))
                        .certified(),
                "as the start line says");
    }

    /** A topic with two series of 128 samples each (any values: the test is about the lines, not the labels). */
    private static void produce(String topic) {
        kafka.createTopic(topic, 1);
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int s = 0; s < 2; s++) {
                String id = topic + "/" + s;
                for (int t = 1; t <= 128; t++) {
                    producer.send(new ProducerRecord<>(
                            topic, SampleRecord.key(id), SampleRecord.encode(id, t, Math.sin(t / 10.0 + s))));
                }
            }
        }
    }

    private List<String> run(String name, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--model",
                trained.model().toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                name + "-in",
                "--output",
                name + "-out",
                "--dead-letter",
                name + "-dead",
                "--state-dir",
                dir.resolve(name).toString(),
                "--bounded",
                "--preflight-timeout",
                "5s",
                "--checkpoint-interval",
                "1s"));
        a.addAll(List.of(more));
        return a;
    }
}
