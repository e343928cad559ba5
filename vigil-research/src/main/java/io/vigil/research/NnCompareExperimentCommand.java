package io.vigil.research;

import io.vigil.data.DatasetFiles;
import io.vigil.data.LengthPolicy;
import io.vigil.data.ReadOptions;
import io.vigil.experiment.NnCompare;
import io.vigil.flink.cli.Json;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil experiment nn-compare}: full-series accuracy of the default training-only selection against 1-NN
 * Euclidean on the standard split of every data set under {@code --data} ({@link NnCompare}).
 */
@Command(
        name = "nn-compare",
        mixinStandardHelpOptions = true,
        description = {
            "Train with the defaults (selection on the training split only, no calibration), then score local QDA",
            "(the model's classifier) and 1-NN Euclidean on the raw series on the test split; writes",
            "nn-compare.md and nn-compare.json."
        })
public final class NnCompareExperimentCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--length-policy",
            paramLabel = "P",
            defaultValue = "reject",
            description = "Unequal lengths: reject, truncate or pad-last, as vigil train (default: ${DEFAULT-VALUE}).")
    String lengthPolicy;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "1",
            description = "Threads of the cross-validation folds (default: ${DEFAULT-VALUE}).")
    int threads;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (threads < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be ≥ 1, got " + threads);
        }
        ReadOptions read;
        try {
            read = ReadOptions.DEFAULT.withLengthPolicy(LengthPolicy.fromCliName(lengthPolicy));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        List<String> names = archive.requireNames();
        List<NnCompare.Row> rows = new ArrayList<>();
        PrintWriter err = spec.commandLine().getErr();
        try (Progress progress = Progress.bar("nn-compare", names.size(), !archive.json.value)) {
            for (String name : names) {
                NnCompare.Row r = NnCompare.run(
                        DatasetFiles.resolve(archive.dataDir, name).load(read), archive.seed.value, threads, progress);
                rows.add(r);
                if (!archive.json.value) {
                    err.printf(
                            java.util.Locale.ROOT,
                            "%s: local QDA %.3f, 1-NN ED %.3f (%s, %.1f s)%n",
                            name,
                            r.localQda(),
                            r.nn1Euclidean(),
                            r.protocol(),
                            r.trainSeconds());
                    err.flush();
                }
            }
        }
        Files.createDirectories(archive.out.value);
        String md = NnCompare.markdown(rows);
        Files.writeString(archive.out.value.resolve("nn-compare.md"), md);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("data", archive.dataDir.toString());
        m.put("seed", archive.seed.value);
        m.put("tolerance", NnCompare.TOLERANCE);
        List<Map<String, Object>> list = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (NnCompare.Row r : rows) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("dataset", r.dataset());
            row.put("train_size", r.trainSize());
            row.put("channels", r.channels());
            row.put("length", r.seriesLength());
            row.put("protocol", r.protocol());
            row.put("dims", r.dims());
            row.put("qda_neighbors", r.qdaNeighbors());
            row.put("accuracy_local_qda", r.localQda());
            row.put("accuracy_3nn", r.knn3());
            row.put("accuracy_1nn_euclidean", r.nn1Euclidean());
            row.put("meets_goal", r.meetsGoal());
            row.put("train_seconds", r.trainSeconds());
            list.add(row);
            if (!r.meetsGoal()) {
                missing.add(r.dataset());
            }
        }
        m.put("datasets", list);
        m.put("below_1nn_euclidean", missing);
        String json = Json.line(m);
        Files.writeString(archive.out.value.resolve("nn-compare.json"), json + "\n");
        PrintWriter o = spec.commandLine().getOut();
        if (archive.json.value) {
            o.println(json);
        } else {
            o.print(md);
            o.println("wrote " + archive.out.value.resolve("nn-compare.md") + " and nn-compare.json");
        }
        o.flush();
        return 0;
    }
}
