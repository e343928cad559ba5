package io.vigil.report;

import io.vigil.early.SeriesDecision;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.FixedTimeBaselines;
import io.vigil.kafka.SeriesId;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes {@code vigil evaluate --report DIR}: {@code report.md} (per-τ table and baselines), {@code
 * decisions.csv} (one row per series and τ: series id as {@code vigil replay} names it, τ, t, early label, complete
 * label, true label) and
 * two PNG plots in the style of thesis figures 5.6–5.11 — mean decision time against reliability and against
 * accuracy, one point per τ, the fixed-time baselines as curves — drawn with XChart. For a baseline method
 * ({@code --method} other than vigil) the table has one row without τ, the two plots show its single point beside
 * the curves, and the τ-indexed reliability diagram and HM plot are not written.
 */
public final class EarlyReport {
    /** The report file names, fixed so scripts can rely on them. */
    public static final String MARKDOWN = "report.md";

    /** Per-series decisions. */
    public static final String CSV = "decisions.csv";

    /** Mean decision time vs reliability. */
    public static final String RELIABILITY_PNG = "time-vs-reliability.png";

    /** Mean decision time vs accuracy. */
    public static final String ACCURACY_PNG = "time-vs-accuracy.png";

    /** Announced τ against empirical test reliability with exact 95 % binomial intervals. */
    public static final String DIAGRAM_PNG = "reliability-diagram.png";

    /** Harmonic mean of accuracy and earliness against τ. */
    public static final String HM_PNG = "hm-vs-tau.png";

    private EarlyReport() {}

    /**
     * Writes the report files into {@code dir} (created if needed), replacing earlier ones.
     *
     * @param classNames labels by class index, for the CSV
     */
    public static void write(EarlyEvaluation.Result r, List<String> classNames, Path dir) throws IOException {
        Files.createDirectories(dir);
        writeCsv(r, classNames, dir.resolve(CSV));
        Files.writeString(dir.resolve(MARKDOWN), markdown(r, true), StandardCharsets.UTF_8);
        System.setProperty("java.awt.headless", "true");
        plot(r, "reliability", EarlyEvaluation.TauResult::reliability, FixedTimeBaselines.Point::reliability)
                .save(dir.resolve(RELIABILITY_PNG));
        plot(r, "accuracy", EarlyEvaluation.TauResult::accuracy, FixedTimeBaselines.Point::accuracy)
                .save(dir.resolve(ACCURACY_PNG));
        if (r.isVigil()) {
            reliabilityDiagram(r).save(dir.resolve(DIAGRAM_PNG));
            harmonicMeanPlot(r).save(dir.resolve(HM_PNG));
        }
    }

