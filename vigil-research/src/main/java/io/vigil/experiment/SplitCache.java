package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.experiment.Table33Experiment.SplitResult;
import io.vigil.model.DataFingerprint;
import io.vigil.model.VigilModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Finished work of {@code vigil experiment} kept on disk, one small file per (dataset, method, settings, split or
 * part), so that an interrupted run resumes where it stopped instead of starting over. A split is reused only when
 * everything its result depends on is the same: the method, the table's ℓ rule, the base seed, the training
 * parameters and the content of both standard splits (their {@link DataFingerprint}s); anything else is a different
 * key and is recomputed. Files are written to a temporary name and moved into place, so a run killed mid-write leaves
 * no half file behind; an unreadable file is recomputed and overwritten. The key holds Vigil's release version but
 * not the build: after changing the code between releases, start with a fresh output directory or {@code
 * --no-resume}.
 */
public final class SplitCache {
    /** Bumped when the file layout or the meaning of a cached field changes. */
    static final int FORMAT = 1;

    private static final String HEADER =
            "split,seed,accuracy_3nn,accuracy_1nn,accuracy_local_qda,cv_accuracy,fit_seconds,gamma,dims,neighbors,"
                    + "qda_neighbors";

    private static final SplitCache NONE = new SplitCache(null, false);

    private final Path root;
    private final boolean read;
    private final AtomicInteger reused = new AtomicInteger();

    private SplitCache(Path root, boolean read) {
        this.root = root;
        this.read = read;
    }

    /** No cache: every split is computed and nothing is written. */
    public static SplitCache none() {
        return NONE;
    }

    /**
     * A cache under {@code dir}.
     *
     * @param resume reuse the splits found there; false recomputes every split and overwrites its file
     */
    public static SplitCache at(Path dir, boolean resume) {
        return new SplitCache(dir, resume);
    }

    /** The directory, or empty for {@link #none()}. */
    public Optional<Path> dir() {
        return Optional.ofNullable(root);
    }

    /** How many splits were taken from disk so far. */
    public int reused() {
        return reused.get();
    }

    /**
     * The key of one dataset's splits under one method and settings.
     *
     * @param method the column's method name (e.g. {@code ldg}, {@code reg-fda})
     * @param settings everything else the result depends on, as text (ℓ rule, seed, training parameters)
     */
    public Key key(String dataset, String method, String settings, Dataset train, Dataset test) {
        String material = String.join(
                "\n",
                "format=" + FORMAT,
                "vigil=" + VigilModel.runtimeVersion(),
                "dataset=" + dataset,
                "method=" + method,
                "settings=" + settings,
                "train=" + DataFingerprint.of(train),
                "test=" + DataFingerprint.of(test));
        return new Key(dataset, method, sha256(material).substring(0, 16));
    }

    /**
     * Where one dataset's splits under one method and settings are kept.
     *
     * @param dataset archive name
     * @param method column name
     * @param hash the settings' hash (first 16 hex digits of SHA-256)
     */
    public record Key(String dataset, String method, String hash) {}

    /** The cached result of split {@code split}, if this cache resumes and has a readable one. */
    Optional<SplitResult> get(Key key, int split) {
        return get(key, splitFile(split), lines -> {
            if (lines.size() != 2 || !lines.get(0).equals(HEADER)) {
                throw new IllegalArgumentException("not a split file");
            }
            SplitResult r = parse(lines.get(1));
            if (r.split() != split) {
                throw new IllegalArgumentException("split " + r.split() + " in the file of split " + split);
            }
            return r;
        });
    }

    /** Keeps a finished split (no-op for {@link #none()}). */
    void put(Key key, SplitResult r) {
        put(key, splitFile(r.split()), HEADER + "\n" + format(r) + "\n");
    }

    /**
     * A cached entry parsed by {@code reader}, if this cache resumes and has one that {@code reader} accepts (an entry
     * it rejects with a runtime exception, e.g. a file cut short, counts as absent and is recomputed).
     */
    <T> Optional<T> get(Key key, String name, java.util.function.Function<List<String>, T> reader) {
        if (root == null || !read) {
            return Optional.empty();
        }
        Path file = file(key, name);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            T value = reader.apply(Files.readAllLines(file, StandardCharsets.UTF_8));
            reused.incrementAndGet();
            return Optional.of(value);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Keeps an entry, written to a temporary file and moved into place (no-op for {@link #none()}). */
    void put(Key key, String name, String text) {
        if (root == null) {
            return;
        }
        Path file = file(key, name);
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "split-", ".tmp");
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the experiment cache file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String splitFile(int split) {
        return String.format(Locale.ROOT, "split-%03d.csv", split);
    }

    private Path file(Key key, String name) {
        return root.resolve(safe(key.dataset()))
                .resolve(safe(key.method()) + "-" + key.hash())
                .resolve(name);
    }

    /** Path-safe: letters, digits, '-', '_' and '.' kept, anything else '_'. */
    static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String format(SplitResult r) {
        // Double.toString round-trips exactly, so a resumed split reports the very same numbers.
        return String.join(
                ",",
                Integer.toString(r.split()),
                Long.toString(r.seed()),
                Double.toString(r.accuracy3nn()),
                Double.toString(r.accuracy1nn()),
                Double.toString(r.accuracyLocalQda()),
                Double.toString(r.cvAccuracy()),
                Double.toString(r.fitSeconds()),
                Double.toString(r.gamma()),
                Integer.toString(r.dims()),
                Integer.toString(r.neighbors()),
                Integer.toString(r.qdaNeighbors()));
    }

    private static SplitResult parse(String line) {
        String[] f = line.split(",", -1);
        if (f.length != 11) {
            throw new IllegalArgumentException("expected 11 fields, got " + f.length);
        }
        return new SplitResult(
                Integer.parseInt(f[0]),
                Long.parseLong(f[1]),
                Double.parseDouble(f[2]),
                Double.parseDouble(f[3]),
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Double.parseDouble(f[7]),
                Integer.parseInt(f[8]),
                Integer.parseInt(f[9]),
                Integer.parseInt(f[10]));
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
