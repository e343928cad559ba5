package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientPropertiesTest {

    @Test
    void recognisesSecretsByNameAndByKafkaPasswordType() {
        for (String key : new String[] {
            "sasl.jaas.config",
            "ssl.keystore.password",
            "ssl.key.password",
            "ssl.truststore.password",
            "SSL.TRUSTSTORE.PASSWORD",
            "sasl.oauthbearer.client.credentials.client.secret",
            "sasl.oauthbearer.assertion.private.key.passphrase",
            "ssl.keystore.key",
            "producer.ssl.keystore.key",
            "listener.name.sasl_ssl.plain.sasl.jaas.config",
            "basic.auth.credentials.source",
            "my.api.secret"
        }) {
            assertTrue(KafkaClientProperties.isSecret(key), key);
        }
        for (String key : new String[] {
            "bootstrap.servers", "security.protocol", "sasl.mechanism", "ssl.truststore.location", "linger.ms"
        }) {
            assertFalse(KafkaClientProperties.isSecret(key), key);
        }
    }

    @Test
    void masksOnlySecretValues() {
        Map<String, String> m = KafkaClientProperties.masked(
                Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", "x password=\"p\";", "acks", "all"));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", "[hidden]", "acks", "all"), m);
    }

    @Test
    void loadsAPropertiesFileVerbatim(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("c.properties");
        Files.writeString(f, "# comment\nsecurity.protocol=SASL_SSL\nsasl.mechanism = PLAIN\nlinger.ms: 7\n");
        assertEquals(
                Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN", "linger.ms", "7"),
                KafkaClientProperties.load(f));
    }

    @Test
    void missingFileIsNamed(@TempDir Path dir) {
        Path f = dir.resolve("absent.properties");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> KafkaClientProperties.load(f));
        assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
    }
}
