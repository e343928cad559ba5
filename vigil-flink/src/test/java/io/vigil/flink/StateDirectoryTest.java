package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state directory's lock, checkpoint discovery and clean-up, job id and manifest file (process-level in cli). */
class StateDirectoryTest {
    @TempDir
    Path base;

    @Test
    void aSecondLockIsRefusedNamingTheHolderAndTheWayOutUntilTheFirstIsReleased() throws Exception {
        Path d = base.resolve("state");
        try (StateDirectory first = StateDirectory.lock(d, "vigil run, job a-to-b (a -> b)")) {
            assertEquals(d.toAbsolutePath(), first.path());
            StateDirectory.RefusedException e = assertThrows(
                    StateDirectory.RefusedException.class, () -> StateDirectory.lock(d, "vigil run, job other"));
            assertTrue(e.getMessage().contains("pid " + ProcessHandle.current().pid() + ", started "), e.getMessage());
            assertTrue(e.getMessage().contains("vigil run, job a-to-b (a -> b)"), e.getMessage());
            assertTrue(e.getMessage().contains("another --state-dir"), e.getMessage());
            assertTrue(e.getMessage().contains(d.toAbsolutePath().toString()), e.getMessage());
        }
        try (StateDirectory again = StateDirectory.lock(d, "vigil run, job other")) {
            assertTrue(Files.readString(d.resolve(StateDirectory.LOCK)).contains("job other"));
        }
    }

    @Test
    void theLatestCheckpointIsTheHighestCompletedOne() throws Exception {
        Path root = base.resolve("checkpoints");
        assertEquals(Optional.empty(), StateDirectory.latestCheckpoint(root));
        Path job = root.resolve("0123456789abcdef0123456789abcdef");
        complete(job.resolve("chk-9"));
        complete(job.resolve("chk-10"));
        Files.createDirectories(job.resolve("chk-11")); // in progress when the process died
        Files.createDirectories(job.resolve("shared"));
        Files.createDirectories(job.resolve("taskowned"));
        StateDirectory.Checkpoint c = StateDirectory.latestCheckpoint(root).orElseThrow();
        assertEquals(10, c.id(), "chk-10 sorts after chk-9 by number, chk-11 has no metadata");
        assertEquals(job.resolve("chk-10"), c.directory());
    }

    @Test
    void removeCheckpointsButKeepsOnlyTheOneToResumeAndTheSharedFiles() throws Exception {
        Path d = base.resolve("state");
        try (StateDirectory s = StateDirectory.lock(d, "test")) {
            Path job = s.checkpoints().resolve("0123456789abcdef0123456789abcdef");
            complete(job.resolve("chk-3"));
            complete(job.resolve("chk-4"));
            Files.createDirectories(job.resolve("chk-5"));
            Files.createDirectories(job.resolve("shared"));
            StateDirectory.Checkpoint latest = s.latestCheckpoint().orElseThrow();
            s.removeCheckpointsBut(Optional.of(latest));
            try (var left = Files.list(job)) {
                assertEquals(
                        List.of("chk-4", "shared"),
                        left.map(p -> p.getFileName().toString()).sorted().toList());
            }
            s.removeCheckpointsBut(Optional.empty());
            assertFalse(Files.exists(s.checkpoints()));
            assertEquals(Optional.empty(), s.latestCheckpoint());
        }
    }

    @Test
    void theJobIdAndHashAreStablePerDirectoryAndDifferBetweenDirectories() {
        String id = StateDirectory.jobId(base.resolve("a"));
        assertTrue(id.matches("[0-9a-f]{32}"), id);
        assertEquals(id, StateDirectory.jobId(base.resolve("x/../a")));
        assertNotEquals(id, StateDirectory.jobId(base.resolve("b")));
        assertTrue(StateDirectory.shortHash(base.resolve("a")).matches("[0-9a-f]{8}"));
        assertEquals(id.substring(0, 8), StateDirectory.shortHash(base.resolve("a")));
        org.apache.flink.api.common.JobID.fromHexString(id); // a job id Flink accepts
    }

    @Test
    void theManifestIsWrittenWholeAndReadBack() throws Exception {
        try (StateDirectory s = StateDirectory.lock(base.resolve("state"), "test")) {
            assertEquals(Optional.empty(), s.manifest());
            StateManifest m = StateManifestTest.manifest("a", "m1", 128);
            s.writeManifest(m);
            assertEquals(Optional.of(m), s.manifest());
            try (var files = Files.list(s.path())) {
                assertEquals(
                        List.of(StateDirectory.LOCK, StateDirectory.MANIFEST),
                        files.map(p -> p.getFileName().toString()).sorted().toList());
            }
        }
    }

    private static void complete(Path chk) throws Exception {
        Files.createDirectories(chk);
        Files.writeString(chk.resolve(StateDirectory.METADATA), "metadata");
    }
}
