package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.cli.VigilCli;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.SeriesDecision;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third-party client on both ends of the job: Debian's {@code kcat} produces the samples (keyed, as a shell
 * script would) and consumes the decisions with read_committed. Skipped when kcat is not installed.
 */
class KcatJobTest {
    private static final int SERIES = 4;

    @TempDir
    Path dir;

    @Test
    void kcatFeedsTheJobAndReadsItsDecisions() throws Exception {
        Assumptions.assumeTrue(
                KafkaTestSupport.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        Path model = dir.resolve("model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        StringBuilder lines = new StringBuilder();
        for (int t = 1; t <= StreamFixtures.TEST.length(); t++) {
            for (int i = 0; i < SERIES; i++) {
                String id = StreamFixtures.id(i);
                lines.append(id)
                        .append('\t')
                        .append(new String(
                                SampleRecord.encode(id, t, StreamFixtures.TEST.value(i, t - 1)),
                                StandardCharsets.UTF_8))
                        .append('\n');
            }
        }
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            String b = kafka.bootstrapServers();
            kafka.createTopic("kcat-samples", 1);
            KafkaTestSupport.kcat(lines.toString(), "-b", b, "-P", "-t", "kcat-samples", "-K", "\t");
            // Topics and tuning from a job file, model and broker from flags (flags override the file's tau).
            Path jobFile = dir.resolve("job.yaml");
            java.nio.file.Files.writeString(
                    jobFile,
                    "input: kcat-samples\noutput: kcat-decisions\ndead-letter: kcat-dead\nbounded: true\n"
                            + "tau: 0.5\ncheckpoint-interval: 300ms\nkafka:\n  client.id: kcat-job-test\n");
            int code = VigilCli.commandLine()
                    .execute(
                            "run",
                            "--job",
                            jobFile.toString(),
                            "--model",
                            model.toString(),
                            "--bootstrap",
                            b,
                            "--tau",
                            "0.9",
                            "--state-dir",
                            dir.resolve("state").toString());
            assertEquals(0, code);
            String out = KafkaTestSupport.kcat(
                    null,
                    "-b",
                    b,
                    "-C",
                    "-t",
                    "kcat-decisions",
                    "-o",
                    "beginning",
                    "-e",
                    "-q",
                    "-X",
                    "isolation.level=read_committed",
                    "-f",
                    "%k\\t%s\\n");
            Map<String, DecisionRecord> got = new HashMap<>();
            for (String line : out.strip().split("\n")) {
                String[] kv = line.split("\t", 2);
                DecisionRecord d = StreamJson.readDecision(kv[1].getBytes(StandardCharsets.UTF_8));
                assertEquals(kv[0], d.series);
                got.put(d.series, d);
            }
            assertEquals(SERIES, got.size(), out);
            List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
            for (int i = 0; i < SERIES; i++) {
                assertEquals(offline.get(i).t(), got.get(StreamFixtures.id(i)).t, "series " + i);
            }
        }
    }
}
