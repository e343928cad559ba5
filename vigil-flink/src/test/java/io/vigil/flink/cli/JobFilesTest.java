package io.vigil.flink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** Every job shipped in {@code jobs/} loads and parses against the options of {@code vigil run}. */
public class JobFilesTest {
    private static final Path JOBS = Path.of("jobs");

    /** Required options of {@code vigil run}: every shipped job must be complete by itself. */
    /** The options of {@code vigil run} itself: the job files must fit the real command. */
    public static CommandSpec runSpec() {
        return CommandLines.standalone(new RunCommand()).getCommandSpec();
    }

    private static List<Path> jobFiles() throws IOException {
        try (Stream<Path> files = Files.list(JOBS)) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
    }

    private static ParseResult parse(JobFile job) {
        return CommandLines.standalone(new RunCommand())
                .parseArgs(job.arguments().toArray(String[]::new));
    }

    @Test
    void everyShippedJobLoadsAndParses() throws IOException {
        List<Path> files = jobFiles();
        assertTrue(files.size() >= 2, "jobs/ holds the demo jobs: " + files);
        for (Path file : files) {
            JobFile job = JobFile.load(file, runSpec());
            ParseResult result = parse(job);
            for (String required : List.of("--model", "--bootstrap", "--input", "--output", "--dead-letter")) {
                assertTrue(result.hasMatchedOption(required), file + " sets " + required);
            }
            String delivery = result.matchedOptionValue("--delivery", "exactly-once");
            assertTrue(Set.of("exactly-once", "at-least-once").contains(delivery), file + ": delivery " + delivery);
            for (String duration : List.of("--checkpoint-interval", "--idle-timeout")) {
                String value = result.matchedOptionValue(duration, "1s");
                assertTrue(value.matches("\\d+(ms|s|min|m|h|d)"), file + ": " + duration + " " + value);
            }
        }
    }

    @Test
    void ucrReplayDemoIsTheComposeJob() {
        JobFile job = JobFile.load(JOBS.resolve("ucr-replay-demo.yaml"), runSpec());
        ParseResult result = parse(job);
        Map<String, Object> expected = Map.ofEntries(
                Map.entry("--model", "models/cbf.model.json"),
                Map.entry("--bootstrap", "kafka:9092"),
                Map.entry("--input", "samples"),
                Map.entry("--output", "decisions"),
                Map.entry("--dead-letter", "dead-letters"),
                Map.entry("--tau", 0.9),
                Map.entry("--set", "nb-quadratic"),
                Map.entry("--estimator", "joint"),
                Map.entry("--classifier", "local-qda"),
                Map.entry("--delivery", "exactly-once"),
                Map.entry("--parallelism", 2),
                Map.entry("--checkpoint-interval", "5s"),
                Map.entry("--idle-timeout", "10m"),
                Map.entry("--reorder-window", 32));
        for (Map.Entry<String, Object> e : expected.entrySet()) {
            Object value = result.matchedOptionValue(e.getKey(), null);
            assertEquals(String.valueOf(e.getValue()), String.valueOf(value), e.getKey());
        }
        assertFalse(result.hasMatchedOption("--bounded"), "the demo runs unbounded");
        assertEquals("900000", job.kafkaProperties().get("transaction.timeout.ms"));
    }

    @Test
    void localDemoUsesTheLoopbackBroker() {
        JobFile job = JobFile.load(JOBS.resolve("local-demo.yaml"), runSpec());
        assertEquals("127.0.0.1:9092", parse(job).matchedOptionValue("--bootstrap", null));
    }
}
