package io.vigil.research;

import io.vigil.data.TrainTest;
import io.vigil.experiment.Fig58Experiment;
import io.vigil.experiment.Fig58Report;
import io.vigil.experiment.SplitCache;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.TauOption;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
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
 * {@code vigil experiment fig58}: thesis Figures 5.8–5.11 on the standard splits of the datasets under {@code --data}
 * — mean decision time against test reliability and accuracy for Vigil at several τ, ECTS at several minimum
 * supports, and the fixed-time local-QDA and 1-NN classifiers.
 */
@Command(
        name = "fig58",
        mixinStandardHelpOptions = true,
        description = {
            "Thesis Figures 5.8-5.11 (section 5.6.5): mean decision time vs test reliability and accuracy for Vigil",
            "(defaults, stored rule) at each tau, ECTS at each minimum support, and fixed-time local QDA and 1-NN at",
            "10%%, ..., 100%% of d. Writes fig58.md, fig58.csv and two plots per dataset."
        })
public final class Fig58ExperimentCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--taus",
            split = ",",
            paramLabel = "T",
            defaultValue = "0.001,0.1,0.3,0.5,0.7,0.8,0.9,0.95,0.99",
            description = "Vigil's announced reliabilities, each in (0, 1) (default: ${DEFAULT-VALUE}).")
    List<Double> taus;

    @Option(
            names = "--supports",
            split = ",",
            paramLabel = "S",
            defaultValue = "0,0.2,0.4,0.6,0.8,1",
            description = "ECTS minimum supports, each in [0, 1] (default: ${DEFAULT-VALUE}; 0 is the earliest"
                    + " ECTS can be).")
    List<Double> supports;

    @Mixin
    NoResumeOption noResume;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TauOption.checkTaus(spec, taus);
        for (double s : supports) {
            if (!(s >= 0 && s <= 1)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--supports values must lie in [0, 1], got " + s);
            }
        }
        List<String> names = archive.requireNames();
        SplitCache cache = SplitCache.at(archive.out.value.resolve("cache"), !noResume.value);
        List<Fig58Experiment.Row> rows = new ArrayList<>();
        try (Progress progress =
                Progress.bar("fig58", (long) Fig58Experiment.STEPS * names.size(), !archive.json.value)) {
            for (String name : names) {
                TrainTest tt = archive.load(name);
                rows.add(Fig58Experiment.run(name, tt, taus, supports, archive.seed.value, progress, cache));
            }
        }
        Fig58Report.write(rows, archive.out.value);
        PrintWriter o = spec.commandLine().getOut();
        int above = 0;
        int compared = 0;
        for (Fig58Experiment.Row r : rows) {
            int[] a = Fig58Report.aboveFixedTimeQda(r);
            above += a[0];
            compared += a[1];
        }
        if (archive.json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("datasets", names);
            m.put("vigil_points_above_fixed_time_qda", above);
            m.put("vigil_points", compared);
            m.put("resumed_datasets", cache.reused());
            m.put("report", archive.out.value.resolve(Fig58Report.MARKDOWN).toString());
            o.println(Json.line(m));
        } else {
            o.printf(
                    java.util.Locale.ROOT,
                    "%d of %d Vigil points on or above fixed-time local QDA's reliability at equal mean time%s%n",
                    above,
                    compared,
                    cache.reused() > 0
                            ? " (" + cache.reused() + " datasets resumed from " + archive.out.value.resolve("cache")
                                    + ")"
                            : "");
            o.println("wrote " + archive.out.value.resolve(Fig58Report.MARKDOWN) + ", " + Fig58Report.CSV
                    + " and the plots");
        }
        o.flush();
        return 0;
    }
}
