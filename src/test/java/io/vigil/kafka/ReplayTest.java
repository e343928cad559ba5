package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings(" ", null, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings("s", "s", 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings("s", null, -1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings("s", null, Double.NaN, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings("s", null, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Replay.Settings("s", null, 0, 1, 0));
    }
}
