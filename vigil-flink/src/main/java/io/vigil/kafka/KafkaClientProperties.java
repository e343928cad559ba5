package io.vigil.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Kafka client properties supplied by the user ({@code --kafka-properties FILE}): loaded verbatim and passed
 * through to the clients, so SASL, SSL and any other client setting work without code changes. Secret values
 * never appear in output or logs: {@link #masked} replaces them with {@value #HIDDEN}.
 */
public final class KafkaClientProperties {
    /** What a secret value is shown as. */
    public static final String HIDDEN = "[hidden]";

    /** Key fragments that mark a secret (case-insensitive), whatever the client or prefix. */
    private static final String[] SECRET_FRAGMENTS = {"password", "secret", "jaas", "passphrase", "credential"};

    /** Keys Kafka itself types as passwords (e.g. {@code ssl.keystore.key}, a PEM private key). */
    private static final Set<String> PASSWORD_KEYS = passwordKeys();

    private KafkaClientProperties() {}

    /**
     * Reads a Java properties file.
     *
     * @throws IOException when the file is missing or unreadable, naming the file
     */
    public static Map<String, Object> load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "Kafka properties file not found");
        } catch (IllegalArgumentException e) { // malformed \\uXXXX escape
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        Map<String, Object> out = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            out.put(name, p.getProperty(name));
        }
        return out;
    }

    /** Whether {@code key} holds a secret: it names a password, secret, JAAS config or a Kafka password type. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        for (String fragment : SECRET_FRAGMENTS) {
            if (k.contains(fragment)) {
                return true;
            }
        }
        for (String pw : PASSWORD_KEYS) {
            if (k.equals(pw) || k.endsWith("." + pw)) {
                return true;
            }
        }
        return false;
    }

    /** The properties sorted by key, each secret value replaced by {@value #HIDDEN}: safe to print or log. */
    public static Map<String, String> masked(Map<String, ?> props) {
        Map<String, String> out = new TreeMap<>();
        props.forEach((k, v) -> out.put(k, isSecret(k) ? HIDDEN : String.valueOf(v)));
        return out;
    }

    private static Set<String> passwordKeys() {
        Set<String> keys = new HashSet<>();
        for (ConfigDef def : new ConfigDef[] {ProducerConfig.configDef(), ConsumerConfig.configDef()}) {
            def.configKeys().forEach((name, key) -> {
                if (key.type == ConfigDef.Type.PASSWORD) {
                    keys.add(name);
                }
            });
        }
        return Set.copyOf(keys);
    }
}
