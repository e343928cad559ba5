package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job jar built by {@code mvn package} (run by failsafe in {@code verify}): runnable by {@code flink run},
 * carrying Vigil, the Kafka connector and client, and nothing the cluster already provides.
 */
class FlinkJobJarIT {
    private static final Path JAR = Path.of("target", "vigil-flink-job.jar");

    /** Packages of flink-connector-kafka, the one Flink artifact the job jar carries. */
    private static final List<String> CONNECTOR_PACKAGES = List.of(
            "org/apache/flink/connector/kafka/",
            "org/apache/flink/streaming/connectors/kafka/",
            "org/apache/flink/streaming/util/serialization/");

    /** Provided by the cluster (Flink, its libraries and logging) or needed only by the CLI (broker, JMH, plots). */
    private static final List<String> FORBIDDEN = List.of(
            "org/apache/flink/streaming/api/",
            "org/apache/flink/connector/base/",
            "org/apache/flink/runtime/",
            "kafka/server/",
            "kafka/",
            "scala/",
            "org/apache/kafka/raft/",
            "org/apache/kafka/metadata/",
            "org/slf4j/",
            "org/apache/logging/",
            "com/esotericsoftware/",
            "org/openjdk/jmh/",
            "org/knowm/xchart/",
            "META-INF/resources/webjars/",
            "me/tongfei/progressbar/");

    /** One class of each library the job needs at run time. */
    private static final List<String> REQUIRED = List.of(
            "io/vigil/flink/cli/JobFile.class",
            "org/apache/flink/connector/kafka/source/KafkaSource.class",
            "org/apache/flink/connector/kafka/sink/KafkaSink.class",
            "org/apache/kafka/clients/producer/KafkaProducer.class",
            "picocli/CommandLine.class",
            "com/fasterxml/jackson/databind/ObjectMapper.class",
            "com/fasterxml/jackson/dataformat/yaml/YAMLFactory.class",
            "org/ejml/data/DMatrixRMaj.class",
            "org/hipparchus/distribution/continuous/ChiSquaredDistribution.class",
            "de/bwaldvogel/liblinear/Linear.class");

    private static Set<String> classes;
    private static Attributes manifest;

    @BeforeAll
    static void open() throws IOException {
        assertTrue(Files.isRegularFile(JAR), JAR + " is built by mvn package");
        classes = new TreeSet<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            manifest = jar.getManifest().getMainAttributes();
            for (JarEntry entry : jar.stream().toList()) {
                if (entry.getName().endsWith(".class")) {
                    classes.add(entry.getName());
                }
            }
        }
    }

    @Test
    void mainClassIsTheFlinkJob() {
        assertEquals("io.vigil.flink.cli.VigilJobMain", manifest.getValue(Attributes.Name.MAIN_CLASS));
    }

    @Test
    void carriesVigilAndWhatTheJobNeeds() {
        assertTrue(classes.stream().anyMatch(c -> c.startsWith("io/vigil/")), "io/vigil classes");
        for (String required : REQUIRED) {
            assertTrue(classes.contains(required), required);
        }
    }

    @Test
    void flinkItselfIsLeftToTheCluster() {
        List<String> flink = classes.stream()
                .filter(c -> c.startsWith("org/apache/flink/"))
                .filter(c -> CONNECTOR_PACKAGES.stream().noneMatch(c::startsWith))
                .limit(5)
                .toList();
        assertEquals(List.of(), flink, "Flink classes outside flink-connector-kafka");
        for (String prefix : FORBIDDEN) {
            List<String> found =
                    classes.stream().filter(c -> c.startsWith(prefix)).limit(3).toList();
            assertEquals(List.of(), found, "classes under " + prefix);
        }
    }

    @Test
    void staysSmall() throws IOException {
        long size = Files.size(JAR);
        assertTrue(size < 40L * 1024 * 1024, JAR + " is " + size + " bytes");
    }
}
