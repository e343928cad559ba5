package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vigil.flink.ConfigFilesTest;
import io.vigil.flink.cli.JobFile;
import io.vigil.flink.cli.JobFilesTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * docker-compose.yml agrees with the build: image versions match pom.xml, every host path it mounts exists, and every
 * file it names inside the containers comes from a mount (a jar the build produces, a job or config file).
 */
class ComposeFileTest {
    private static final Path COMPOSE = Path.of("docker-compose.yml");
    private static final Pattern VIGIL_PATH = Pattern.compile("/opt/vigil/[A-Za-z0-9._/-]+");

    private static JsonNode compose;
    private static Document pom;

    /** One bind or volume mount of a service: {@code source:target[:mode]}. */
    record Mount(String source, String target) {
        boolean isBind() {
            return source.startsWith("./") || source.startsWith("/");
        }
    }

    @BeforeAll
    static void read() throws Exception {
        compose = new ObjectMapper(new YAMLFactory()).readTree(COMPOSE.toFile());
        pom = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(Path.of("pom.xml").toFile());
    }

    private static String pomProperty(String name) {
        NodeList nodes = pom.getElementsByTagName(name);
        assertEquals(1, nodes.getLength(), "pom.xml defines <" + name + "> once");
        return nodes.item(0).getTextContent().strip();
    }

    /** Names of the jars the modules' shade executions write to the root's target/ (their outputFile). */
    private static Set<String> builtJars() throws Exception {
        Set<String> jars = new HashSet<>();
        for (String module : List.of("vigil-flink", "vigil-dist")) {
            NodeList outputs = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(Path.of(module, "pom.xml").toFile())
                    .getElementsByTagName("outputFile");
            for (int i = 0; i < outputs.getLength(); i++) {
                String output = outputs.item(i).getTextContent().strip();
                if (output.endsWith(".jar")) {
                    assertTrue(output.startsWith("${maven.multiModuleProjectDirectory}/target/"), output);
                    jars.add(output.substring(output.lastIndexOf('/') + 1));
                }
            }
        }
        assertTrue(jars.containsAll(Set.of("vigil.jar", "vigil-flink-job.jar")), "shaded jars: " + jars);
        return jars;
    }

    private static Iterable<Map.Entry<String, JsonNode>> services() {
        JsonNode services = compose.get("services");
        assertNotNull(services, "docker-compose.yml has services");
        return services::fields;
    }

    private static List<Mount> mounts(JsonNode service) {
        List<Mount> mounts = new ArrayList<>();
        for (JsonNode volume : service.path("volumes")) {
            String[] parts = volume.asText().split(":");
            assertTrue(parts.length >= 2, "volume " + volume.asText() + " has source:target");
            mounts.add(new Mount(parts[0], parts[1]));
        }
        return mounts;
    }

    /** Every text in a service's command, entrypoint and environment. */
    private static String texts(JsonNode service) {
        StringBuilder text = new StringBuilder();
        for (String field : List.of("command", "entrypoint", "environment")) {
            JsonNode node = service.path(field);
            if (node.isTextual()) {
                text.append(node.asText()).append('\n');
            }
            for (JsonNode element : node) {
                text.append(element.asText()).append('\n');
            }
        }
        return text.toString();
    }

    @Test
    void imagesMatchThePomVersions() {
        String flink = pomProperty("flink.version");
        String kafka = pomProperty("kafka.version");
        int flinkImages = 0;
        int kafkaImages = 0;
        for (Map.Entry<String, JsonNode> service : services()) {
            String image = service.getValue().path("image").asText();
            if (image.startsWith("flink:")) {
                assertEquals("flink:" + flink + "-java17", image, service.getKey() + " runs pom's Flink on Java 17");
                flinkImages++;
            } else if (image.startsWith("apache/kafka:")) {
                assertEquals("apache/kafka:" + kafka, image, service.getKey() + " runs pom's Kafka");
                kafkaImages++;
            }
        }
        assertTrue(flinkImages >= 3, "JobManager and two TaskManagers");
        assertTrue(kafkaImages >= 1, "a Kafka broker");
    }

