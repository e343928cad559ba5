package io.vigil.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Generated CBF and a model trained on it through the CLI ({@code vigil generate}, then {@code vigil train}), made
 * once per JVM for each distinct setup and shared by the test classes that ask for it; the files live in one temporary
 * directory removed when the JVM exits.
 *
 * @param data the archive directory holding {@code CBF/CBF_TRAIN.tsv} and {@code CBF/CBF_TEST.tsv}
 * @param model the model file
 * @param train what {@code vigil train} printed
 */
public record TrainedCbf(Path data, Path model, Run train) {
    /** LDG and local-QDA parameters fixed, so training is quick. */
    public static final List<String> FIXED =
            List.of("--dims", "4", "--gamma", "0.3", "--neighbors", "8", "--qda-neighbors", "8");

    private static final Map<String, TrainedCbf> MADE = new ConcurrentHashMap<>();
    private static final Path ROOT = root();

    /**
     * CBF with {@code train} and {@code test} series generated with {@code seed}, trained with {@code flags} ({@code
     * --data}, {@code --dataset} and {@code --out} are added); training must succeed.
     */
    public static TrainedCbf of(int train, int test, long seed, List<String> flags) {
        String key = train + "/" + test + "/" + seed + "/" + String.join(" ", flags);
        return MADE.computeIfAbsent(key, k -> make(train, test, seed, flags, ROOT.resolve("setup-" + MADE.size())));
    }

    private static TrainedCbf make(int train, int test, long seed, List<String> flags, Path dir) {
        Path data = dir.resolve("archive");
        Path model = dir.resolve("cbf.json");
        Run.of(
                        "generate",
                        "--kind",
                        "cbf",
                        "--train",
                        "" + train,
                        "--test",
                        "" + test,
                        "--seed",
                        "" + seed,
                        "--out",
                        data.toString())
                .ok();
        List<String> args = new ArrayList<>(
                List.of("train", "--data", data.toString(), "--dataset", "CBF", "--out", model.toString()));
        args.addAll(flags);
        return new TrainedCbf(data, model, Run.of(args).ok());
    }

    private static Path root() {
        try {
            Path root = Files.createTempDirectory("vigil-trained-cbf");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root)));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing the JVM's exit
        }
    }
}
