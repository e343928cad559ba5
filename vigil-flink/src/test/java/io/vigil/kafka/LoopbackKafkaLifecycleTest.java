package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start, stop and restart: temp storage is removed, a given directory keeps its topics across restarts. */
class LoopbackKafkaLifecycleTest {

    @Test
    void tempStorageIsDeletedOnClose() {
        Path dir;
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            dir = kafka.dir();
            assertTrue(Files.exists(dir.resolve("meta.properties")), "storage formatted in " + dir);
        }
        assertFalse(Files.exists(dir), dir + " still exists after close");
    }

    @Test
    void givenDirectoryKeepsTopicsAcrossRestarts(@TempDir Path dir) throws Exception {
        Path storage = dir.resolve("kafka");
        LoopbackKafka.Settings settings = LoopbackKafka.Settings.defaults().withDir(storage);
        try (LoopbackKafka kafka = LoopbackKafka.start(settings)) {
            kafka.createTopic("kept", 2);
        }
        assertTrue(Files.exists(storage.resolve("meta.properties")), "storage kept after close");
        try (LoopbackKafka kafka = LoopbackKafka.start(settings);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            Set<String> topics = admin.listTopics().names().get();
            assertTrue(topics.contains("kept"), "topics after restart: " + topics);
            assertEquals(
                    2,
                    admin.describeTopics(Set.of("kept"))
                            .allTopicNames()
                            .get()
                            .get("kept")
                            .partitions()
                            .size());
        }
    }
}
