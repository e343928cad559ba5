package io.vigil.experiment;

import io.vigil.experiment.Table33Experiment.DatasetResult;
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
 * Thesis Table 3.5 beside ours: the mean wall time of one re-split's selection and fit (seconds, {@link
 * DatasetResult#meanFitSeconds}) per dataset and reducer, next to the thesis's run-time for the matching column. Writes
 * {@value #MARKDOWN} and {@value #CSV}. The thesis's hardware and ours differ, so only the ratios between columns are
 * comparable.
 */
public final class Table35Report {
    /** Markdown file name. */
    public static final String MARKDOWN = "table35.md";

    /** CSV file name. */
    public static final String CSV = "table35.csv";

    /** Our reducer names and the thesis Table 3.5 column each is compared with. */
    private static final Map<String, String> THESIS_COLUMN = Map.of(
            "ldg", "LDG",
            "pca", "PCA",
            "pca-fda", "PCA FDA",
            "reg-fda", "Reg. FDA",
            "dlda", "DLDA",
            "lfda", "Reg. LFDA");

    private final Map<String, List<DatasetResult>> columns;

    /**
     * @param columns reducer name → its per-dataset results, in column order (every list in the same dataset order)
     * @throws IllegalArgumentException when there is no column or the lists differ in length
     */
    public Table35Report(Map<String, List<DatasetResult>> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("Table 3.5 needs at least one reducer");
        }
        int n = columns.values().iterator().next().size();
        for (Map.Entry<String, List<DatasetResult>> e : columns.entrySet()) {
            if (e.getValue().size() != n) {
                throw new IllegalArgumentException(
                        e.getKey() + " has " + e.getValue().size() + " datasets but the first column has " + n);
            }
        }
        this.columns = new LinkedHashMap<>(columns);
    }

    /** The thesis column a reducer is compared with, if any. */
    static Optional<String> thesisColumn(String reducer) {
        return Optional.ofNullable(THESIS_COLUMN.get(reducer));
    }

    /** Writes both files into {@code dir} (created if needed). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(CSV), csv(), StandardCharsets.UTF_8);
    }

    String markdown() {
        StringBuilder b = new StringBuilder("# Thesis Table 3.5: mean run-time per re-split, seconds\n\n");
        b.append("Each cell: our mean wall time of one re-split's selection and fit (the same splits as the accuracy"
                + " table), and in brackets the thesis's run-time for the matching column (its hardware, 2012; `–`"
                + " where it has no such column). Only ratios between columns compare across machines.\n\n");
        b.append("| dataset |");
        for (String r : columns.keySet()) {
            b.append(' ')
                    .append(r)
                    .append(thesisColumn(r).map(c -> " (thesis " + c + ")").orElse(""))
                    .append(" |");
        }
        b.append('\n').append("|---|");
        b.append("---:|".repeat(columns.size())).append('\n');
        List<DatasetResult> first = columns.values().iterator().next();
        double[] sums = new double[columns.size()];
        for (int i = 0; i < first.size(); i++) {
            String name = first.get(i).name();
            b.append("| ").append(name).append(" |");
            int c = 0;
            for (Map.Entry<String, List<DatasetResult>> e : columns.entrySet()) {
                double s = e.getValue().get(i).meanFitSeconds();
                sums[c++] += s;
                b.append(String.format(Locale.ROOT, " %.2f (%s) |", s, thesis(name, e.getKey())));
            }
            b.append('\n');
        }
        b.append("| **mean** |");
        for (double s : sums) {
            b.append(String.format(Locale.ROOT, " **%.2f** |", s / first.size()));
        }
        b.append('\n');
        return b.toString();
    }

    String csv() {
        StringBuilder b = new StringBuilder("dataset,reducer,mean_fit_seconds,thesis_column,thesis_seconds\n");
        List<DatasetResult> first = columns.values().iterator().next();
        for (int i = 0; i < first.size(); i++) {
            String name = first.get(i).name();
            for (Map.Entry<String, List<DatasetResult>> e : columns.entrySet()) {
                b.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%.4f,%s,%s%n",
                        name,
                        e.getKey(),
                        e.getValue().get(i).meanFitSeconds(),
                        thesisColumn(e.getKey()).orElse(""),
                        thesisColumn(e.getKey())
                                .flatMap(c -> ThesisTable35.cell(name, c))
                                .orElse("")));
            }
        }
        return b.toString();
    }

    private static String thesis(String dataset, String reducer) {
        return thesisColumn(reducer)
                .flatMap(c -> ThesisTable35.cell(dataset, c))
                .orElse("–");
    }
}
