package io.vigil.research;

import io.vigil.data.TrainTest;
import io.vigil.experiment.ReliabilityExperiment;
import io.vigil.experiment.ReliabilityReport;
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
 * {@code vigil experiment reliability}: the calibrated-operating-point benchmark on the standard splits of every dataset under
 * {@code --data} (or those named): operating point vs TEASER, reliability per τ, coverage before/after calibration.
 */
@Command(
        name = "reliability",
        mixinStandardHelpOptions = true,
        description = {
            "Train with the defaults (cross-fitted calibration, operating point on training data), evaluate the",
            "standard test split at the operating point and at each tau, and write reliability.md/.csv."
        })
public final class ReliabilityExperimentCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--taus",
            split = ",",
            paramLabel = "T",
            defaultValue = "0.5,0.8,0.9,0.95,0.99",
            description = "Announced reliabilities to check (default: ${DEFAULT-VALUE}).")
    List<Double> taus;

    @Option(
            names = "--delta",
            paramLabel = "D",
            defaultValue = "0.1",
            description = "Learn-then-Test's delta, as vigil train --delta: each tau is certified with confidence "
                    + "1 - D (default: ${DEFAULT-VALUE}).")
    double delta;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TauOption.checkTaus(spec, taus);
        if (!(delta > 0 && delta < 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--delta must lie in (0, 1), got " + delta);
        }
        List<String> names = archive.requireNames();
        List<ReliabilityExperiment.Row> rows = new ArrayList<>();
        try (Progress progress = Progress.bar("reliability", 4L * names.size(), !archive.json.value)) {
            for (String name : names) {
                TrainTest tt = archive.load(name);
                rows.add(ReliabilityExperiment.run(tt, taus, archive.seed.value, delta, progress));
            }
        }
        ReliabilityReport.write(rows, taus, archive.out.value);
        ReliabilityExperiment.Summary s = ReliabilityExperiment.summarise(rows);
        PrintWriter o = spec.commandLine().getOut();
        if (archive.json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("datasets", names);
            m.put("compared_with_teaser", s.compared());
            m.put("wins", s.wins());
            m.put("mean_harmonic_mean", s.meanHm());
            m.put("mean_teaser_harmonic_mean", s.meanTeaserHm());
            m.put("significantly_below_tau", s.shortfalls());
            m.put(
                    "report",
                    archive.out.value.resolve(ReliabilityReport.MARKDOWN).toString());
            o.println(Json.line(m));
        } else {
            o.print(ReliabilityReport.markdown(rows, taus));
            o.println(
                    "wrote " + archive.out.value.resolve(ReliabilityReport.MARKDOWN) + " and " + ReliabilityReport.CSV);
        }
        o.flush();
        return 0;
    }
}
