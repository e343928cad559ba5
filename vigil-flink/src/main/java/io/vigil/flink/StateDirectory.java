package io.vigil.flink;

import io.vigil.util.Failures;
import io.vigil.util.FileTrees;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state directory of an embedded job ({@code vigil run --state-dir}), locked while a job uses it. Layout:
 *
 * <ul>
 *   <li>{@value #LOCK}: an OS file lock (released by the kernel when the process dies, even by SIGKILL) whose text
 *       names the holder (pid, start time, job), so a second job on the directory is refused naming the first;
 *   <li>{@value #MANIFEST}: what the state belongs to ({@link StateManifest});
 *   <li>{@value #BOUNDED_RUN}: the end offsets a {@code --bounded} run reads up to and whether it finished ({@link
 *       BoundedRun});
 *   <li>{@value #CHECKPOINTS}{@code /<job id>/chk-N}: Flink's checkpoints. The job id is fixed per directory
 *       ({@link #jobId}), so a resumed job writes next to the checkpoint it claimed and Flink's own retention
 *       removes the old ones. A checkpoint is complete once its {@value #METADATA} file exists (Flink writes it
 *       last, through a temporary file and a rename).
 * </ul>
 */
public final class StateDirectory implements AutoCloseable {
    /** The lock file, naming its holder. */
    public static final String LOCK = "lock";

    /** The manifest file. */
    public static final String MANIFEST = "vigil-state.json";

    /** The record of the directory's bounded run ({@link BoundedRun}), if it had one. */
    public static final String BOUNDED_RUN = "bounded-run.json";

    /** The directory Flink writes checkpoints to. */
    public static final String CHECKPOINTS = "checkpoints";

    /** The file that completes a checkpoint directory. */
    public static final String METADATA = "_metadata";

    private static final Pattern CHECKPOINT_DIR = Pattern.compile("chk-(\\d+)");

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    /**
     * A completed checkpoint.
     *
     * @param id checkpoint number
     * @param directory its {@code chk-N} directory
     * @param completed when its metadata was written
     */
    public record Checkpoint(long id, Path directory, Instant completed) {}

    /**
     * A job is refused the directory: another job holds it, or the state there cannot serve this job. The message
     * says everything, the way out included.
     */
    public static final class RefusedException extends IOException implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        /** The exception with its one-line message. */
        public RefusedException(String message) {
            super(message);
        }
    }

    private StateDirectory(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates the directory if needed and locks it, writing {@code holder} into the lock file.
     *
     * @param holder who holds the lock, in words (pid and start time are added)
     * @throws RefusedException when another job holds it, naming that job and the way out
     * @throws IOException when the directory cannot be created or locked
     */
    public static StateDirectory lock(Path dir, String holder) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Files.createDirectories(abs);
        Path file = abs.resolve(LOCK);
        FileChannel ch =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException inThisProcess) {
            l = null;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (l == null) {
            ch.close();
            String other = Files.readString(file, StandardCharsets.UTF_8).strip();
            throw new RefusedException("state directory " + abs + " is in use by another job ("
                    + (other.isEmpty() ? "holder unknown" : other)
                    + "); stop that job first or give this one another --state-dir");
        }
        ProcessHandle self = ProcessHandle.current();
        String text = "pid " + self.pid() + ", started "
                + self.info().startInstant().map(Instant::toString).orElse("at an unknown time") + ", " + holder
                + "\n";
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        ch.force(false);
        return new StateDirectory(abs, ch, l);
    }

    /** The directory (absolute). */
    public Path path() {
        return dir;
    }

    /** Where Flink writes the checkpoints. */
    public Path checkpoints() {
        return dir.resolve(CHECKPOINTS);
    }

    /** The latest completed checkpoint, if any. */
    public Optional<Checkpoint> latestCheckpoint() throws IOException {
        return latestCheckpoint(checkpoints());
    }

    /**
     * The completed checkpoint with the highest number under {@code checkpoints} (in any job directory below it),
     * if any.
     */
    public static Optional<Checkpoint> latestCheckpoint(Path checkpoints) throws IOException {
        Checkpoint best = null;
        for (Path job : children(checkpoints)) {
            for (Path chk : children(job)) {
                Matcher m = CHECKPOINT_DIR.matcher(chk.getFileName().toString());
                Path metadata = chk.resolve(METADATA);
                if (m.matches() && Files.isRegularFile(metadata)) {
                    long id = Long.parseLong(m.group(1));
                    if (best == null || id > best.id()) {
                        best = new Checkpoint(
                                id, chk, Files.getLastModifiedTime(metadata).toInstant());
                    }
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Removes every checkpoint directory but {@code keep}: incomplete ones a crash left and completed ones older
     * than the latest (Flink, resuming in claim mode, only knows the one it restores). With nothing to keep,
     * removes all checkpoints. Only while the lock is held, so no job is writing one.
     */
    public void removeCheckpointsBut(Optional<Checkpoint> keep) throws IOException {
        Path root = checkpoints();
        for (Path job : children(root)) {
            for (Path chk : children(job)) {
                if (CHECKPOINT_DIR.matcher(chk.getFileName().toString()).matches()
                        && keep.map(k -> !k.directory().equals(chk)).orElse(true)) {
                    FileTrees.delete(chk);
                }
            }
        }
        if (keep.isEmpty()) {
            FileTrees.delete(root);
        }
    }

    private static Iterable<Path> children(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return java.util.List.of();
        }
        java.util.List<Path> out = new java.util.ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, Files::isDirectory)) {
            ds.forEach(out::add);
        }
        return out;
    }

    /** The manifest, if the directory has one. */
    public Optional<StateManifest> manifest() throws IOException {
        Path file = dir.resolve(MANIFEST);
        try {
            return Optional.of(StateManifest.fromJson(Files.readAllBytes(file), file.toString()));
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        }
    }

    /** Writes the manifest (through a temporary file and a rename, so it is never half written). */
    public void writeManifest(StateManifest m) throws IOException {
        Path tmp = dir.resolve(MANIFEST + ".tmp");
        Files.write(tmp, m.toJson());
        Files.move(tmp, dir.resolve(MANIFEST), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The record of the directory's latest bounded run, if any. */
    public Optional<BoundedRun> boundedRun() throws IOException {
        Path file = dir.resolve(BOUNDED_RUN);
        try {
            return Optional.of(BoundedRun.fromJson(Files.readAllBytes(file), file.toString()));
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        }
    }

    /** Writes the bounded-run record (through a temporary file and a rename). */
    public void writeBoundedRun(BoundedRun run) throws IOException {
        Path tmp = dir.resolve(BOUNDED_RUN + ".tmp");
        Files.write(tmp, run.toJson());
        Files.move(tmp, dir.resolve(BOUNDED_RUN), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Removes the bounded-run record (a run that is not bounded, or starts over). */
    public void removeBoundedRun() throws IOException {
        Files.deleteIfExists(dir.resolve(BOUNDED_RUN));
    }

    /** The embedded job's settings for this directory: fixed job id, and the checkpoint to resume from if any. */
    public LocalState localState(LocalState.Backend backend, Optional<Checkpoint> resume) {
        return new LocalState(checkpoints(), backend, Optional.of(jobId(dir)), resume.map(Checkpoint::directory));
    }

    /** The fixed Flink job id of a state directory: 32 hex digits of a hash of its absolute path. */
    public static String jobId(Path dir) {
        return HexFormat.of().formatHex(sha256(dir), 0, 16);
    }

    /** 8 hex digits of a hash of the directory's absolute path (default transactional ids stay unique per job). */
    public static String shortHash(Path dir) {
        return HexFormat.of().formatHex(sha256(dir), 0, 4);
    }

    private static byte[] sha256(Path dir) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(dir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    /** Releases the lock (the holder text stays until the next job replaces it). */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
