package io.vigil.research;

import io.vigil.experiment.ReliabilityExperiment;
import io.vigil.experiment.TeaserComparison;
import io.vigil.experiment.TeaserComparison.Point;
import io.vigil.experiment.TeaserComparison.Row;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.TauOption;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil experiment teaser}: earlier at equal quality on the standard splits ({@link TeaserComparison}) — per
 * dataset TEASER's accuracy and earliness, where the certified curve first reaches that accuracy, whether no later,
 * and the default operating point's average cost beside Mori et al.'s. Writes {@code teaser.md}.
 */
@Command(
        name = "teaser",
        mixinStandardHelpOptions = true,
        description = {
            "Earlier at equal quality on the standard splits: TEASER (evaluate --method teaser) against the certified",
            "curve (per target reliability, the model vigil train --target-reliability T writes), where the curve first",
            "reaches TEASER's accuracy and whether no later than TEASER's earliness, with the default operating",
            "point's average cost (1 - accuracy) + alpha * t/d beside Mori et al.'s published figures (the comparison",
            "of the benchmarks runs --datasets ItalyPowerDemand,TwoLeadECG,ECGFiveDays,CBF,GunPoint,SyntheticControl).",
            "Writes teaser.md."
        })
public final class TeaserExperimentCommand implements Callable<Integer> {
    static final String MARKDOWN = "teaser.md";

    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--taus",
            split = ",",
            paramLabel = "T",
            defaultValue = "0.5,0.55,0.6,0.65,0.7,0.75,0.8,0.85,0.9,0.95,0.97,0.99",
            description = "Target reliabilities of the certified curve (default: the grid vigil train chooses from,"
                    + " ${DEFAULT-VALUE}).")
    List<Double> taus;

    @Option(
            names = "--alpha",
            defaultValue = "0.01",
            paramLabel = "A",
            description = "Delay cost of the average cost (1 - accuracy) + A * t/d (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(
            names = "--guarantee",
            paramLabel = "pac|expected",
            defaultValue = "pac",
            description = "Guarantee every model of the curve is certified under, as vigil train --guarantee "
                    + "(default: ${DEFAULT-VALUE}).")
    String guarantee;

    @Option(
            names = "--crc-draw",
            paramLabel = "random|conservative",
            defaultValue = "random",
            description = "With --guarantee expected, conformal risk control's draw U: random (one per dataset, "
                    + "seeded by --seed and the dataset's name, as vigil train draws one per model) or conservative "
                    + "(U = 1) (default: ${DEFAULT-VALUE}).")
    String crcDraw;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The draw U for one dataset: 1 unless expected and random; else uniform in (0, 1] from a stream seeded by the seed
     * and the dataset's name (reproducible, unrelated to the models' seeds).
     */
    private double draw(Guarantee g, boolean randomised, String dataset) {
        if (g != Guarantee.EXPECTED || !randomised) {
            return ConformalRiskControl.CONSERVATIVE;
        }
        return 1.0 - new SplittableRandom(archive.seed.value * 0x9E3779B97F4A7C15L ^ dataset.hashCode()).nextDouble();
    }

    @Override
    public Integer call() throws IOException {
        TauOption.checkTaus(spec, taus);
        if (!(alpha >= 0 && Double.isFinite(alpha))) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--alpha must be finite and >= 0, got " + alpha);
        }
        Guarantee g = CommandLines.usage(spec, () -> Guarantee.fromCliName(guarantee));
        boolean randomised = CommandLines.usage(spec, () -> GuaranteeExperimentCommand.randomisedCrc(crcDraw));
        List<String> names = archive.names();
        List<Row> rows = new ArrayList<>();
        try (Progress progress = Progress.bar("teaser", (1L + taus.size()) * names.size(), !archive.json.value)) {
            for (String name : names) {
                rows.add(TeaserComparison.run(
                        archive.load(name), taus, archive.seed.value, g, draw(g, randomised, name), progress));
            }
        }
        String md = "Every model certified under `" + g.cliName() + "`"
                + (g == Guarantee.EXPECTED ? " (conformal draw " + crcDraw + ")" : "") + ".\n\n"
                + markdown(rows, alpha);
        Files.createDirectories(archive.out.value);
        Files.writeString(archive.out.value.resolve(MARKDOWN), md);
        PrintWriter o = spec.commandLine().getOut();
        if (archive.json.value) {
            Map<String, Object> m = json(rows, alpha);
            m.put("guarantee", g.cliName());
            if (g == Guarantee.EXPECTED) {
                m.put("crc_draw", crcDraw);
            }
            o.println(Json.line(m));
        } else {
            o.print(md);
            o.println("wrote " + archive.out.value.resolve(MARKDOWN));
        }
        o.flush();
        return 0;
    }

    static Map<String, Object> json(List<Row> rows, double alpha) {
        List<Object> datasets = new ArrayList<>();
        int noLater = 0;
        int noLaterReference = 0;
        int reference = 0;
        for (Row r : rows) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("dataset", r.dataset());
            d.put("train_size", r.trainSize());
            d.put("full_accuracy", r.fullAccuracy());
            d.put("teaser", point(r.teaser(), alpha));
            double at = r.reaches(r.teaser().accuracy());
            d.put("reaches_teaser_accuracy_at", Double.isNaN(at) ? null : at);
            boolean ok = r.noLater(r.teaser().accuracy(), r.teaser().earliness());
            d.put("no_later_than_teaser", ok);
            noLater += ok ? 1 : 0;
            double[] ref = ReliabilityExperiment.TEASER.get(r.dataset());
            if (ref != null) {
                double refAt = r.reaches(ref[0]);
                boolean refOk = r.noLater(ref[0], ref[1]);
                d.put("teaser_weasel", Map.of("accuracy", ref[0], "earliness", ref[1]));
                d.put("reaches_teaser_weasel_accuracy_at", Double.isNaN(refAt) ? null : refAt);
                d.put("no_later_than_teaser_weasel", refOk);
                reference++;
                noLaterReference += refOk ? 1 : 0;
            }
            List<Object> curve = new ArrayList<>();
            for (Point p : r.curve()) {
                curve.add(point(p, alpha));
            }
            d.put("curve", curve);
            d.put("operating_point", point(r.operatingPoint(), alpha));
            double mori = TeaserComparison.moriAverageCost(r.dataset(), alpha);
            d.put("mori_avg_cost", Double.isNaN(mori) ? null : mori);
            datasets.add(d);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("alpha", alpha);
        m.put("datasets", datasets);
        m.put("compared", rows.size());
        m.put("no_later_than_teaser", noLater);
        m.put("compared_with_teaser_weasel", reference);
        m.put("no_later_than_teaser_weasel", noLaterReference);
        return m;
    }

    private static Map<String, Object> point(Point p, double alpha) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!Double.isNaN(p.tau())) {
            m.put("tau", p.tau());
            m.put("certified", p.certified());
            m.put("rule", p.rule());
            m.put("classifier", p.classifier());
        }
        m.put("accuracy", p.accuracy());
        m.put("earliness", p.earliness());
        m.put("avg_cost", p.averageCost(alpha));
        return m;
    }

    static String markdown(List<Row> rows, double alpha) {
        StringBuilder b = new StringBuilder();
        String a = fmt(alpha);
        b.append(
                        "| dataset | n train | TEASER acc / t/d | curve reaches it at t/d | no later | TEASER-WEASEL acc / t/d")
                .append(" | curve reaches it at | no later | default τ, certified | default acc / t/d")
                .append(" | avg cost α = ")
                .append(a)
                .append(" (default / TEASER / Mori et al.) |\n");
        b.append("|---|---:|---|---:|:---:|---|---:|:---:|---|---|---|\n");
        int noLater = 0;
        int noLaterReference = 0;
        int reference = 0;
        for (Row r : rows) {
            Point t = r.teaser();
            boolean ok = r.noLater(t.accuracy(), t.earliness());
            noLater += ok ? 1 : 0;
            double[] ref = ReliabilityExperiment.TEASER.get(r.dataset());
            String refCells = " |  |  | ";
            if (ref != null) {
                boolean refOk = r.noLater(ref[0], ref[1]);
                reference++;
                noLaterReference += refOk ? 1 : 0;
                refCells = " | " + fmt(ref[0]) + " / " + fmt(ref[1]) + " | " + at(r.reaches(ref[0])) + " | "
                        + (refOk ? "yes" : "no") + " | ";
            }
            Point op = r.operatingPoint();
            double mori = TeaserComparison.moriAverageCost(r.dataset(), alpha);
            b.append("| ")
                    .append(r.dataset())
                    .append(" | ")
                    .append(r.trainSize())
                    .append(" | ")
                    .append(fmt(t.accuracy()))
                    .append(" / ")
                    .append(fmt(t.earliness()))
                    .append(" | ")
                    .append(at(r.reaches(t.accuracy())))
                    .append(" | ")
                    .append(ok ? "yes" : "no")
                    .append(refCells)
                    .append(fmt(op.tau()))
                    .append(op.certified() ? ", yes" : ", no")
                    .append(" | ")
                    .append(fmt(op.accuracy()))
                    .append(" / ")
                    .append(fmt(op.earliness()))
                    .append(" | ")
                    .append(fmt(op.averageCost(alpha)))
                    .append(" / ")
                    .append(fmt(t.averageCost(alpha)))
                    .append(" / ")
                    .append(Double.isNaN(mori) ? "" : fmt(mori))
                    .append(" |\n");
        }
        b.append("\nNo later than TEASER on ")
                .append(noLater)
                .append(" of ")
                .append(rows.size())
                .append("; than TEASER-WEASEL on ")
                .append(noLaterReference)
                .append(" of ")
                .append(reference)
                .append(
                        ".\n\nCertified curve per dataset (τ: accuracy / t/d, * = not certified, decides at t = d):\n\n");
        for (Row r : rows) {
            b.append("- ").append(r.dataset()).append(':');
            for (Point p : r.curve()) {
                b.append(' ')
                        .append(fmt(p.tau()))
                        .append(p.certified() ? "" : "*")
                        .append(' ')
                        .append(fmt(p.accuracy()))
                        .append('/')
                        .append(fmt(p.earliness()))
                        .append(p.certified() ? " (" + p.rule() + ", " + p.classifier() + ")" : "")
                        .append(';');
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String at(double fraction) {
        return Double.isNaN(fraction) ? "never" : fmt(fraction);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
