package io.vigil.experiment;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.vigil.api.Vigil;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.DecisionOverrides;
import io.vigil.model.VigilModel;
import io.vigil.report.ReportCharts;
import io.vigil.util.Progress;
import io.vigil.watch.EventScoringResult;
import io.vigil.watch.RearmPolicy;
import io.vigil.watch.WatchEvaluation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The trade-off a monitoring team chooses an operating point on ({@code vigil experiment watch-tradeoff}): a window
 * model watching recordings at several announced τ, against the baselines of {@code evaluate --recordings}
 * (complete-window, fixed-delay, feature-svm), each point scored by event — macro F1, false alarms per hour,
 * detection delay — in one table and one plot (false alarms per hour against macro F1). The baselines are learnt on
 * the training recordings only ({@link WatchEvaluation#evaluate}); nothing here is chosen on the evaluated ones.
 */
public final class WatchTradeoff {
    /** The early rule's name in the table. */
    public static final String EARLY = "early (vigil)";

    /** The markdown report's file name. */
    public static final String MARKDOWN = "watch-tradeoff.md";

    /** The CSV's file name. */
    public static final String CSV = "watch-tradeoff.csv";

    /** The plot's file name. */
    public static final String PNG = "watch-tradeoff.png";

    private WatchTradeoff() {}

    /**
     * One detector at one setting.
     *
     * @param detector {@link #EARLY} or a baseline's name
     * @param tau the announced τ of the early rule (NaN for a baseline); the operating point's for the baselines' row
     * @param certified whether that τ is certified (false for baselines, which carry no certificate)
     * @param events the event scores
     */
    public record Point(
            @JsonProperty("detector") String detector,
            @JsonProperty("tau") Double tau,
            @JsonProperty("certified") boolean certified,
            @JsonProperty("events") EventScoringResult events) {}

    /**
     * The whole trade-off.
     *
     * @param hours hours of evaluated recordings
     * @param operatingPointTau the model's own τ, at which the baselines were evaluated
     * @param points the early rule at every τ (ascending), then the baselines
     */
    public record Result(
            @JsonProperty("hours") double hours,
            @JsonProperty("operating_point_tau") double operatingPointTau,
            @JsonProperty("points") List<Point> points) {
        /** Copies the list. */
        public Result {
            points = List.copyOf(points);
        }
    }

    /**
     * Evaluates {@code model} on {@code set} at each τ and once with the baselines at its operating point.
     *
     * @param training the recordings the baselines learn from (never the evaluated ones where a split exists), or
     *     null for complete-window only
     * @param progress one step per recording replayed
     */
    public static Result run(
            VigilModel model,
            RecordingSet set,
            RecordingSet training,
            String trainingName,
            List<Double> taus,
            RearmPolicy rearm,
            Progress progress) {
        Vigil atOperatingPoint = Vigil.of(model);
        WatchEvaluation.Report base =
                WatchEvaluation.evaluate(atOperatingPoint, set, training, trainingName, rearm, progress);
        List<Point> points = new ArrayList<>();
        for (double tau : taus.stream().sorted().toList()) {
            Vigil v = Vigil.of(model, DecisionOverrides.none().withTau(tau));
            WatchEvaluation.Report r = WatchEvaluation.evaluate(v, set, rearm, progress);
            points.add(new Point(EARLY, tau, r.windowCertificate().certified(), r.events()));
        }
        double opTau = atOperatingPoint.params().tau();
        for (Map.Entry<String, EventScoringResult> b : base.baselines().entrySet()) {
            points.add(new Point(b.getKey(), null, false, b.getValue()));
        }
        return new Result(base.hours(), opTau, points);
    }

    /** Recordings replayed by {@link #run}: the training ones once (baselines), the evaluated ones 1 + |taus| times. */
    public static long steps(RecordingSet set, RecordingSet training, int taus) {
        return (long) set.recordings().size() * (1 + taus)
                + (training == null ? 0 : training.recordings().size());
    }

    /** Writes {@link #MARKDOWN}, {@link #CSV} and {@link #PNG} into {@code dir}. */
    public static void write(Result r, Path dir, Map<String, String> settings) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(r, settings), StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder("detector,tau,certified,macro_f1,precision,recall,false_alarms_per_hour,"
                + "duplicates,median_delay_samples,median_delay_fraction,p90_delay_fraction\n");
        for (Point p : r.points()) {
            EventScoringResult e = p.events();
            csv.append(String.join(
                            ",",
                            p.detector(),
                            p.tau() == null ? "" : p.tau().toString(),
                            Boolean.toString(p.certified()),
                            Double.toString(e.macro().f1()),
                            Double.toString(e.macro().precision()),
                            Double.toString(e.macro().recall()),
                            text(e.falseAlarmsPerHour()),
                            Long.toString(e.duplicates()),
                            text(e.delay().medianSamples()),
                            text(e.delay().medianFraction()),
                            text(e.delay().p90Fraction())))
                    .append('\n');
        }
        Files.writeString(dir.resolve(CSV), csv.toString(), StandardCharsets.UTF_8);
        System.setProperty("java.awt.headless", "true");
        ReportCharts.savePng(plot(r), dir.resolve(PNG));
    }

    /** The table, one row per point. */
    public static String markdown(Result r, Map<String, String> settings) {
        StringBuilder sb = new StringBuilder("# Watching a stream: the trade-off\n\n");
        settings.forEach(
                (k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        sb.append(String.format(
                Locale.ROOT,
                "%n%.2f h of recordings. The early rule at each τ; the baselines at the model's operating point "
                        + "(τ %s). Delay: trigger − event start, as a fraction of the event's length.%n%n",
                r.hours(),
                r.operatingPointTau()));
        sb.append("| detector | τ | certified | macro F1 | precision | recall | false alarms / h | duplicates | "
                + "median delay (samples) | median delay (fraction) | p90 delay (fraction) |\n");
        sb.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Point p : r.points()) {
            EventScoringResult e = p.events();
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.3f | %.3f | %.3f | %s | %d | %s | %s | %s |%n",
                    p.detector(),
                    p.tau() == null ? "-" : p.tau().toString(),
                    p.tau() == null ? "-" : (p.certified() ? "yes" : "no"),
                    e.macro().f1(),
                    e.macro().precision(),
                    e.macro().recall(),
                    fmt(e.falseAlarmsPerHour(), "%.1f"),
                    e.duplicates(),
                    fmt(e.delay().medianSamples(), "%.0f"),
                    fmt(e.delay().medianFraction(), "%.2f"),
                    fmt(e.delay().p90Fraction(), "%.2f")));
        }
        return sb.toString();
    }

    /** False alarms per hour (x) against macro F1 (y): the early rule as a line over τ, each baseline a marker. */
    static XYChart plot(Result r) {
        XYChart chart = ReportCharts.tradeoff(
                "watching a stream: macro F1 vs false alarms", "false alarms per hour", "macro F1");
        List<Point> early = r.points().stream()
                .filter(p -> p.detector().equals(EARLY) && p.events().falseAlarmsPerHour() != null)
                .sorted(Comparator.comparingDouble(p -> p.events().falseAlarmsPerHour()))
                .toList();
        if (!early.isEmpty()) {
            XYSeries s = chart.addSeries(
                    EARLY + " over τ",
                    early.stream()
                            .mapToDouble(p -> p.events().falseAlarmsPerHour())
                            .toArray(),
                    early.stream().mapToDouble(p -> p.events().macro().f1()).toArray());
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        for (Point p : r.points()) {
            if (!p.detector().equals(EARLY) && p.events().falseAlarmsPerHour() != null) {
                XYSeries s =
                        chart.addSeries(p.detector(), new double[] {p.events().falseAlarmsPerHour()}, new double[] {
                            p.events().macro().f1()
                        });
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                s.setMarker(SeriesMarkers.DIAMOND);
            }
        }
        return chart;
    }

    private static String text(Double v) {
        return v == null ? "" : v.toString();
    }

    private static String fmt(Double v, String format) {
        return v == null || v.isNaN() ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
