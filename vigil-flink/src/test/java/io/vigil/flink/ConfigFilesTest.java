package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.kafka.KafkaClientProperties;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.metrics.prometheus.PrometheusReporterFactory;
import org.apache.flink.util.PortRange;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The files in {@code config/} are what their README says: valid for Flink 2.2, Log4j 2 and Kafka clients. */
public class ConfigFilesTest {
    private static final Path CONFIG = Path.of("config");

    private static final List<Class<?>> FLINK_OPTIONS = List.of(
            CoreOptions.class,
            JobManagerOptions.class,
            TaskManagerOptions.class,
            RestOptions.class,
            StateBackendOptions.class,
            CheckpointingOptions.class,
            RestartStrategyOptions.class,
            ExecutionOptions.class,
            PipelineOptions.class);

    /** Loads config/flink/config.yaml with Flink's own loader, as a cluster started with it would. */
    private static Configuration flinkConfig() {
        return GlobalConfiguration.loadConfiguration(
                CONFIG.resolve("flink").toAbsolutePath().toString());
    }

    /** Keys of Flink's options (current names only) and, separately, their deprecated and fallback names. */
    public static Set<String> flinkKeys(boolean deprecatedOnes) throws IllegalAccessException {
        Set<String> current = new HashSet<>();
        Set<String> deprecated = new HashSet<>();
        for (Class<?> options : FLINK_OPTIONS) {
            for (Field field : options.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                    ConfigOption<?> option = (ConfigOption<?>) field.get(null);
                    current.add(option.key());
                    for (FallbackKey fallback : option.fallbackKeys()) {
                        deprecated.add(fallback.getKey());
                    }
                }
            }
        }
        return deprecatedOnes ? deprecated : current;
    }

    @Test
    void flinkConfigUsesOnlyCurrentFlinkKeys() throws IllegalAccessException {
        Set<String> current = flinkKeys(false);
        Set<String> deprecated = flinkKeys(true);
        Set<String> keys = new TreeSet<>(flinkConfig().keySet());
        assertTrue(keys.size() >= 15, "config.yaml was read: " + keys);
        for (String key : keys) {
            if (key.startsWith(PROMETHEUS_REPORTER)) {
                continue; // a reporter's own keys: checked by prometheusReporterIsFlinksAndScrapedWherePrometheusLooks
            }
            assertTrue(
                    current.contains(key),
                    key + (deprecated.contains(key) ? " is a deprecated Flink key" : " is not a Flink 2.2 key"));
        }
    }

    /** Key prefix of the cluster's Prometheus reporter in config.yaml. */
    private static final String PROMETHEUS_REPORTER = "metrics.reporter.prom.";

    @Test
    void prometheusReporterIsFlinksAndScrapedWherePrometheusLooks() throws Exception {
        Configuration config = flinkConfig();
        Set<String> keys = new TreeSet<>();
        for (String key : config.keySet()) {
            if (key.startsWith(PROMETHEUS_REPORTER)) {
                keys.add(key.substring(PROMETHEUS_REPORTER.length()));
            }
        }
        assertEquals(Set.of("factory.class", "port"), keys);
        String factory = config.getString(PROMETHEUS_REPORTER + "factory.class", "");
        assertEquals(
                PrometheusReporterFactory.class.getName(),
                Class.forName(factory).getName());
        PortRange ports = new PortRange(config.getString(PROMETHEUS_REPORTER + "port", ""));
        assertEquals(9249, ports.getPortsIterator().next(), "the first port is the one each container reports on");
        String scrape = Files.readString(CONFIG.resolve("prometheus/prometheus.yml"));
        for (String target : List.of("jobmanager:9249", "taskmanager-1:9249", "taskmanager-2:9249")) {
            assertTrue(scrape.contains("\"" + target + "\""), "prometheus.yml scrapes " + target);
        }
    }

    @Test
    void flinkConfigFitsTheDemo() {
        Configuration config = flinkConfig();
        assertEquals(2, config.get(TaskManagerOptions.NUM_TASK_SLOTS));
        assertEquals(2, config.get(CoreOptions.DEFAULT_PARALLELISM));
        assertEquals("hashmap", config.get(StateBackendOptions.STATE_BACKEND));
        assertEquals("fixed-delay", config.get(RestartStrategyOptions.RESTART_STRATEGY));
        assertEquals(MemorySize.parse("1024m"), config.get(JobManagerOptions.TOTAL_PROCESS_MEMORY));
        assertEquals(MemorySize.parse("1280m"), config.get(TaskManagerOptions.TOTAL_PROCESS_MEMORY));
        assertEquals(Duration.ofSeconds(10), config.get(CheckpointingOptions.CHECKPOINTING_INTERVAL));
        assertTrue(config.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY).startsWith("file:///"));
        assertEquals("127.0.0.1", config.get(RestOptions.BIND_ADDRESS));
        assertEquals(8081, config.get(RestOptions.PORT));
        String javaOpts = config.get(CoreOptions.FLINK_JVM_OPTIONS);
        for (String needed : List.of(
                "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-exports=java.base/sun.net.util=ALL-UNNAMED")) {
            assertTrue(javaOpts.contains(needed), "env.java.opts.all has " + needed);
        }
    }

    @Test
    void log4jConfigKeepsKafkaAndFlinkAtWarn() throws Exception {
        var document = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(CONFIG.resolve("log4j2.xml").toFile());
        NodeList loggers = document.getElementsByTagName("Logger");
        Map<String, String> levels = new HashMap<>();
        for (int i = 0; i < loggers.getLength(); i++) {
            Element logger = (Element) loggers.item(i);
            levels.put(logger.getAttribute("name"), logger.getAttribute("level"));
        }
        assertEquals("WARN", levels.get("org.apache.kafka"));
        assertEquals("WARN", levels.get("org.apache.flink"));
        assertEquals(1, document.getElementsByTagName("Console").getLength());
    }

    @Test
    void kafkaPropertiesAreClientSettingsWithPlaceholderSecrets() throws IOException {
        Set<String> known = ProducerConfig.configNames();
        for (String name : List.of("kafka-plain.properties", "kafka-sasl-ssl.properties")) {
            Map<String, Object> properties = KafkaClientProperties.load(CONFIG.resolve(name));
            assertTrue(!properties.isEmpty(), name);
            for (Map.Entry<String, Object> e : properties.entrySet()) {
                assertTrue(known.contains(e.getKey()), name + ": " + e.getKey() + " is a Kafka client setting");
                String value = e.getValue().toString();
                assertTrue(
                        !KafkaClientProperties.isSecret(e.getKey()) || value.contains("CHANGE-ME"),
                        name + ": " + e.getKey() + " is a placeholder");
            }
        }
    }
}
