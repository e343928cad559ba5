package io.vigil.data;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The training and test files of a named data set in an archive directory, so users can say
 * {@code --data DIR --dataset CBF} instead of naming two files. Both archive layouts are searched,
 * {@code DIR/NAME/NAME_TRAIN.<ext>} (UCR 2018, UEA) and {@code DIR/NAME_TRAIN.<ext>} (flat), for the
 * extensions {@code tsv}, {@code txt}, none, {@code ts} and {@code arff}, each optionally gzipped. Exactly
 * one candidate per split must exist: none or several is an error listing what was tried or found.
 *
 * @param train the training split file
 * @param test the test split file
 */
public record DatasetFiles(Path train, Path test) {
    /** Extensions tried, in order; the empty string is a file without an extension (UCR 2015). */
    private static final List<String> EXTENSIONS = List.of(".tsv", ".txt", "", ".ts", ".arff");

    public DatasetFiles {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
    }

    /**
     * Finds the two split files of {@code name} under {@code dir}.
     *
     * @throws FileNotFoundException when the directory or a split file does not exist (the message lists
     *     every path tried)
     * @throws DataFormatException when a split matches more than one file (the message lists them)
     */
    public static DatasetFiles resolve(Path dir, String name) throws IOException {
        Objects.requireNonNull(dir, "dir");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a dataset name is required");
        }
        if (!Files.isDirectory(dir)) {
            throw new FileNotFoundException("data directory " + dir + " does not exist or is not a directory");
        }
        return new DatasetFiles(find(dir, name, "TRAIN"), find(dir, name, "TEST"));
    }

    /** Every path {@link #resolve} looks at for one split ({@code "TRAIN"} or {@code "TEST"}), in order. */
    public static List<Path> candidates(Path dir, String name, String split) {
        List<Path> out = new ArrayList<>();
        for (Path base : List.of(dir.resolve(name), dir)) {
            for (String ext : EXTENSIONS) {
                for (String gz : List.of("", ".gz")) {
                    out.add(base.resolve(name + "_" + split + ext + gz));
                }
            }
        }
        return out;
    }

    private static Path find(Path dir, String name, String split) throws IOException {
        List<Path> tried = candidates(dir, name, split);
        List<Path> found = new ArrayList<>();
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                found.add(p);
            }
        }
        if (found.isEmpty()) {
            throw new FileNotFoundException("no " + split.toLowerCase(Locale.ROOT) + " file for dataset '" + name
                    + "' in " + dir + "; tried " + join(tried));
        }
        if (found.size() > 1) {
            throw new DataFormatException(
                    dir,
                    0,
                    "dataset '" + name + "' is ambiguous: " + found.size() + " " + split.toLowerCase(Locale.ROOT)
                            + " files match (" + join(found) + "); remove all but one or name the files with"
                            + " --train/--test");
        }
        return found.get(0);
    }

    private static String join(List<Path> paths) {
        StringBuilder sb = new StringBuilder();
        for (Path p : paths) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(p);
        }
        return sb.toString();
    }

    /** Reads both splits with the checks of {@link TrainTest#load}. */
    public TrainTest load(ReadOptions options) throws IOException {
        return TrainTest.load(train, test, options);
    }

    /**
     * The dataset folders under an archive directory, sorted: what {@code vigil experiment} runs when no
     * {@code --datasets} is given.
     *
     * @throws IOException naming the directory when it is not one
     */
    public static List<String> datasetsUnder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("--data " + dir + " is not a directory");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory)
                    .map(f -> f.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }
}
