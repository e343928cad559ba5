package io.vigil.early;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the recorded fixtures that ModelFixtureTest, CompleteSeriesFormatFixtureTest and
 * PrefixDecisionsRegressionTest compare against: run on purpose only, when a format or a decision is meant to change
 * (then keep the old files as further fixtures). Run by {@code mvn -B -o -pl vigil-core -Pwrite-fixtures
 * process-test-classes} (docs/getting-started.md, "Regenerating the test fixtures").
 *
 * <p>Arguments: the test-resources directory to write under, the UCR archive directory (GunPoint's decisions are
 * written only when it is there), and optionally which fixtures ({@code model-format1}, {@code complete-series-v1},
 * {@code prefix-decisions}; default, or {@code all}: every one).
 */
public final class FixtureWriter {
    /** The fixtures by name. */
    static final List<String> ALL = List.of("model-format1", "complete-series-v1", "prefix-decisions");

    private FixtureWriter() {}

    /** Writes the fixtures; see the class comment for the arguments. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException(
                    "usage: FixtureWriter RESOURCES_DIR UCR_DIR [all|" + String.join("|", ALL) + " ...]");
        }
        Path resources = Path.of(args[0]);
        Path ucr = Path.of(args[1]);
        List<String> named = List.of(args).subList(2, args.length).stream()
                .filter(n -> !n.equals("all"))
                .toList();
        for (String n : named) {
            if (!ALL.contains(n)) {
                throw new IllegalArgumentException("unknown fixture '" + n + "'; fixtures: " + ALL);
            }
        }
        Set<String> which = Set.copyOf(named.isEmpty() ? ALL : named);
        if (which.contains("model-format1")) {
            modelFormatOne(resources.resolve("models"));
        }
        if (which.contains("complete-series-v1")) {
            completeSeriesVersionOne(resources.resolve("models"));
        }
        if (which.contains("prefix-decisions")) {
            prefixDecisions(resources.resolve("early"), ucr);
        }
    }

    /** ModelFixtureTest's CBF model and its queries with the local-QDA, 3-NN and 1-NN labels. */
    static void modelFormatOne(Path dir) throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 30, 20, 2024);
        Dataset train = data.train();
        VigilModel model = Trainer.train(
                train, TrainParams.builder().seed(7).build(), Instant.parse("2025-01-01T00:00:00Z"), Progress.none());
        Files.createDirectories(dir);
        ModelFile.standard().save(model, dir.resolve("cbf-format1.json"));
        Knn knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        LocalQda.Workspace ws = model.localQda().newWorkspace();
        double[] y = new double[model.dims()];
        List<String> lines = new ArrayList<>();
        Dataset test = data.test();
        for (int i = 0; i < test.size(); i++) {
            double[] s = test.series(i);
            model.project(s, y);
            StringBuilder b = new StringBuilder();
            b.append(model.classNames().get(model.localQda().predict(y, ws))).append('\t');
            b.append(model.classNames().get(knn.predict(y, 3))).append('\t');
            b.append(model.classNames().get(knn.predict(y, 1)));
            for (double v : s) {
                b.append('\t').append(String.format(Locale.ROOT, "%s", v));
            }
            lines.add(b.toString());
        }
        Files.write(dir.resolve("cbf-format1-queries.tsv"), lines, StandardCharsets.UTF_8);
        System.out.println("wrote " + dir.resolve("cbf-format1.json") + " and its queries");
    }

    /**
     * CompleteSeriesFormatFixtureTest's SyntheticControl model with both complete-series estimators and its queries
     * with their early decisions.
     */
    static void completeSeriesVersionOne(Path dir) throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 30, 12, 2025);
        Dataset train = data.train();
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(2)
                .qdaNeighbors(2)
                .seed(7)
                .build();
        VigilModel model = Trainer.train(train, p, Instant.parse("2025-06-01T00:00:00Z"), Progress.none());
        model = EarlyModelTrainer.addSections(model, train, EarlyModelTrainer.Params.defaults());
        Files.createDirectories(dir);
        ModelFile.standard().save(model, dir.resolve("synthetic-control-complete-series-v1.json"));
        Dataset test = data.test();
        double[][] series = new double[test.size()][];
        for (int i = 0; i < test.size(); i++) {
            series[i] = test.series(i);
        }
        int[][] d = CompleteSeriesFormatFixtureTest.decisions(model, series);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < series.length; i++) {
            StringBuilder b = new StringBuilder();
            b.append(d[i][0])
                    .append('\t')
                    .append(d[i][1])
                    .append('\t')
                    .append(d[i][2])
                    .append('\t')
                    .append(d[i][3]);
            for (double v : series[i]) {
                b.append('\t').append(String.format(Locale.ROOT, "%s", v));
            }
            lines.add(b.toString());
        }
        Files.write(dir.resolve("synthetic-control-complete-series-v1-queries.tsv"), lines, StandardCharsets.UTF_8);
        System.out.println("wrote " + dir.resolve("synthetic-control-complete-series-v1.json") + " and its queries");
    }

    /** PrefixDecisionsRegressionTest's decisions on generated CBF and, when the archive has it, UCR GunPoint. */
    static void prefixDecisions(Path dir, Path ucr) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve("prefix-decisions-cbf.txt"),
                String.join("\n", PrefixDecisionsRegressionTest.decisions(PrefixDecisionsRegressionTest.cbf())) + "\n");
        System.out.println("wrote " + dir.resolve("prefix-decisions-cbf.txt"));
        TrainTest gp = PrefixDecisionsRegressionTest.gunPoint(ucr);
        if (gp != null) {
            Files.writeString(
                    dir.resolve("prefix-decisions-gunpoint.txt"),
                    String.join("\n", PrefixDecisionsRegressionTest.decisions(gp)) + "\n");
            System.out.println("wrote " + dir.resolve("prefix-decisions-gunpoint.txt"));
        } else {
            System.out.println("UCR GunPoint not under " + ucr + ": prefix-decisions-gunpoint.txt left as it is");
        }
    }
}
