package io.vigil.research;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.experiment.Resplit;
import io.vigil.experiment.TransferExperiment;
import io.vigil.experiment.TransferReport;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil experiment transfer}: transfer LDG against pooled PCA on a pair of related data sets (thesis §4.5), see
 * {@link TransferExperiment}.
 */
@Command(
        name = "transfer",
        mixinStandardHelpOptions = true,
        description = {
            "Thesis 4.5 protocol: all source series plus m target series per class for training, the rest of the",
            "target for testing; transfer LDG vs pooled PCA vs no reduction vs DTDKL, 3-NN; writes transfer.md/.csv.",
            "Example: vigil experiment transfer --data ucr --source SonyAIBORobotSurface1 "
                    + "--target SonyAIBORobotSurface2 --out out"
        })
public final class TransferExperimentCommand implements Callable<Integer> {
    @Mixin
    ResplitOptions resplit;

    @Option(
            names = "--source",
            required = true,
            paramLabel = "NAME",
            description = "Source data set (train and test splits merged; resampled to the target's length).")
    String source;

    @Option(
            names = "--target",
            required = true,
            paramLabel = "NAME",
            description = "Target data set (train and test splits merged, then m per class drawn for training).")
    String target;

    @Option(
            names = "--per-class",
            defaultValue = "2",
            paramLabel = "M",
            description = "Target training series per class (default: ${DEFAULT-VALUE}, as in the thesis).")
    int perClass;

    @Option(
            names = "--splits",
            defaultValue = "10",
            paramLabel = "N",
            description = "Random target splits (default: ${DEFAULT-VALUE}, as in the thesis).")
    int splits;

    @Option(
            names = "--dims",
            split = ",",
            defaultValue = "1,2,5,10,20",
            paramLabel = "L",
            description = "Dimensions to compare at (default: ${DEFAULT-VALUE}).")
    List<Integer> dims;

    @Option(
            names = "--standardize",
            description = "Standardise each domain's features with its own statistics first (thesis 4.5.3; the "
                    + "target's from its training part).")
    boolean standardize;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TransferExperiment.Config config = CommandLines.usage(
                spec,
                () -> new TransferExperiment.Config(
                        perClass,
                        splits,
                        resplit.seed.value,
                        dims.stream().mapToInt(Integer::intValue).toArray(),
                        resplit.threads,
                        standardize));
        Dataset src = merged(source);
        Dataset tgt = merged(target);
        TransferExperiment.Result r;
        try (Progress progress = Progress.bar("transfer " + source + " -> " + target, 0, !resplit.json.value)) {
            r = TransferExperiment.run(src, tgt, config, progress);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        String command = String.format(
                Locale.ROOT,
                "vigil experiment transfer --data %s --source %s --target %s --per-class %d --splits %d --dims %s "
                        + "--seed %d%s",
                resplit.dataDir,
                source,
                target,
                perClass,
                splits,
                String.join(",", dims.stream().map(String::valueOf).toList()),
                resplit.seed.value,
                standardize ? " --standardize" : "");
        TransferReport.write(r, command, resplit.out.value);
        PrintWriter o = spec.commandLine().getOut();
        if (resplit.json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("source", r.source());
            m.put("target", r.target());
            m.put("per_class", r.perClass());
            m.put("dims", r.dims());
            double[] ldg = new double[r.dims().length];
            double[] pca = new double[r.dims().length];
            for (int j = 0; j < ldg.length; j++) {
                ldg[j] = r.mean(0, j);
                pca[j] = r.mean(1, j);
            }
            m.put("transfer_ldg", ldg);
            m.put("pooled_pca", pca);
            m.put("none", r.mean(2, 0));
            double[] dtdkl = new double[r.dims().length];
            for (int j = 0; j < dtdkl.length; j++) {
                dtdkl[j] = r.mean(3, j);
            }
            m.put("dtdkl", dtdkl);
            m.put("report", resplit.out.value.resolve(TransferReport.MARKDOWN).toString());
            o.println(Json.line(m));
        } else {
            o.print(TransferReport.markdown(r, command));
            o.println("wrote " + resplit.out.value.resolve(TransferReport.MARKDOWN) + " and " + TransferReport.CSV);
        }
        o.flush();
        return 0;
    }

    private Dataset merged(String name) throws IOException {
        TrainTest tt = resplit.load(name);
        return Resplit.merge(tt.train(), tt.test());
    }
}
