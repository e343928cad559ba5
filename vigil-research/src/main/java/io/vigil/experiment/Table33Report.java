package io.vigil.experiment;

import io.vigil.experiment.Table33Experiment.DatasetResult;
import io.vigil.experiment.Table33Experiment.DimsMode;
import io.vigil.experiment.Table33Experiment.SplitResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the Table 3.3/3.4 reproduction: {@code table33.md} (readable, with the thesis's LDG and Reg. FDA
 * figures side by side, the difference in standard errors of the 10-split mean, and a summary row),
 * {@code table33.csv} (the same per dataset) and {@code table33-splits.csv} (every split's accuracy and
 * chosen parameters). Accuracies are percentages as in the thesis.
 */
public final class Table33Report {
    /** The goal of the Table 3.3 reproduction: no dataset below the thesis by more than this many standard errors. */
    public static final double GOAL_STANDARD_ERRORS = 2.0;

    private final DimsMode mode;
    private final List<DatasetResult> results;
    private final Map<String, String> settings;
    private final String mainReducer;
    private final Map<String, List<DatasetResult>> others;

    /**
     * @param mode which thesis table to compare with (3.3 for {@code g-1}, 3.4 for {@code cv})
     * @param results per dataset, in report order
     * @param settings name → value lines for the report header (command, seed, …), in order
     */
    public Table33Report(DimsMode mode, List<DatasetResult> results, Map<String, String> settings) {
        this(mode, results, settings, "ldg", Map.of());
    }

    /**
     * A report that also compares other reducers run on the same splits.
     *
     * @param mainReducer the reducer of {@code results}
     * @param others per further reducer (in column order) its results, in the order of {@code results}
     * @throws IllegalArgumentException when a reducer's datasets are not those of {@code results}
     */
    public Table33Report(
            DimsMode mode,
            List<DatasetResult> results,
            Map<String, String> settings,
            String mainReducer,
            Map<String, List<DatasetResult>> others) {
        this.mode = mode;
        this.results = List.copyOf(results);
        this.settings = new LinkedHashMap<>(settings);
        this.mainReducer = mainReducer;
        this.others = new LinkedHashMap<>();
        others.forEach((k, v) -> {
            List<String> names = v.stream().map(DatasetResult::name).toList();
            if (!names.equals(this.results.stream().map(DatasetResult::name).toList())) {
                throw new IllegalArgumentException(
                        "reducer " + k + " has results for " + names + " but the main " + "column for "
                                + this.results.stream().map(DatasetResult::name).toList());
            }
            this.others.put(k, List.copyOf(v));
        });
    }

    /** The thesis's LDG figure for a dataset in this mode's table. */
    public Optional<Double> thesisLdg(String name) {
        return ThesisTable33.row(name).map(r -> mode == DimsMode.G_MINUS_1 ? r.ldgG1() : r.ldgCv());
    }

    /** The thesis's Reg. FDA figure for a dataset in this mode's table. */
    public Optional<Double> thesisRegFda(String name) {
        return ThesisTable33.row(name).map(r -> mode == DimsMode.G_MINUS_1 ? r.regFdaG1() : r.regFdaCv());
    }

    /** Mean over datasets of Vigil's mean accuracy (percent), over the datasets that have a thesis figure. */
    public double vigilMeanOverThesisDatasets() {
        return results.stream()
                .filter(r -> thesisLdg(r.name()).isPresent())
                .mapToDouble(DatasetResult::meanPercent)
                .average()
                .orElse(Double.NaN);
    }

    /**
     * Mean over datasets of {@code rs}' mean accuracy (percent), over the datasets that have a thesis figure; NaN when
     * the reducer is not computable ("nc") on one of them.
     */
    public double meanOverThesisDatasets(List<DatasetResult> rs) {
        return rs.stream()
                .filter(r -> thesisLdg(r.name()).isPresent())
                .mapToDouble(DatasetResult::meanPercent)
                .average()
                .orElse(Double.NaN);
    }

    /** Mean of the thesis's LDG figures over the same datasets. */
    public double thesisMean() {
        return results.stream()
                .map(r -> thesisLdg(r.name()))
                .flatMap(Optional::stream)
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(Double.NaN);
    }

    /** Datasets whose Vigil mean is more than {@value #GOAL_STANDARD_ERRORS} standard errors below the thesis. */
    public List<String> belowThesis() {
        List<String> out = new ArrayList<>();
        for (DatasetResult r : results) {
            Optional<Double> t = thesisLdg(r.name());
            if (t.isPresent() && r.meanPercent() < t.get() - GOAL_STANDARD_ERRORS * r.standardErrorPercent()) {
                out.add(r.name());
            }
        }
        return out;
    }

