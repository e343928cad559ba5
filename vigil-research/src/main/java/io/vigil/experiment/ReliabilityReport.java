package io.vigil.experiment;

import io.vigil.early.DecisionParams;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.Binomial;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.model.CalibrationSection;
import io.vigil.reliability.risk.LearnThenTest;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code reliability.md} and {@code reliability.csv} of {@code vigil experiment reliability}. */
public final class ReliabilityReport {
    /** The markdown file name. */
    public static final String MARKDOWN = "reliability.md";

    /** The CSV file name. */
    public static final String CSV = "reliability.csv";

    private ReliabilityReport() {}

    /** Writes both files into {@code dir}. */
    public static void write(List<ReliabilityExperiment.Row> rows, List<Double> taus, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(rows, taus), StandardCharsets.UTF_8);
        try (Writer w = Files.newBufferedWriter(dir.resolve(CSV), StandardCharsets.UTF_8)) {
            w.write("dataset,train_size,test_size,rule,classifier,op_tau,op_certified,accuracy,mean_fraction,"
                    + "harmonic_mean,teaser_harmonic_mean,tau,reliability,reliability_lower95,certified,tau_mean_fraction,"
                    + "earliest_reliability,earliest_mean_fraction,full_accuracy\n");
            for (ReliabilityExperiment.Row r : rows) {
                EarlyEvaluation.TauResult op = r.operatingPoint().taus().get(0);
                EarlyEvaluation.TauResult e = r.earliest().taus().get(0);
                for (EarlyEvaluation.TauResult t : r.taus().taus()) {
                    w.write(String.format(
                            Locale.ROOT,
                            "%s,%d,%d,%s,%s,%s,%s,%.4f,%.4f,%.4f,%s,%s,%.4f,%.4f,%s,%.4f,%.4f,%.4f,%.4f%n",
                            r.dataset(),
                            r.trainSize(),
                            r.operatingPoint().testSize(),
                            r.operatingPoint().params().rule().cliName(),
                            r.operatingPoint().params().classifier().cliName(),
                            op.tau(),
                            op.certified(),
                            op.accuracy(),
                            op.meanFraction(),
                            op.harmonicMean(),
                            Double.isNaN(ReliabilityExperiment.teaserHarmonicMean(r.dataset()))
                                    ? ""
                                    : String.format(
                                            Locale.ROOT, "%.4f", ReliabilityExperiment.teaserHarmonicMean(r.dataset())),
                            t.tau(),
                            t.reliability(),
                            t.reliabilityInterval()[0],
                            t.certified(),
                            t.meanFraction(),
                            e.reliability(),
                            e.meanFraction(),
                            r.operatingPoint().fullAccuracy()));
                }
            }
        }
    }

    /** Series the operating point's curve replayed (classes with a single series are never held out). */
    private static int replayed(ReliabilityExperiment.Row r) {
        DecisionParams p = r.operatingPoint().params();
        return r.model()
                .section(CalibrationSection.class)
                .flatMap(c -> c.curve(p.rule(), p.classifier(), p.set(), p.estimator()))
                .map(CalibrationSection.Curve::series)
                .orElse(r.trainSize());
    }

    /** The reliability the operating point's curve needs for τ to be certified; 1 when it cannot be at all. */
    private static double required(ReliabilityExperiment.Row r, double tau) {
        int n = replayed(r);
        return r.model()
                .section(CalibrationSection.class)
                .map(c -> c.requiredReliability(n, tau))
                .orElseGet(() -> LearnThenTest.requiredReliability(n, 1 - tau, CalibrationParams.DEFAULT_DELTA))
                .orElse(1.0);
    }

    private static void row(StringBuilder sb, String label, double[] sums, int rows) {
        sb.append("\n| ").append(label).append(" | |");
        for (double v : sums) {
            sb.append(String.format(Locale.ROOT, " %+.3f |", v / Math.max(1, rows)));
        }
    }

    /** How the rows' operating points were chosen, from the first model's stored point. */
    private static String objective(List<ReliabilityExperiment.Row> rows) {
        return rows.stream()
                .flatMap(r ->
                        r
                                .model()
                                .section(CalibrationSection.class)
                                .flatMap(CalibrationSection::operatingPoint)
                                .stream())
                .findFirst()
                .map(p -> "objective " + p.objective()
                        + (Double.isNaN(p.targetReliability()) ? "" : ", target " + p.targetReliability()))
                .orElse("no operating point");
    }

    /** The markdown text: operating points against TEASER, reliability per τ, coverage before/after. */
    public static String markdown(List<ReliabilityExperiment.Row> rows, List<Double> taus) {
        StringBuilder sb = new StringBuilder("# Reliable early decisions: operating point and calibration\n\n");
        sb.append("Standard train/test splits. Every choice (parameters, calibration, operating point) is made on the "
                + "training split by cross-fitting; the test split is only evaluated. HM = 2·acc·(1 − t/d)/(acc + "
                + "1 − t/d). TEASER (WEASEL slaves, tsml-java) as measured for the comparison in BENCHMARKS.md.\n\n");
        sb.append("## Operating point (").append(objective(rows)).append(")\n\n");
        sb.append(
                "Full: the same classifier on the complete test series; Δ = accuracy − full. A τ that is not certified "
                        + "is decided at t = d, so its accuracy is the full one.\n\n");
        sb.append(
                "| dataset | n train | rule / classifier | τ | certified | accuracy | full | Δ | t/d | HM | TEASER HM |\n");
        sb.append("|---|---:|---|---:|:---:|---:|---:|---:|---:|---:|---:|\n");
        int within5 = 0;
        int within10 = 0;
        double sumFraction = 0;
        for (ReliabilityExperiment.Row r : rows) {
            EarlyEvaluation.TauResult t = r.operatingPoint().taus().get(0);
            double teaser = ReliabilityExperiment.teaserHarmonicMean(r.dataset());
            double gap = t.accuracy() - r.operatingPoint().fullAccuracy();
            within5 += gap >= -0.05 - 1e-12 ? 1 : 0;
            within10 += gap >= -0.10 - 1e-12 ? 1 : 0;
            sumFraction += t.meanFraction();
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s / %s | %s | %s | %.3f | %.3f | %+.3f | %.3f | %s%.3f%s | %s |%n",
                    r.dataset(),
                    r.trainSize(),
                    r.operatingPoint().params().rule().cliName(),
                    r.operatingPoint().params().classifier().cliName(),
                    t.tau(),
                    t.certified() ? "yes" : "no",
                    t.accuracy(),
                    r.operatingPoint().fullAccuracy(),
                    gap,
                    t.meanFraction(),
                    !Double.isNaN(teaser) && t.harmonicMean() > teaser ? "**" : "",
                    t.harmonicMean(),
                    !Double.isNaN(teaser) && t.harmonicMean() > teaser ? "**" : "",
                    Double.isNaN(teaser) ? "" : String.format(Locale.ROOT, "%.2f", teaser)));
        }
        sb.append(String.format(
                Locale.ROOT,
                "%nAccuracy ≥ full − 0.10 on %d of %d, ≥ full − 0.05 on %d of %d; mean t/d %.3f.%n",
                within10,
                rows.size(),
                within5,
                rows.size(),
                sumFraction / Math.max(1, rows.size())));
        ReliabilityExperiment.Summary s = ReliabilityExperiment.summarise(rows);
        if (s.compared() > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%nAbove TEASER on %d of %d; mean HM %.3f vs TEASER %.3f.%n",
                    s.wins(),
                    s.compared(),
                    s.meanHm(),
                    s.meanTeaserHm()));
        }
        sb.append("\n## Reliability per τ (operating point's rule and classifier)\n\n");
        sb.append("Cell: reliability / mean t/d; `!` significantly below τ (one-sided binomial test, 5 %); `*` τ not "
                + "certified by the training split (decided at t = d). Earliest: the same rule at its least "
                + "conservative threshold, deciding as early as it can; no τ can make it less reliable than that, so "
                + "max(0, earliest − τ) is a part of reliability − τ that no calibration removes. Certification "
                + "margin: the cross-fitted reliability Learn-then-Test needs to certify τ on n training series at "
                + "confidence 1 − δ, minus τ (1 − τ when τ cannot be certified and is decided at t = d) — what a "
                + "rule certified exactly at the boundary is more reliable than announced when its cross-fitted rate "
                + "holds on new series.\n\n| dataset | "
                + "earliest |");
        for (double t : taus) {
            sb.append(" τ = ").append(t).append(" |");
        }
        sb.append("\n|---|---:|");
        sb.append("---:|".repeat(taus.size()));
        sb.append('\n');
        double[] gap = new double[taus.size()];
        double[] bound = new double[taus.size()];
        double[] margin = new double[taus.size()];
        double[] either = new double[taus.size()];
        for (ReliabilityExperiment.Row r : rows) {
            EarlyEvaluation.TauResult e = r.earliest().taus().get(0);
            sb.append("| ")
                    .append(r.dataset())
                    .append(String.format(Locale.ROOT, " | %.3f / %.2f |", e.reliability(), e.meanFraction()));
            List<EarlyEvaluation.TauResult> ts = r.taus().taus();
            for (int k = 0; k < ts.size(); k++) {
                EarlyEvaluation.TauResult t = ts.get(k);
                bound[k] += Math.max(0, e.reliability() - t.tau());
                // A τ that cannot be certified on these series is decided at t = d: its margin is 1 − τ.
                double m = required(r, t.tau()) - t.tau();
                margin[k] += m;
                either[k] += Math.max(m, e.reliability() - t.tau());
                int n = t.decisions().size();
                boolean below = Binomial.pBelow((int) Math.round(t.reliability() * n), n, t.tau()) < 0.05;
                gap[k] += t.reliability() - t.tau();
                sb.append(String.format(
                        Locale.ROOT,
                        " %.3f%s%s / %.2f |",
                        t.reliability(),
                        below ? "!" : "",
                        t.certified() ? "" : "*",
                        t.meanFraction()));
            }
            sb.append('\n');
        }
        sb.append("| **mean reliability − τ** | |");
        for (double g : gap) {
            sb.append(String.format(Locale.ROOT, " %+.3f |", g / Math.max(1, rows.size())));
        }
        row(sb, "mean max(0, earliest − τ)", bound, rows.size());
        row(sb, "mean certification margin", margin, rows.size());
        row(sb, "mean max(earliest − τ, margin)", either, rows.size());
        sb.append(String.format(
                Locale.ROOT,
                "%n%nSignificantly below τ: %s.%n",
                s.shortfalls().isEmpty() ? "none" : String.join(", ", s.shortfalls())));
        sb.append("\n## Coverage of the Gaussian 0.9-set\n\n");
        sb.append("Fraction of samples t < d whose τ-set contains the series' true LDG projection. Test split: the "
                + "full model on series it never saw (± one standard error over series). Cross-fitted: the "
                + "training replays the inflation was fitted on (0.9 after inflation by construction).\n\n");
        sb.append("| dataset | test, model's R_y | test, inflated R_y | cross-fitted, model's R_y |\n"
                + "|---|---:|---:|---:|\n");
        for (ReliabilityExperiment.Row r : rows) {
            int k90 = java.util.Arrays.binarySearch(r.coverageTaus(), 0.9);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %.3f | %.3f ± %.3f | %s |%n",
                    r.dataset(),
                    r.testCoverage().before(),
                    r.testCoverage().after(),
                    r.testCoverage().afterStandardError(),
                    k90 >= 0 ? String.format(Locale.ROOT, "%.3f", r.coverageBefore()[k90]) : ""));
        }
        return sb.toString();
    }
}
