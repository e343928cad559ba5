package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The parts of {@link Replay} that need no broker (the publishing itself is tested end to end in the CLI test). */
class ReplayTest {

    @Test
    void producerConfigLayersDefaultsUserAndRequirements() {
        Map<String, Object> c = Replay.producerConfig(
                Map.of("bootstrap.servers", "h:1", "linger.ms", "3", "key.serializer", "x.Y", "acks", "-1"));
        assertEquals("h:1", c.get("bootstrap.servers"));
        assertEquals("3", c.get("linger.ms"), "user tuning wins over defaults");
        assertEquals(128 * 1024, c.get(ProducerConfig.BATCH_SIZE_CONFIG), "default kept where the user is silent");
        assertEquals(ByteArraySerializer.class.getName(), c.get("key.serializer"), "serializers are fixed");
        assertEquals("all", c.get("acks"));
        assertEquals(true, c.get("enable.idempotence"));
    }

    @Test
    void producerConfigRefusesWeakerDelivery() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Replay.producerConfig(Map.of("bootstrap.servers", "h:1", "enable.idempotence", "false")));
        assertTrue(e.getMessage().startsWith("enable.idempotence=false is not allowed"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Replay.producerConfig(Map.of("bootstrap.servers", "h:1", "acks", "0")));
        assertThrows(IllegalArgumentException.class, () -> Replay.producerConfig(Map.of("linger.ms", "1")));
    }

    @Test
    void settingsAreValidatedNamingTheReplayOptions() {
        assertEquals("--topic must not be blank", settingsError(" ", null, 0, 1, 1));
        assertEquals("--truth-topic must be non-blank and differ from --topic", settingsError("s", "s", 0, 1, 1));
        assertEquals("--rate must be >= 0 samples/s (0 = unlimited), got -1.0", settingsError("s", null, -1, 1, 1));
        assertEquals(
                "--rate must be >= 0 samples/s (0 = unlimited), got NaN", settingsError("s", null, Double.NaN, 1, 1));
        assertEquals("--concurrency must be at least 1, got 0", settingsError("s", null, 0, 0, 1));
        assertEquals("--repeat must be at least 1, got 0", settingsError("s", null, 0, 1, 0));
    }

    private static String settingsError(String topic, String truth, double rate, int concurrency, int repeat) {
        return assertThrows(
                        IllegalArgumentException.class,
                        () -> new Replay.Settings(topic, truth, rate, concurrency, repeat))
                .getMessage();
    }

    /**
     * {@link Replay#counts}: the values each series' own pattern observes (ids with their pass), one end record per
     * series that lost values, and the series with a value at all.
     */
    @Test
    void countsAreThePatternsValuesAndAnEndRecordPerSeriesThatLostValues() {
        double[][] rows = new double[4][10];
        Dataset data = Dataset.of("D", rows, new String[] {"a", "b", "a", "b"});
        assertEquals(
                new Replay.Counts(80, 0, 8),
                Replay.counts(data, Replay.Split.TEST, new Replay.Settings("s", null, 0, 1, 2)));
        ObservationPattern missing =
                ObservationPattern.builder().seed(3).missing(0.5).build();
        long values = 0;
        long ends = 0;
        for (int pass = 1; pass <= 2; pass++) {
            for (int i = 0; i < 4; i++) {
                int observed = missing.order(new SeriesId("D", "train", i, pass).toString(), 1, 10).length;
                values += observed;
                ends += observed < 10 ? 1 : 0;
            }
        }
        assertTrue(values > 0 && values < 80 && ends > 0, values + " values, " + ends + " end records");
        Replay.Counts counts =
                Replay.counts(data, Replay.Split.TRAIN, new Replay.Settings("s", null, 0, 1, 2, missing));
        assertEquals(new Replay.Counts(values, ends, 8), counts);
        assertEquals(values + ends, counts.records());
        assertEquals(
                new Replay.Counts(0, 4, 0),
                Replay.counts(
                        data,
                        Replay.Split.TEST,
                        new Replay.Settings(
                                "s",
                                null,
                                0,
                                1,
                                1,
                                ObservationPattern.builder().drop(0).build())),
                "a series that lost every value is only its end record");
    }
}