    /** Writes the three files into {@code dir} (created if needed). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("table33.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("table33.csv"), csv(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("table33-splits.csv"), splitsCsv(), StandardCharsets.UTF_8);
    }

    /** The Markdown report. */
    public String markdown() {
        String table = mode == DimsMode.G_MINUS_1 ? "3.3 (ℓ = G − 1)" : "3.4 (ℓ by cross-validation)";
        StringBuilder b = new StringBuilder();
        b.append("# Vigil vs thesis Table ").append(table).append("\n\n");
        b.append("LDG + 3-NN test accuracy (%) over random re-splits of train+test with the original sizes ")
                .append("(thesis §3.5.2). SE = standard error of the split mean; Δ/SE = (Vigil − thesis) / SE.\n\n");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            b.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        b.append('\n');
        b.append("| Dataset | G | train | test | d | Vigil mean ± std | SE | Thesis LDG | Δ | Δ/SE | Thesis Reg. FDA"
                + " | Vigil local QDA | γ (mode) | ℓ (median) | k (median) | fit s |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (DatasetResult r : results) {
            Optional<Double> t = thesisLdg(r.name());
            double se = r.standardErrorPercent();
            b.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %d | %d | %.1f ± %.1f | %.2f | %s | %s | %s | %s | %.1f | %s | %s | %s | %.2f |%n",
                    r.name(),
                    r.classes(),
                    r.trainSize(),
                    r.testSize(),
                    r.length(),
                    r.meanPercent(),
                    r.stdPercent(),
                    se,
                    t.map(v -> fmt1(v)).orElse("–"),
                    t.map(v -> signed(r.meanPercent() - v)).orElse("–"),
                    t.map(v -> se > 0 ? signed((r.meanPercent() - v) / se) : "–")
                            .orElse("–"),
                    thesisRegFda(r.name()).map(Table33Report::fmt1).orElse("–"),
                    r.meanLocalQdaPercent(),
                    fmtGamma(modeOf(
                            r.splits().stream().mapToDouble(SplitResult::gamma).toArray())),
                    fmtMedian(r.splits().stream().mapToDouble(SplitResult::dims).toArray()),
                    fmtMedian(r.splits().stream()
                            .mapToDouble(SplitResult::neighbors)
                            .toArray()),
                    r.meanFitSeconds()));
        }
        double vigil = vigilMeanOverThesisDatasets();
        double thesis = thesisMean();
        double fda = results.stream()
                .map(r -> thesisRegFda(r.name()))
                .flatMap(Optional::stream)
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(Double.NaN);
        b.append(String.format(
                Locale.ROOT,
                "| **Mean (%d datasets)** | | | | | **%.2f** | | **%.2f** | %s | | %.2f | %.2f | | | | %.2f |%n",
                results.stream().filter(r -> thesisLdg(r.name()).isPresent()).count(),
                vigil,
                thesis,
                signed(vigil - thesis),
                fda,
                results.stream()
                        .filter(r -> thesisLdg(r.name()).isPresent())
                        .mapToDouble(DatasetResult::meanLocalQdaPercent)
                        .average()
                        .orElse(Double.NaN),
                results.stream()
                        .mapToDouble(DatasetResult::meanFitSeconds)
                        .average()
                        .orElse(Double.NaN)));
        b.append('\n');
        List<String> below = belowThesis();
        b.append(String.format(
                Locale.ROOT,
                "Goal: mean at or above the thesis's LDG mean — %s (%.2f vs %.2f). "
                        + "Datasets more than %.0f SE below the thesis: %s.%n",
                vigil >= thesis ? "met" : "NOT met",
                vigil,
                thesis,
                GOAL_STANDARD_ERRORS,
                below.isEmpty() ? "none" : String.join(", ", below)));
        if (!others.isEmpty()) {
            appendReducers(b);
        }
        return b.toString();
    }

    /**
     * The reducers on the same splits: 3-NN mean ± SE per dataset and reducer, {@code *} where a reducer differs from
     * the first column (two-sided paired t-test over the splits, 5 %), and the mean over the thesis's datasets.
     */
    private void appendReducers(StringBuilder b) {
        b.append("\n## Reducers on the same splits\n\n3-NN test accuracy (%), mean ± SE over the same re-splits; `*`: "
                        + "differs from ")
                .append(mainReducer)
                .append(" (two-sided paired t-test over the splits, 5 %).\n\n");
        b.append("| Dataset | ").append(mainReducer);
        others.keySet().forEach(k -> b.append(" | ").append(k));
        b.append(" |\n|---|---:");
        others.keySet().forEach(k -> b.append("|---:"));
        b.append("|\n");
        for (int i = 0; i < results.size(); i++) {
            DatasetResult main = results.get(i);
            b.append("| ").append(main.name()).append(" | ").append(cell(main));
            for (List<DatasetResult> rs : others.values()) {
                DatasetResult o = rs.get(i);
                b.append(" | ")
                        .append(cell(o))
                        .append(!o.notComputable() && PairedTest.differs(acc(main), acc(o)) ? "*" : "");
            }
            b.append(" |\n");
        }
        b.append(String.format(Locale.ROOT, "| **Mean (thesis datasets)** | **%.2f**", vigilMeanOverThesisDatasets()));
        others.values().forEach(rs -> b.append(" | **").append(meanCell(rs)).append("**"));
        b.append(" |\n| *Thesis Table ")
                .append(mode == DimsMode.G_MINUS_1 ? "3.3" : "3.4")
                .append(", same datasets* | ")
                .append(thesisMeanCell(mainReducer));
        others.keySet().forEach(k -> b.append(" | ").append(thesisMeanCell(k)));
        b.append(" |\n\nColumns:\n\n- ").append(mainReducer).append(": Vigil's reducer, the main column\n");
        others.keySet().forEach(k -> b.append("- ")
                .append(k)
                .append(": ")
                .append(Table33Experiment.Peer.of(k)
                        .map(Table33Experiment.Peer::description)
                        .orElse("Vigil's reducer, selected as the main column"))
                .append('\n'));
        b.append(
                "\n`nc`: not computable — the reducer's problem is ill-posed on at least one split of the dataset (e.g. "
                        + "plain FDA whenever n − G < d), as the thesis marks it; a mean over datasets that include one is "
                        + "`nc` too.\n");
    }

    /**
     * The thesis's figure for a reducer's column, where it reports that method: LDG, Reg. FDA, PCA, PCA FDA, DLDA, and
     * for lfda (a fixed small ridge) its Reg. LFDA column.
     */
    public Optional<Double> thesisFigure(String reducer, String dataset) {
        boolean t34 = mode == DimsMode.CV;
        return switch (reducer) {
            case "ldg" -> thesisLdg(dataset);
            case "reg-fda" -> thesisRegFda(dataset);
            case "pca" -> ThesisTable33.peer(dataset, ThesisTable33.PeerColumn.PCA, t34);
            case "pca-fda" -> ThesisTable33.peer(dataset, ThesisTable33.PeerColumn.PCA_FDA, t34);
            case "dlda" -> ThesisTable33.peer(dataset, ThesisTable33.PeerColumn.DLDA, t34);
            case "lfda" -> ThesisTable33.peer(dataset, ThesisTable33.PeerColumn.REG_LFDA, t34);
            default -> Optional.empty();
        };
    }

    /** Mean of the thesis's figures for the column over the report's datasets, "–" if it has none for one of them. */
    private String thesisMeanCell(String reducer) {
        List<Optional<Double>> figures = results.stream()
                .filter(r -> thesisLdg(r.name()).isPresent())
                .map(r -> thesisFigure(reducer, r.name()))
                .toList();
        if (figures.isEmpty() || figures.stream().anyMatch(Optional::isEmpty)) {
            return "–";
        }
        return String.format(
                Locale.ROOT,
                "%.2f",
                figures.stream().mapToDouble(Optional::get).average().orElseThrow());
    }

    private String meanCell(List<DatasetResult> rs) {
        double m = meanOverThesisDatasets(rs);
        return Double.isNaN(m) && rs.stream().anyMatch(DatasetResult::notComputable)
                ? "nc"
                : String.format(Locale.ROOT, "%.2f", m);
    }

    /** Per compared reducer, the datasets on which it is not computable ("nc"), for reducers that have any. */
    public Map<String, List<String>> notComputable() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        others.forEach((k, rs) -> {
            List<String> nc = rs.stream()
                    .filter(DatasetResult::notComputable)
                    .map(DatasetResult::name)
                    .toList();
            if (!nc.isEmpty()) {
                out.put(k, nc);
            }
        });
        return out;
    }

    private static String cell(DatasetResult r) {
        if (r.notComputable()) {
            return "nc";
        }
        return String.format(Locale.ROOT, "%.1f ± %.1f", r.meanPercent(), r.standardErrorPercent());
    }

    private static double[] acc(DatasetResult r) {
        return r.splits().stream().mapToDouble(SplitResult::accuracy3nn).toArray();
    }

    /** The per-dataset CSV (with a final {@code MEAN} row). */
    public String csv() {
        StringBuilder b = new StringBuilder(
                "dataset,classes,train_size,test_size,length,splits,vigil_mean,vigil_std,vigil_se,thesis_ldg,"
                        + "thesis_reg_fda,diff,diff_se,vigil_local_qda_mean,gamma_mode,dims_median,neighbors_median,"
                        + "fit_seconds_mean");
        others.keySet()
                .forEach(k -> b.append(',').append(k).append("_mean,").append(k).append("_std"));
        b.append('\n');
        for (int i = 0; i < results.size(); i++) {
            DatasetResult r = results.get(i);
            Optional<Double> t = thesisLdg(r.name());
            double se = r.standardErrorPercent();
            b.append(String.join(
                    ",",
                    r.name(),
                    Integer.toString(r.classes()),
                    Integer.toString(r.trainSize()),
                    Integer.toString(r.testSize()),
                    Integer.toString(r.length()),
                    Integer.toString(r.splits().size()),
                    num(r.meanPercent()),
                    num(r.stdPercent()),
                    num(se),
                    t.map(Table33Report::num).orElse(""),
                    thesisRegFda(r.name()).map(Table33Report::num).orElse(""),
                    t.map(v -> num(r.meanPercent() - v)).orElse(""),
                    t.map(v -> se > 0 ? num((r.meanPercent() - v) / se) : "").orElse(""),
                    num(r.meanLocalQdaPercent()),
                    num(modeOf(
                            r.splits().stream().mapToDouble(SplitResult::gamma).toArray())),
                    num(median(
                            r.splits().stream().mapToDouble(SplitResult::dims).toArray())),
                    num(median(r.splits().stream()
                            .mapToDouble(SplitResult::neighbors)
                            .toArray())),
                    num(r.meanFitSeconds())));
            for (List<DatasetResult> rs : others.values()) {
                DatasetResult o = rs.get(i);
                b.append(',')
                        .append(o.notComputable() ? "nc" : num(o.meanPercent()))
                        .append(',')
                        .append(o.notComputable() ? "nc" : num(o.stdPercent()));
            }
            b.append('\n');
        }
        b.append(String.join(
                ",",
                "MEAN",
                "",
                "",
                "",
                "",
                "",
                num(vigilMeanOverThesisDatasets()),
                "",
                "",
                num(thesisMean()),
                "",
                num(vigilMeanOverThesisDatasets() - thesisMean()),
                "",
                "",
                "",
                "",
                "",
                num(results.stream()
                        .mapToDouble(DatasetResult::meanFitSeconds)
                        .average()
                        .orElse(Double.NaN))));
        others.values().forEach(rs -> b.append(',').append(meanCsv(rs)).append(','));
        b.append('\n');
        return b.toString();
    }

    private String meanCsv(List<DatasetResult> rs) {
        String m = meanCell(rs);
        return m.equals("nc") ? m : num(meanOverThesisDatasets(rs));
    }

    /** Every split of every reducer (the last column names it); a split on which the reducer is "nc" says so. */
    public String splitsCsv() {
        StringBuilder b = new StringBuilder(
                "dataset,split,seed,accuracy_3nn,accuracy_1nn,accuracy_local_qda,cv_accuracy,gamma,dims,neighbors,"
                        + "qda_neighbors,fit_seconds,reducer\n");
        Map<String, List<DatasetResult>> all = new LinkedHashMap<>();
        all.put(mainReducer, results);
        all.putAll(others);
        all.forEach((reducer, rs) -> appendSplits(b, reducer, rs));
        return b.toString();
    }

    private static void appendSplits(StringBuilder b, String reducer, List<DatasetResult> rs) {
        for (DatasetResult r : rs) {
            for (SplitResult s : r.splits()) {
                b.append(String.join(
                        ",",
                        r.name(),
                        Integer.toString(s.split()),
                        Long.toString(s.seed()),
                        Double.isNaN(s.accuracy3nn()) ? "nc" : num(100 * s.accuracy3nn()),
                        Double.isNaN(s.accuracy1nn()) ? "nc" : num(100 * s.accuracy1nn()),
                        num(100 * s.accuracyLocalQda()),
                        num(100 * s.cvAccuracy()),
                        num(s.gamma()),
                        Integer.toString(s.dims()),
                        Integer.toString(s.neighbors()),
                        Integer.toString(s.qdaNeighbors()),
                        num(s.fitSeconds()),
                        reducer));
                b.append('\n');
            }
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Most frequent value; ties → the smallest. */
    static double modeOf(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        double best = s[0];
        int bestCount = 0;
        int i = 0;
        while (i < s.length) {
            int j = i;
            while (j < s.length && s[j] == s[i]) {
                j++;
            }
            if (j - i > bestCount) {
                bestCount = j - i;
                best = s[i];
            }
            i = j;
        }
        return best;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String fmt1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String signed(double v) {
        return String.format(Locale.ROOT, "%+.1f", v);
    }

    private static String fmtGamma(double v) {
        return String.format(Locale.ROOT, "%s", v);
    }

    private static String fmtMedian(double[] v) {
        double m = median(v);
        return m == Math.rint(m) ? Long.toString((long) m) : String.format(Locale.ROOT, "%.1f", m);
    }
}