    private static void writeCsv(EarlyEvaluation.Result r, List<String> classNames, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("series,tau,t,early_label,complete_label,true_label\n");
            for (EarlyEvaluation.TauResult tr : r.taus()) {
                for (SeriesDecision d : tr.decisions()) {
                    w.write(String.format(
                            Locale.ROOT,
                            "%s,%s,%d,%s,%s,%s%n",
                            csv(seriesId(r.dataset(), d.index())),
                            Double.isNaN(tr.tau()) ? "" : Double.toString(tr.tau()),
                            d.t(),
                            csv(classNames.get(d.label())),
                            csv(classNames.get(d.completeLabel())),
                            d.trueLabel() < 0 ? "" : csv(classNames.get(d.trueLabel()))));
                }
            }
        }
    }

    private static final String BASELINES_INTRO =
            "Trained and tested on the first t samples; reliability = agreement with the same method at t = d.\n\n";

    /**
     * The id the stream gives the same test row ({@link SeriesId}: {@code DATASET/test/INDEX}), so decisions.csv joins
     * with a replayed run's decision records; the bare index when the dataset's name cannot be part of an id.
     */
    private static String seriesId(String dataset, int index) {
        try {
            return new SeriesId(dataset, "test", index, 0).toString();
        } catch (IllegalArgumentException | NullPointerException e) {
            return Integer.toString(index);
        }
    }

    private static String csv(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    /** The Markdown report text, without the list of report files (printed when no report is written). */
    public static String markdown(EarlyEvaluation.Result r) {
        return markdown(r, false);
    }

    /** The Markdown report text; {@code withFiles} ends it with the files {@link #write} writes beside it. */
    static String markdown(EarlyEvaluation.Result r, boolean withFiles) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Early classification: ").append(r.dataset());
        if (!r.isVigil()) {
            sb.append(" — ").append(r.method().cliName()).append("\n\n");
            sb.append(String.format(
                    Locale.ROOT,
                    "%d test series of length d = %d. Method: %s. Complete-series accuracy of the method (its label "
                            + "at t = d): %.4f.%n%n",
                    r.testSize(),
                    r.length(),
                    r.description(),
                    r.fullAccuracy()));
        } else {
            sb.append("\n\n");
        }
        if (r.isVigil()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%d test series of length d = %d. Rule %s, set %s, estimator %s, classifier %s%s. "
                            + "Complete-series accuracy of the classifier: %.4f.%n%n",
                    r.testSize(),
                    r.length(),
                    r.params().rule().cliName(),
                    r.params().set().cliName(),
                    r.params().estimator().id(),
                    r.params().classifier().cliName(),
                    r.params().classOfInterest() == null
                            ? ""
                            : ", class of interest " + r.params().classOfInterest(),
                    r.fullAccuracy()));
        }
        sb.append("Reliability (`reliability` in --json): the agreement, i.e. the fraction of test series whose label "
                + "equals the " + (r.isVigil() ? "same classifier's" : "method's") + " complete-series label"
                + (r.isVigil() ? " (what a certified τ bounds from below)" : "") + ".\n\n");
        sb.append("| τ | threshold | certified | reliability (95 % CI) | accuracy | mean t | mean t/d | HM | decided "
                + "early | µs/sample | reliability ≥ τ |\n");
        sb.append("|---:|---:|:---:|---:|---:|---:|---:|---:|---:|---:|:---:|\n");
        for (EarlyEvaluation.TauResult t : r.taus()) {
            double[] ci = t.reliabilityInterval();
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.4f (%.3f–%.3f) | %.4f | %.1f | %.3f | %.3f | %d / %d | %.2f | %s |%n",
                    r.isVigil() ? Double.toString(t.tau()) : "—",
                    !r.isVigil()
                            ? "—"
                            : Double.isNaN(t.threshold())
                                    ? "t = d only"
                                    : String.format(Locale.ROOT, "%.4g", t.threshold()),
                    !r.isVigil()
                            ? "—"
                            : t.calibrated() ? (t.certified() ? "yes (" + t.guarantee() + ")" : "no") : "uncalibrated",
                    t.reliability(),
                    ci[0],
                    ci[1],
                    t.accuracy(),
                    t.meanT(),
                    t.meanFraction(),
                    t.harmonicMean(),
                    t.decidedEarly(),
                    r.testSize(),
                    t.usPerSample(),
                    !r.isVigil()
                            ? "—"
                            : t.reliability() >= t.tau() ? "yes" : (ci[1] < t.tau() ? "**no**" : "within error")));
        }
        if (!r.baselines().isEmpty()) {
            sb.append("\n## Fixed-time baselines\n\n");
            sb.append(BASELINES_INTRO);
            sb.append("| method | t/d | t | reliability | accuracy |\n|---|---:|---:|---:|---:|\n");
            for (FixedTimeBaselines.Point p : r.baselines()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "| %s | %.1f | %d | %.4f | %.4f |%n",
                        p.method(),
                        p.fraction(),
                        p.t(),
                        p.reliability(),
                        p.accuracy()));
            }
        }
        if (withFiles) {
            sb.append("\nFiles: `")
                    .append(CSV)
                    .append("` (per series and τ), `")
                    .append(RELIABILITY_PNG)
                    .append("`, `")
                    .append(ACCURACY_PNG)
                    .append("`");
            if (r.isVigil()) {
                sb.append(", `")
                        .append(DIAGRAM_PNG)
                        .append("`, `")
                        .append(HM_PNG)
                        .append("`");
            }
            sb.append(".\n");
        }
        return sb.toString();
    }

    private static Chart plot(
            EarlyEvaluation.Result r,
            String what,
            ToDoubleFunction<EarlyEvaluation.TauResult> early,
            ToDoubleFunction<FixedTimeBaselines.Point> baseline) {
        XYChart chart = ReportCharts.decisionTime(r.dataset(), what);
        double[] x = r.taus().stream().mapToDouble(early).toArray();
        double[] y =
                r.taus().stream().mapToDouble(EarlyEvaluation.TauResult::meanT).toArray();
        XYSeries s = chart.addSeries(
                r.isVigil()
                        ? "reliable early (" + r.params().set().cliName() + ", τ = "
                                + r.taus().stream()
                                        .map(t -> Double.toString(t.tau()))
                                        .toList() + ")"
                        : r.method().cliName(),
                x,
                y);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        for (String method : List.of(FixedTimeBaselines.LOCAL_QDA, FixedTimeBaselines.ONE_NN)) {
            List<FixedTimeBaselines.Point> pts = new ArrayList<>();
            for (FixedTimeBaselines.Point p : r.baselines()) {
                if (p.method().equals(method)) {
                    pts.add(p);
                }
            }
            if (!pts.isEmpty()) {
                chart.addSeries(
                        method,
                        pts.stream().mapToDouble(baseline).toArray(),
                        pts.stream().mapToDouble(FixedTimeBaselines.Point::t).toArray());
            }
        }
        return new Chart(chart);
    }

    /** Announced τ (x) against empirical reliability (y) with its exact 95 % interval, and the diagonal. */
    private static Chart reliabilityDiagram(EarlyEvaluation.Result r) {
        XYChart chart = ReportCharts.chart(
                r.dataset() + ": announced vs empirical reliability ("
                        + r.params().rule().cliName() + ")",
                "announced τ",
                "test reliability (early label = complete-series label)");
        double[] x =
                r.taus().stream().mapToDouble(EarlyEvaluation.TauResult::tau).toArray();
        double[] y = r.taus().stream()
                .mapToDouble(EarlyEvaluation.TauResult::reliability)
                .toArray();
        double[] lo =
                r.taus().stream().mapToDouble(t -> t.reliabilityInterval()[0]).toArray();
        double[] hi =
                r.taus().stream().mapToDouble(t -> t.reliabilityInterval()[1]).toArray();
        XYSeries diag = chart.addSeries("reliability = τ", new double[] {0, 1}, new double[] {0, 1});
        diag.setMarker(SeriesMarkers.NONE);
        XYSeries s = chart.addSeries("empirical", x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        XYSeries l = chart.addSeries("95 % interval, lower", x, lo);
        l.setMarker(SeriesMarkers.TRIANGLE_UP);
        l.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        XYSeries u = chart.addSeries("95 % interval, upper", x, hi);
        u.setMarker(SeriesMarkers.TRIANGLE_DOWN);
        u.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        return new Chart(chart);
    }

    /** τ (x) against the harmonic mean of accuracy and earliness (y). */
    private static Chart harmonicMeanPlot(EarlyEvaluation.Result r) {
        XYChart chart = ReportCharts.chart(
                r.dataset() + ": harmonic mean of accuracy and earliness vs τ",
                "announced τ",
                "HM = 2·acc·(1 − t/d) / (acc + 1 − t/d)");
        XYSeries s = chart.addSeries(
                "HM (" + r.params().rule().cliName() + ", "
                        + r.params().classifier().cliName() + ")",
                r.taus().stream().mapToDouble(EarlyEvaluation.TauResult::tau).toArray(),
                r.taus().stream()
                        .mapToDouble(EarlyEvaluation.TauResult::harmonicMean)
                        .toArray());
        s.setMarker(SeriesMarkers.CIRCLE);
        return new Chart(chart);
    }

    private record Chart(XYChart chart) {
        void save(Path file) throws IOException {
            ReportCharts.savePng(chart, file);
        }
    }
}
