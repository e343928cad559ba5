package io.vigil.flink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class JobFileTest {
    @TempDir
    Path dir;

    /** A stand-in for the run command: one option of each shape the loader treats differently. */
    @Command(name = "run", mixinStandardHelpOptions = true)
    static final class Run {
        @Option(names = "--model")
        Path model;

        @Option(names = {"--bootstrap", "-b"})
        String bootstrap;

        @Option(names = "--dead-letter")
        String deadLetter;

        @Option(names = "--tau")
        double tau = 0.5;

        @Option(names = "--parallelism")
        int parallelism = 1;

        @Option(names = "--checkpoint-interval")
        String checkpointInterval;

        @Option(names = "--bounded")
        boolean bounded;

        @Option(names = "--verbose")
        boolean verbose;

        @Option(names = "--topic")
        List<String> topics = new ArrayList<>();

        @Option(names = "--job")
        Path job;
    }

    private Path write(String name, String yaml) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        return file;
    }

    private static CommandLine commandLine(Run run) {
        return new CommandLine(run).setOverwrittenOptionsAllowed(true);
    }

    private JobFileException failure(String yaml) throws IOException {
        Path file = write("bad.yaml", yaml);
        return assertThrows(
                JobFileException.class,
                () -> JobFile.load(file, commandLine(new Run()).getCommandSpec()));
    }

    @Test
    void turnsKeysIntoArgumentsInFileOrder() throws IOException {
        Path file = write(
                "job.yaml",
                """
                # a comment
                model: models/cbf.model.json
                bootstrap: kafka:9092
                dead-letter: dead-letters
                tau: 0.90
                parallelism: 2
                checkpoint-interval: 5s
                bounded: true
                verbose: false
                topic: [a, b]
                kafka:
                  client.id: vigil
                  transaction.timeout.ms: 900000
                  ssl:
                    truststore.location: /etc/vigil/truststore.jks
                """);
        JobFile job = JobFile.load(file, commandLine(new Run()).getCommandSpec());

        assertEquals(
                List.of(
                        "--model",
                        "models/cbf.model.json",
                        "--bootstrap",
                        "kafka:9092",
                        "--dead-letter",
                        "dead-letters",
                        "--tau",
                        "0.90",
                        "--parallelism",
                        "2",
                        "--checkpoint-interval",
                        "5s",
                        "--bounded",
                        "--topic",
                        "a",
                        "--topic",
                        "b"),
                job.arguments());
        assertEquals(
                Map.of(
                        "client.id", "vigil",
                        "transaction.timeout.ms", "900000",
                        "ssl.truststore.location", "/etc/vigil/truststore.jks"),
                job.kafkaProperties());
        assertEquals(
                List.of("client.id", "transaction.timeout.ms", "ssl.truststore.location"),
                new ArrayList<>(job.kafkaProperties().keySet()));

        Run run = new Run();
        commandLine(run).parseArgs(job.arguments().toArray(String[]::new));
        assertEquals(Path.of("models/cbf.model.json"), run.model, "relative paths stay as written");
        assertEquals("kafka:9092", run.bootstrap);
        assertEquals(0.9, run.tau);
        assertEquals(2, run.parallelism);
        assertTrue(run.bounded);
        assertFalse(run.verbose);
        assertEquals(List.of("a", "b"), run.topics);
    }

    @Test
    void commandLineFlagsOverrideTheFile() throws IOException {
        Path file = write("job.yaml", "tau: 0.9\nparallelism: 2\nbootstrap: kafka:9092\n");
        List<String> argv = List.of("--job", file.toString(), "--tau", "0.75", "-b", "127.0.0.1:9092");

        Optional<Path> path = JobFile.jobPath(argv);
        assertEquals(Optional.of(file), path);
        Run run = new Run();
        CommandLine cli = commandLine(run);
        JobFile job = JobFile.load(path.orElseThrow(), cli.getCommandSpec());
        cli.parseArgs(job.withArguments(argv).toArray(String[]::new));

        assertEquals(0.75, run.tau, "the command line wins");
        assertEquals("127.0.0.1:9092", run.bootstrap, "an alias on the command line wins too");
        assertEquals(2, run.parallelism, "the file fills in what the command line leaves out");
        assertEquals(file, run.job);

        CommandLine strict = new CommandLine(new Run());
        assertThrows(
                CommandLine.OverwrittenOptionException.class,
                () -> strict.parseArgs(job.withArguments(argv).toArray(String[]::new)),
                "overriding needs setOverwrittenOptionsAllowed(true)");
    }

    @Test
    void findsTheJobOption() {
        assertEquals(Optional.empty(), JobFile.jobPath(List.of("--tau", "0.9")));
        assertEquals(Optional.of(Path.of("j.yaml")), JobFile.jobPath(List.of("--tau", "0.9", "--job=j.yaml")));
        assertEquals(Optional.empty(), JobFile.jobPath(List.of("--", "--job", "j.yaml")));
        JobFileException twice =
                assertThrows(JobFileException.class, () -> JobFile.jobPath(List.of("--job", "a", "--job=b")));
        assertEquals("--job given twice (a, b); a run reads one job file", twice.getMessage());
        assertThrows(JobFileException.class, () -> JobFile.jobPath(List.of("--tau", "1", "--job")));
    }

    @Test
    void unknownKeyNamesFileLineKeyAndValidKeys() throws IOException {
        JobFileException e = failure("model: m.json\n\ntua: 0.9\n");
        String prefix = dir.resolve("bad.yaml") + ":3: unknown key 'tua'; valid keys: ";
        assertEquals(
                prefix
                        + "bootstrap, bounded, checkpoint-interval, dead-letter, job, kafka, model, parallelism, tau,"
                        + " topic, verbose",
                e.getMessage());
    }

    @Test
    void helpOptionsAndShortNamesAreNotKeys() throws IOException {
        assertTrue(failure("help: true\n").getMessage().contains(":1: unknown key 'help'"));
        assertTrue(failure("b: kafka:9092\n").getMessage().contains(":1: unknown key 'b'"));
    }

    @Test
    void wrongShapesAreErrorsNamingLineAndKey() throws IOException {
        String file = dir.resolve("bad.yaml").toString();
        assertEquals(
                file + ":2: key 'tau' expects a single value, found a list",
                failure("model: m\ntau: [0.9, 0.8]\n").getMessage());
        assertEquals(
                file + ":1: key 'model' expects a single value, found a mapping",
                failure("model: {path: m}\n").getMessage());
        assertEquals(
                file + ":1: key 'model' expects a value, found no value",
                failure("model:\n").getMessage());
        assertEquals(
                file + ":1: key 'bounded' expects true or false, found a string",
                failure("bounded: yes please\n").getMessage());
        assertEquals(
                file + ":1: key 'parallelism' expects a whole number, found 'two'",
                failure("parallelism: two\n").getMessage());
        assertEquals(
                file + ":1: key 'tau' expects a number, found 'high'",
                failure("tau: high\n").getMessage());
        assertEquals(
                file + ":1: key 'topic' expects a value, found a list",
                failure("topic: [[a]]\n").getMessage());
        assertEquals(
                file + ":2: key 'tau' appears twice",
                failure("tau: 0.9\ntau: 0.8\n").getMessage());
    }

    @Test
    void kafkaMustBeAMappingOfValues() throws IOException {
        String file = dir.resolve("bad.yaml").toString();
        assertEquals(
                file + ":1: key 'kafka' expects a mapping of Kafka client properties, found a string",
                failure("kafka: acks=all\n").getMessage());
        assertEquals(
                file + ":3: Kafka property 'kafka.ssl.protocols' expects a value, found a list",
                failure("kafka:\n  client.id: x\n  ssl.protocols: [TLSv1.3]\n").getMessage());
        assertEquals(
                file + ":3: Kafka property 'kafka.ssl.key' appears twice",
                failure("kafka:\n  ssl.key: a\n  ssl: {key: b}\n").getMessage());
    }

    @Test
    void aJobFileCannotNameAnotherJobFile() throws IOException {
        assertEquals(
                dir.resolve("bad.yaml") + ":2: key 'job' is not allowed: a job file cannot name another job file",
                failure("tau: 0.9\njob: other.yaml\n").getMessage());
    }

    @Test
    void fileProblemsAreOneLineErrors() throws IOException {
        CommandLine cli = commandLine(new Run());
        Path missing = dir.resolve("missing.yaml");
        JobFileException notFound =
                assertThrows(JobFileException.class, () -> JobFile.load(missing, cli.getCommandSpec()));
        assertEquals("job file " + missing + ": not found", notFound.getMessage());

        JobFileException unreadable =
                assertThrows(JobFileException.class, () -> JobFile.load(dir, cli.getCommandSpec()));
        assertTrue(unreadable.getMessage().startsWith("job file " + dir + ": cannot read it"), unreadable::getMessage);

        String file = dir.resolve("bad.yaml").toString();
        JobFileException syntax = failure("model: m\nset: \"unterminated\n");
        assertTrue(syntax.getMessage().startsWith(file + ":"), syntax::getMessage);
        assertTrue(syntax.getMessage().contains(": not valid YAML: "), syntax::getMessage);
        assertFalse(syntax.getMessage().contains("\n"), "one line");

        assertEquals(
                file + ":1: empty job file; expected a mapping of option names to values",
                failure("# nothing\n").getMessage());
        assertEquals(
                file + ":1: expected a mapping of option names to values, found a list",
                failure("- model: m\n").getMessage());
        assertEquals(
                file + ":3: more than one YAML document; a job file holds one mapping",
                failure("tau: 0.9\n---\ntau: 0.8\n").getMessage());
    }
}
