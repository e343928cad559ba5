package io.vigil.experiment;

import io.vigil.experiment.Table54Experiment.Row;
import io.vigil.experiment.Table54Experiment.Timing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Thesis Table 5.4 beside ours: per dataset d, our ℓ and the thesis's, and the time per test series of the reliable
 * early decision at t = 1 without and with LDG ({@link Table54Experiment}), next to the thesis's milliseconds. Writes
 * {@value #MARKDOWN} and {@value #CSV}. The thesis's hardware and implementation (2012) differ from ours, so only the
 * ratio of the two columns compares across them.
 */
public final class Table54Report {
    /** Markdown file name. */
    public static final String MARKDOWN = "table54.md";

    /** CSV file name. */
    public static final String CSV = "table54.csv";

    /** The CSV header. */
    public static final String CSV_HEADER =
            "dataset,generated,length,train_size,test_size,timed_series,timed_at_t,ldg_dims,"
                    + "raw_qda_neighbors,ldg_qda_neighbors,raw_median_ms,raw_mean_ms,ldg_median_ms,ldg_mean_ms,speed_up,"
                    + "raw_decided_at_t1,ldg_decided_at_t1,raw_skipped,thesis_length,thesis_ldg_dims,thesis_raw_ms,"
                    + "thesis_ldg_ms,thesis_speed_up";

    private final List<Row> rows;
    private final Map<String, String> settings;

    /**
     * @param rows one per dataset, in report order
     * @param settings what the run used (shown under the table, in order)
     */
    public Table54Report(List<Row> rows, Map<String, String> settings) {
        this.rows = List.copyOf(rows);
        this.settings = new LinkedHashMap<>(settings);
    }

    /** Writes both files into {@code dir} (created if needed). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8);
    }

    /**
     * The thesis's row of a report row, also for generated data: it shares the archive dataset's length and classes,
     * and the report marks it.
     */
    static Optional<ThesisTable54.Row> thesis(Row r) {
        return ThesisTable54.row(r.dataset());
    }

    String markdown() {
        StringBuilder b =
                new StringBuilder("# Thesis Table 5.4: test time per series at t = 1, with and without LDG\n\n");
        b.append("Reliable local-QDA early classification with the naive-Bayes quadratic set and the jointly Gaussian"
                + " estimator, timed at t = 1 (one sample seen, the worst case): the time of one decision per test"
                + " series in ms, median / mean over the timed series, without reduction (the d-dimensional sample"
                + " space) and with LDG (ℓ chosen by cross-validation on the training split). Each ours column is"
                + " followed by the thesis's (its hardware and implementation, 2012; blank where the thesis has no such"
                + " dataset). Only the speed-up, time without LDG over time with it, compares across machines.\n\n");
        b.append("| dataset | d | ℓ | thesis ℓ | without LDG, ms | thesis | with LDG, ms | thesis | speed-up | thesis |"
                + " decided at t = 1, without / with LDG | timed series |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            Optional<ThesisTable54.Row> t = thesis(r);
            b.append("| ").append(r.label()).append(" | ").append(r.length()).append(" | ");
            b.append(r.ldg().dims()).append(" | ");
            b.append(t.map(x -> Integer.toString(x.ldgDims())).orElse("")).append(" | ");
            b.append(millis(r.raw())).append(" | ");
            b.append(t.map(x -> String.format(Locale.ROOT, "%,d", x.rawMillis()))
                            .orElse(""))
                    .append(" | ");
            b.append(millis(r.ldg())).append(" | ");
            b.append(t.map(x -> String.format(Locale.ROOT, "%,d", x.ldgMillis()))
                            .orElse(""))
                    .append(" | ");
            b.append(Double.isNaN(r.speedUp()) ? "–" : String.format(Locale.ROOT, "%.1f×", r.speedUp()))
                    .append(" | ");
            b.append(t.map(x -> String.format(Locale.ROOT, "%.0f×", x.speedUp()))
                            .orElse(""))
                    .append(" | ");
            b.append(share(r.raw())).append(" / ").append(share(r.ldg())).append(" | ");
            b.append(Math.max(r.raw().timedSeries(), r.ldg().timedSeries()))
                    .append(" of ")
                    .append(r.testSize())
                    .append(" |\n");
        }
        boolean notes = false;
        for (Row r : rows) {
            if (r.raw().skipped().isPresent()) {
                if (!notes) {
                    b.append('\n');
                    notes = true;
                }
                b.append("- ")
                        .append(r.label())
                        .append(", without LDG: not timed, ")
                        .append(r.raw().skipped().get())
                        .append(".\n");
            }
            if (r.timedAt() > 1) {
                if (!notes) {
                    b.append('\n');
                    notes = true;
                }
                b.append(String.format(
                        Locale.ROOT,
                        "- %s: d > 1,000, where Vigil evaluates the rule every %d samples; timed at t = %d, the first"
                                + " sample it is evaluated at (the samples before it fed untimed).%n",
                        r.label(),
                        r.timedAt(),
                        r.timedAt()));
            }
            if (r.generated()) {
                if (!notes) {
                    b.append('\n');
                    notes = true;
                }
                b.append("- ")
                        .append(r.label())
                        .append(": written by Vigil's generator (`vigil generate --kind two-patterns`), not the"
                                + " archive's data; the thesis's figures are those of the archive's ")
                        .append(r.dataset())
                        .append(", of the same length and classes.\n");
            }
        }
        b.append("\n## Settings\n\n");
        settings.forEach(
                (k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
        return b.toString();
    }

    String csv() {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (Row r : rows) {
            Optional<ThesisTable54.Row> t = thesis(r);
            b.append(String.join(
                            ",",
                            r.dataset(),
                            Boolean.toString(r.generated()),
                            Integer.toString(r.length()),
                            Integer.toString(r.trainSize()),
                            Integer.toString(r.testSize()),
                            Integer.toString(
                                    Math.max(r.raw().timedSeries(), r.ldg().timedSeries())),
                            Integer.toString(r.timedAt()),
                            Integer.toString(r.ldg().dims()),
                            count(r.raw()),
                            count(r.ldg()),
                            number(r.raw().medianMillis(), "%.6f"),
                            number(r.raw().meanMillis(), "%.6f"),
                            number(r.ldg().medianMillis(), "%.6f"),
                            number(r.ldg().meanMillis(), "%.6f"),
                            number(r.speedUp(), "%.2f"),
                            number(r.raw().decidedAtT1(), "%.3f"),
                            number(r.ldg().decidedAtT1(), "%.3f"),
                            r.raw()
                                    .skipped()
                                    .map(s -> '"' + s.replace("\"", "'") + '"')
                                    .orElse(""),
                            t.map(x -> Integer.toString(x.length())).orElse(""),
                            t.map(x -> Integer.toString(x.ldgDims())).orElse(""),
                            t.map(x -> Integer.toString(x.rawMillis())).orElse(""),
                            t.map(x -> Integer.toString(x.ldgMillis())).orElse(""),
                            t.map(x -> String.format(Locale.ROOT, "%.2f", x.speedUp()))
                                    .orElse("")))
                    .append('\n');
        }
        return b.toString();
    }

    private static String millis(Timing t) {
        if (t.skipped().isPresent()) {
            return "not timed";
        }
        return ms(t.medianMillis()) + " / " + ms(t.meanMillis());
    }

    /** Milliseconds to three significant digits below 100 ms, whole above. */
    private static String ms(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String share(Timing t) {
        return t.skipped().isPresent() ? "–" : String.format(Locale.ROOT, "%.0f%%", 100 * t.decidedAtT1());
    }

    private static String count(Timing t) {
        return t.skipped().isPresent() ? "" : Integer.toString(t.qdaNeighbors());
    }

    private static String number(double v, String format) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
    }
}
