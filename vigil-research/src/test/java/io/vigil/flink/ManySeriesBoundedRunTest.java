package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.bench.InterleavedLoad;
import io.vigil.cli.VigilCli;
import io.vigil.early.EarlyFixtures;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.StreamFixtures;
import io.vigil.util.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The scale scenario in CI: 100,000 series × 8 samples, interleaved, in a 2-partition topic, through {@code
 * vigil run --bounded} on the embedded job with the heap state backend (state far above the 5 MB JobManager memory
 * limit), exactly once; a read_committed consumer sees exactly one record per series, decided or undecided.
 */
class ManySeriesBoundedRunTest {
    private static final int SERIES = 100_000;
    private static final int SAMPLES = 8;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyOneOfAHundredThousandSeriesGetsExactlyOneRecord() throws Exception {
        Path model = dir.resolve("cbf.model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        try (LoopbackKafka kafka =
                LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(2))) {
            kafka.createTopic("big", 2);
            kafka.createTopic("out", 2);
            kafka.createTopic("dl", 1);
            InterleavedLoad.produce(
                    kafka.clientProperties(), "big", "s", StreamFixtures.TEST, SERIES, SAMPLES, 2, Progress.none());
            StringWriter err = new StringWriter();
            CommandLine cl = VigilCli.commandLine();
            cl.setErr(new PrintWriter(err));
            cl.setOut(new PrintWriter(new StringWriter()));
            int code = cl.execute(
                    "run",
                    "--model",
                    model.toString(),
                    "--bootstrap",
                    kafka.bootstrapServers(),
                    "--input",
                    "big",
                    "--output",
                    "out",
                    "--dead-letter",
                    "dl",
                    "--bounded",
                    "--state-dir",
                    dir.resolve("state").toString(),
                    "--state-backend",
                    "hashmap");
            assertEquals(0, code, err::toString);

            Map<String, Object> p = new HashMap<>(kafka.clientProperties());
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
            Map<String, Integer> perSeries = new HashMap<>();
            Map<String, Integer> perStatus = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> r :
                    KafkaTestSupport.<byte[], byte[]>readTopic(p, "out", SERIES, Duration.ofSeconds(120))) {
                JsonNode j = MAPPER.readTree(r.value());
                perSeries.merge(j.get("series").asText(), 1, Integer::sum);
                perStatus.merge(j.get("status").asText(), 1, Integer::sum);
                if ("undecided".equals(j.get("status").asText())) {
                    assertEquals(SAMPLES, j.get("t").asInt(), j::toString);
                }
            }
            assertEquals(SERIES, perSeries.size(), () -> "series with a record; statuses " + perStatus);
            assertTrue(perSeries.values().stream().allMatch(n -> n == 1), () -> "a series got two records");
            for (int i = 0; i < SERIES; i++) {
                assertTrue(perSeries.containsKey(InterleavedLoad.seriesId("s", i)), "no record for series " + i);
            }
            assertEquals(
                    SERIES,
                    perStatus.getOrDefault("decided", 0) + perStatus.getOrDefault("undecided", 0),
                    perStatus::toString);
        }
    }
}
