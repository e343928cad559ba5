package io.vigil.experiment;

import io.vigil.evaluate.FixedTimeBaselines;
import io.vigil.experiment.Fig58Experiment.Point;
import io.vigil.experiment.Fig58Experiment.Row;
import io.vigil.report.ReportCharts;
import java.io.IOException;
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
 * Writes the Figures 5.8–5.11 reproduction: {@value #CSV} (every point), {@value #MARKDOWN} (a table per dataset and
 * whether Vigil's points lie above the fixed-time local-QDA curve, as the thesis found), and two plots per dataset,
 * mean decision time against test reliability ({@code fig58-NAME.png}, thesis Figures 5.8–5.9) and against test
 * accuracy ({@code fig510-NAME.png}, Figures 5.10–5.11).
 */
public final class Fig58Report {
    /** Every point. */
    public static final String CSV = "fig58.csv";

    /** Tables and the dominance summary. */
    public static final String MARKDOWN = "fig58.md";

    static final String HEADER = "dataset,length,test_size,method,setting,mean_t,mean_fraction,reliability,accuracy";

    private Fig58Report() {}

    /** Writes every file into {@code dir} (created if needed). */
    public static void write(List<Row> rows, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(CSV), csv(rows), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(MARKDOWN), markdown(rows), StandardCharsets.UTF_8);
        for (Row r : rows) {
            ReportCharts.savePng(
                    plot(r, "reliability", Point::reliability),
                    dir.resolve("fig58-" + SplitCache.safe(r.dataset()) + ".png"));
            ReportCharts.savePng(
                    plot(r, "accuracy", Point::accuracy),
                    dir.resolve("fig510-" + SplitCache.safe(r.dataset()) + ".png"));
        }
    }

    /** The CSV of some rows: {@link #HEADER} and one line per point ({@link Double#toString}, exact). */
    static String csv(List<Row> rows) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (Row r : rows) {
            for (Point p : r.points()) {
                b.append(String.join(
                                ",",
                                r.dataset(),
                                Integer.toString(r.length()),
                                Integer.toString(r.testSize()),
                                p.method(),
                                Double.toString(p.setting()),
                                Double.toString(p.meanT()),
                                Double.toString(p.meanFraction()),
                                Double.toString(p.reliability()),
                                Double.toString(p.accuracy())))
                        .append('\n');
            }
        }
        return b.toString();
    }

    /**
     * Reads one row back from {@link #csv} output of that row alone (the experiment's per-dataset cache); its wall time
     * is not kept, so it reads as 0.
     */
    static Row parse(List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).equals(HEADER) || lines.size() < 2) {
            throw new IllegalArgumentException("not a fig58 row");
        }
        List<Point> points = new ArrayList<>();
        String dataset = null;
        int length = 0;
        int testSize = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f.length != 9) {
                throw new IllegalArgumentException("expected 9 fields, got " + f.length);
            }
            dataset = f[0];
            length = Integer.parseInt(f[1]);
            testSize = Integer.parseInt(f[2]);
            points.add(new Point(
                    f[3],
                    Double.parseDouble(f[4]),
                    Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]),
                    Double.parseDouble(f[7]),
                    Double.parseDouble(f[8])));
        }
        return new Row(dataset, length, testSize, points, 0);
    }

    /**
     * How many of Vigil's points lie on or above the fixed-time local-QDA reliability curve at the same mean decision
     * time (linear interpolation between its 10 % steps; before the first step its first value): the thesis's
     * "dominates fixed-time local QDA in test reliability".
     *
     * @return {above, compared}
     */
    public static int[] aboveFixedTimeQda(Row r) {
        List<Point> fixed = r.series(FixedTimeBaselines.LOCAL_QDA);
        int above = 0;
        int compared = 0;
        if (fixed.isEmpty()) {
            return new int[] {0, 0};
        }
        for (Point v : r.series(Fig58Experiment.VIGIL)) {
            compared++;
            if (v.reliability() >= interpolate(fixed, v.meanT()) - 1e-12) {
                above++;
            }
        }
        return new int[] {above, compared};
    }

    private static double interpolate(List<Point> curve, double t) {
        if (t <= curve.get(0).meanT()) {
            return curve.get(0).reliability();
        }
        for (int i = 1; i < curve.size(); i++) {
            Point a = curve.get(i - 1);
            Point b = curve.get(i);
            if (t <= b.meanT()) {
                double w = (t - a.meanT()) / (b.meanT() - a.meanT());
                return a.reliability() + w * (b.reliability() - a.reliability());
            }
        }
        return curve.get(curve.size() - 1).reliability();
    }

    static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("# Thesis Figures 5.8–5.11: mean decision time vs test reliability and accuracy\n\n");
        b.append("Standard splits; Vigil trained and calibrated with every default, deciding with its stored rule at"
                + " each τ; Rel. Class. (the thesis's reliable local QDA on the samples, no LDG, uncalibrated) at each"
                + " τ; ECTS at each minimum support; fixed-time local QDA and 1-NN at 10 %, …, 100 % of d."
                + " Reliability: agreement with the method's own complete-series label. Plots: fig58-NAME.png"
                + " (reliability), fig510-NAME.png (accuracy).\n\n");
        b.append("| dataset | Vigil points on or above fixed-time local QDA's reliability at equal mean time |\n");
        b.append("|---|---:|\n");
        int above = 0;
        int compared = 0;
        for (Row r : rows) {
            int[] a = aboveFixedTimeQda(r);
            above += a[0];
            compared += a[1];
            b.append(String.format(Locale.ROOT, "| %s | %d of %d |%n", r.dataset(), a[0], a[1]));
        }
        b.append(String.format(Locale.ROOT, "| **all** | **%d of %d** |%n%n", above, compared));
        for (Row r : rows) {
            b.append(String.format(
                    Locale.ROOT, "## %s (d = %d, %d test series)%n%n", r.dataset(), r.length(), r.testSize()));
            if (r.series(Fig58Experiment.RAW).isEmpty()) {
                b.append(String.format(
                        Locale.ROOT,
                        "No %s curve: %s.%n%n",
                        Fig58Experiment.RAW,
                        Table54Experiment.tooLargeForHeap(
                                        r.length(), Runtime.getRuntime().maxMemory())
                                .orElse("it was not computed")));
            }
            b.append("| method | setting | mean t | mean t/d | reliability | accuracy |\n");
            b.append("|---|---:|---:|---:|---:|---:|\n");
            for (Point p : r.points()) {
                b.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %.1f | %.3f | %.3f | %.3f |%n",
                        p.method(),
                        settingLabel(p),
                        p.meanT(),
                        p.meanFraction(),
                        p.reliability(),
                        p.accuracy()));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String settingLabel(Point p) {
        if (p.method().equals(Fig58Experiment.VIGIL) || p.method().equals(Fig58Experiment.RAW)) {
            return "τ = " + p.setting();
        }
        if (p.method().equals(Fig58Experiment.ECTS)) {
            return "support " + p.setting();
        }
        return String.format(Locale.ROOT, "%.0f %% of d", 100 * p.setting());
    }

    private static XYChart plot(Row r, String what, ToDoubleFunction<Point> y) {
        XYChart chart = ReportCharts.decisionTime(r.dataset(), what);
        for (String method : List.of(
                Fig58Experiment.VIGIL,
                Fig58Experiment.RAW,
                Fig58Experiment.ECTS,
                FixedTimeBaselines.LOCAL_QDA,
                FixedTimeBaselines.ONE_NN)) {
            List<Point> pts = r.series(method);
            if (pts.isEmpty()) {
                continue;
            }
            XYSeries s = chart.addSeries(
                    method,
                    pts.stream().mapToDouble(y).toArray(),
                    pts.stream().mapToDouble(Point::meanT).toArray());
            s.setMarker(SeriesMarkers.CIRCLE);
            if (method.equals(Fig58Experiment.ECTS)) {
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            }
        }
        return chart;
    }
}
