package io.vigil.bench;

import io.vigil.api.Vigil;
import io.vigil.cli.VigilCli;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.early.DecisionOverrides;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * The window model and the keyed value stream the watch benchmarks run ({@code vigil bench watch}, {@link
 * WatchCostBenchmark}): {@code vigil generate --kind event-stream}'s recordings widened to C channels, and a window
 * model of D samples and stride S trained on them by {@code vigil train --recordings --window D --stride S}, the
 * command a user runs. Channel 0 is the generated signal; channel c ≥ 1 is the same signal scaled by (1 + c/4),
 * with the sign alternating, plus an AR(1) process of its own (φ = 0.8, sd 0.5), so every channel carries the events
 * and none is a copy of another. Training a C·D = 1,200-value window model takes minutes on two cores, so the recordings
 * and the model are cached in a directory named by the shape and seed and reused while the model file is there.
 */
public final class WatchWorkload {
    /** Recordings generated (about 30 % of them in the test split, which the benchmarks replay). */
    static final int RECORDINGS = 8;

    private static final double PHI = 0.8;
    private static final double NOISE_SD = 0.5;

    private WatchWorkload() {}

    /**
     * The shape of the model and stream.
     *
     * @param channels C ≥ 1
     * @param length window length D ≥ 2
     * @param stride window stride S, 1 ≤ S ≤ D
     * @param samples samples per generated recording (≥ {@link EventStream#MIN_LENGTH})
     * @param calibrated whether {@code vigil train} calibrates (its default) or runs with {@code --no-calibration}
     * @param seed data seed
     */
    public record Shape(int channels, int length, int stride, int samples, boolean calibrated, long seed) {
        /** Validates. */
        public Shape {
            if (channels < 1 || length < 2 || stride < 1 || stride > length) {
                throw new IllegalArgumentException(
                        "need C ≥ 1, D ≥ 2 and 1 ≤ S ≤ D, got C = " + channels + ", D = " + length + ", S = " + stride);
            }
            if (samples < Math.max(EventStream.MIN_LENGTH, 2 * length)) {
                throw new IllegalArgumentException("recordings of " + samples + " samples are too short for windows of "
                        + length + " (need ≥ " + Math.max(EventStream.MIN_LENGTH, 2 * length) + ")");
            }
        }

        /** The cache directory's name. */
        String id() {
            return String.format(
                    Locale.ROOT,
                    "C%d-D%d-S%d-n%d-%s-seed%d",
                    channels,
                    length,
                    stride,
                    samples,
                    calibrated ? "calibrated" : "uncalibrated",
                    seed);
        }
    }

    /**
     * A trained window model and the recordings it was trained on.
     *
     * @param vigil the loaded model (default decision parameters)
     * @param modelBytes the model file's bytes, as {@code vigil run --watch} reads them
     * @param recordings the C-channel recording set (train and test splits)
     * @param cached whether the model was read from the cache rather than trained now
     * @param trainSeconds wall time of training (0 when cached)
     */
    public record Model(Vigil vigil, byte[] modelBytes, RecordingSet recordings, boolean cached, double trainSeconds) {}

    /** The C-channel recording set of {@code shape}: the generated signal, widened as the class comment says. */
    public static RecordingSet recordings(Shape shape) {
        RecordingSet base = EventStream.generate(RECORDINGS, shape.samples(), shape.seed());
        List<Recording> wide = new ArrayList<>();
        Map<String, String> splits = new LinkedHashMap<>();
        SplittableRandom rnd = new SplittableRandom(shape.seed() ^ 0x5bd1e995L);
        for (Recording r : base.recordings()) {
            double[] x = r.channel(0);
            double[][] values = new double[shape.channels()][];
            List<String> names = new ArrayList<>();
            values[0] = x.clone();
            names.add("ch0");
            double innovation = NOISE_SD * Math.sqrt(1 - PHI * PHI);
            for (int c = 1; c < shape.channels(); c++) {
                double scale = (c % 2 == 0 ? 1 : -1) * (1 + c / 4.0);
                double ar = NOISE_SD * rnd.nextGaussian();
                double[] v = new double[x.length];
                for (int i = 0; i < x.length; i++) {
                    ar = PHI * ar + innovation * rnd.nextGaussian();
                    v[i] = scale * x[i] + ar;
                }
                values[c] = v;
                names.add("ch" + c);
            }
            double[] times = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                times[i] = r.timeMs(i + 1);
            }
            wide.add(new Recording(
                    r.name(), names, values, times, r.samplingRateHz().orElse(EventStream.SAMPLING_RATE_HZ)));
            base.splitOf(r.name()).ifPresent(s -> splits.put(r.name(), s));
        }
        return new RecordingSet(wide, base.events(), splits);
    }

    /**
     * The model of {@code shape}: read from {@code cacheRoot}/{@link Shape#id()} when it was trained there before, else
     * trained now by {@code vigil train --recordings} (and left there).
     *
     * @param log receives a line before training and one after
     * @throws IOException when the cache cannot be written or read
     * @throws IllegalStateException when {@code vigil train} fails (its error output in the message)
     */
    public static Model model(Shape shape, Path cacheRoot, Consumer<String> log) throws IOException {
        Path dir = cacheRoot.resolve(shape.id());
        Path model = dir.resolve("window-model.json");
        RecordingSet set = recordings(shape);
        boolean cached = Files.isRegularFile(model);
        double seconds = 0;
        if (!cached) {
            Path rec = dir.resolve("recordings");
            Files.createDirectories(rec);
            RecordingWriter.writeSet(set, rec, false);
            List<String> args = new ArrayList<>(List.of(
                    "train",
                    "--recordings",
                    rec.toString(),
                    "--window",
                    Integer.toString(shape.length()),
                    "--stride",
                    Integer.toString(shape.stride()),
                    "--json",
                    "--out",
                    dir.resolve("window-model.tmp.json").toString()));
            if (!shape.calibrated()) {
                args.add("--no-calibration");
            }
            log.accept("training the window model: vigil " + String.join(" ", args));
            StringWriter err = new StringWriter();
            CommandLine cli = VigilCli.commandLine();
            cli.setErr(new PrintWriter(err));
            cli.setOut(new PrintWriter(new StringWriter()));
            long start = System.nanoTime();
            int code = cli.execute(args.toArray(String[]::new));
            seconds = (System.nanoTime() - start) / 1e9;
            if (code != 0) {
                throw new IllegalStateException("vigil train failed (exit " + code + "): " + err);
            }
            Files.move(dir.resolve("window-model.tmp.json"), model);
            log.accept(String.format(Locale.ROOT, "trained in %.1f s, cached in %s", seconds, model));
        } else {
            log.accept("window model read from the cache " + model);
        }
        byte[] bytes = Files.readAllBytes(model);
        Vigil vigil = Vigil.of(ModelFile.standard().load(model), DecisionOverrides.none());
        return new Model(vigil, bytes, set, cached, seconds);
    }

    /** The default cache root: {@code java.io.tmpdir}/vigil-bench-watch. */
    public static Path defaultCache() {
        return Path.of(System.getProperty("java.io.tmpdir"), "vigil-bench-watch");
    }
}
