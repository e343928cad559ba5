package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileInputStream;
import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.ParameterizedMessage;
import org.junit.jupiter.api.Test;

/** The shipped log4j2.xml drops the messages it says are expected, and only those. */
class LoggingConfigTest {
    private static final String COMMITTER = "org.apache.flink.connector.kafka.sink.internal.KafkaCommitter";

    /**
     * The file the jar ships, read from this module's target/classes (other jars on the test class path bring their
     * own log4j2 configuration).
     */
    /**
     * The WARN a stop's cancellation gives when a checkpoint is under way (the first failure in a row) is dropped; a
     * second failure in a row still shows.
     */
    @Test
    void aFirstCheckpointFailureInARowIsDroppedAndTheNextOneShows() throws Exception {
        String name = "org.apache.flink.runtime.checkpoint.CheckpointFailureManager";
        LoggerConfig manager = shipped().getLoggerConfig(name);
        assertEquals(name, manager.getName());
        assertTrue(manager.isFiltered(event(
                name,
                Level.WARN,
                "Failed to trigger or complete checkpoint 17 for job ac04e085879dd5a777300fae5b639cea. "
                        + "(0 consecutive failed attempts so far)")));
        assertFalse(manager.isFiltered(event(
                name,
                Level.WARN,
                "Failed to trigger or complete checkpoint 18 for job ac04e085879dd5a777300fae5b639cea. "
                        + "(1 consecutive failed attempts so far)")));
    }

    private static XmlConfiguration shipped() throws Exception {
        Path testClasses = Path.of(LoggingConfigTest.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        File file = testClasses.resolveSibling("classes").resolve("log4j2.xml").toFile();
        try (FileInputStream in = new FileInputStream(file)) {
            XmlConfiguration c =
                    new XmlConfiguration(new LoggerContext("logging-config-test"), new ConfigurationSource(in, file));
            c.initialize();
            return c;
        }
    }

    private static LogEvent event(String logger, Level level, String message) {
        return Log4jLogEvent.newBuilder()
                .setLoggerName(logger)
                .setLevel(level)
                .setMessage(new ParameterizedMessage(message))
                .build();
    }

    /**
     * The committer's fenced-producer ERROR on a restart (formatted as the connector formats it, committable
     * included) is dropped; its other errors, e.g. potential data loss for another reason, still show.
     */
    @Test
    void theCommittersRecoveryFencingErrorIsDroppedAndNothingElse() throws Exception {
        LoggerConfig committer = shipped().getLoggerConfig(COMMITTER);
        assertEquals(COMMITTER, committer.getName(), "log4j2.xml configures the committer's logger");
        String fenced = "Unable to commit transaction (WatchedRequest[request=CommitRequestImpl{state=RECEIVED, "
                + "numRetries=0, committable=KafkaCommittable{producerId=39, epoch=0, "
                + "transactionalId='vigil-in-to-out-595e3a86-d-0-10', producer=null}}]) because its producer is "
                + "already fenced. This means that you either have a different producer with the same "
                + "'transactional.id' (this is unlikely with the 'KafkaSink' as all generated ids are unique and "
                + "shouldn't be reused) or recovery took longer than 'transaction.timeout.ms' (600000ms). In both "
                + "cases this most likely signals data loss, please consult the Flink documentation for more details.";
        assertTrue(committer.isFiltered(event(COMMITTER, Level.ERROR, fenced)));
        assertFalse(committer.isFiltered(event(
                COMMITTER,
                Level.ERROR,
                "Transaction (WatchedRequest[…]) encountered error and data has been potentially lost.")));
    }
}