    @Test
    void theClusterHasAJobManagerAndTwoTaskManagers() {
        List<String> roles = new ArrayList<>();
        for (Map.Entry<String, JsonNode> service : services()) {
            String text = texts(service.getValue());
            if (text.contains("docker-entrypoint.sh jobmanager")) {
                roles.add("jobmanager");
            } else if (text.contains("docker-entrypoint.sh taskmanager")) {
                roles.add("taskmanager");
            }
        }
        assertEquals(List.of("jobmanager", "taskmanager", "taskmanager"), roles);
    }

    @Test
    void mountedHostPathsExistAndVolumesAreDeclared() {
        Set<String> declared = new HashSet<>();
        compose.path("volumes").fieldNames().forEachRemaining(declared::add);
        for (Map.Entry<String, JsonNode> service : services()) {
            for (Mount mount : mounts(service.getValue())) {
                if (!mount.isBind()) {
                    assertTrue(declared.contains(mount.source()), service.getKey() + ": volume " + mount.source());
                } else if (!mount.source().equals("./target")) {
                    assertTrue(Files.exists(Path.of(mount.source())), service.getKey() + " mounts " + mount.source());
                }
            }
        }
    }

    @Test
    void everyVigilPathComesFromAMount() throws Exception {
        Set<String> jars = builtJars();
        int checked = 0;
        for (Map.Entry<String, JsonNode> service : services()) {
            List<Mount> mounts = mounts(service.getValue());
            Matcher paths = VIGIL_PATH.matcher(texts(service.getValue()));
            while (paths.find()) {
                String path = paths.group();
                Mount mount = mounts.stream()
                        .filter(m -> path.equals(m.target()) || path.startsWith(m.target() + "/"))
                        .findFirst()
                        .orElse(null);
                if (mount == null) {
                    fail(service.getKey() + " names " + path + " but mounts nothing there");
                }
                String rest = path.substring(mount.target().length());
                if (mount.source().equals("./target")) {
                    assertTrue(
                            jars.contains(rest.replaceFirst("^/", "")), service.getKey() + ": " + path + " is built");
                } else if (mount.isBind()) {
                    assertTrue(Files.exists(Path.of(mount.source() + rest)), service.getKey() + ": " + path);
                }
                checked++;
            }
        }
        assertTrue(checked >= 5, "jar, job and config paths were checked");
    }

    @Test
    void theSubmittedJobReadsTheModelTheTrainerWrites() {
        JsonNode trainer = compose.path("services").path("trainer");
        String text = texts(trainer);
        assertTrue(text.contains("vigil-flink-job.jar --job /opt/vigil/jobs/ucr-replay-demo.yaml"), text);
        JobFile job = JobFile.load(Path.of("jobs/ucr-replay-demo.yaml"), JobFilesTest.runSpec());
        String model = job.arguments().get(job.arguments().indexOf("--model") + 1);
        assertTrue(text.contains("--out " + model), "trainer writes " + model);
        String inContainer = trainer.path("working_dir").asText() + "/" + model;
        assertTrue(
                mounts(trainer).stream().anyMatch(m -> !m.isBind() && inContainer.startsWith(m.target() + "/")),
                inContainer + " is on a volume the cluster also mounts");
        String bootstrap = job.arguments().get(job.arguments().indexOf("--bootstrap") + 1);
        assertEquals("kafka:9092", bootstrap);
        String listeners = compose.path("services")
                .path("kafka")
                .path("environment")
                .path("KAFKA_ADVERTISED_LISTENERS")
                .asText();
        assertTrue(listeners.contains("://" + bootstrap), "the broker advertises " + bootstrap + ": " + listeners);
    }

    @Test
    void flinkPropertiesUseCurrentFlinkKeys() throws IllegalAccessException, IOException {
        Set<String> current = ConfigFilesTest.flinkKeys(false);
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        int checked = 0;
        for (Map.Entry<String, JsonNode> service : services()) {
            JsonNode properties = service.getValue().path("environment").path("FLINK_PROPERTIES");
            if (properties.isMissingNode()) {
                continue;
            }
            JsonNode parsed = yaml.readTree(properties.asText());
            for (String key : (Iterable<String>) parsed::fieldNames) {
                assertTrue(current.contains(key), service.getKey() + ": FLINK_PROPERTIES key " + key);
                checked++;
            }
        }
        assertFalse(checked == 0, "FLINK_PROPERTIES found");
    }
}
