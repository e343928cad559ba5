package io.vigil.experiment;

import io.vigil.experiment.GuaranteeExperiment.DatasetResult;
import io.vigil.experiment.GuaranteeExperiment.Outcome;
import io.vigil.experiment.GuaranteeExperiment.Point;
import io.vigil.experiment.GuaranteeExperiment.Split;
import io.vigil.experiment.GuaranteeExperiment.Variant;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of {@code vigil experiment guarantee}: per guarantee (mode) and per dataset, the certified (dataset,
 * split, τ) pairs, how many are significantly below τ on their test part (one-sided binomial test, 5 %), the mean test
 * reliability − τ, mean t/d and accuracy; the goals a guarantee must meet (no (dataset, τ) below in more than 3 of 10 splits; for the
 * expected guarantee, every dataset's mean over splits ≥ τ − 0.01 and the excess where the earliest decision is below
 * τ); written as {@code guarantee.md} and {@code guarantee.csv}, and as the JSON object of {@code --json}. Also the
 * line format of the cached splits.
 */
public final class GuaranteeReport {
    /** The markdown file name. */
    public static final String MARKDOWN = "guarantee.md";

    /** The CSV file name. */
    public static final String CSV = "guarantee.csv";

    /** The τ at which the expected guarantee's excess over early-unreliable pairs is a goal. */
    static final double[] EXCESS_TAUS = {0.8, 0.9};

    /** The expected guarantee's tolerance for a dataset's mean reliability over splits below τ. */
    static final double MEAN_TOLERANCE = 0.01;

    private static final String SPLIT_HEADER = "split,seed,train_size,seconds,guarantee,selection,rule,classifier,"
            + "full_accuracy,kind,tau,certified,n,reliable,correct,mean_fraction";

    private final List<DatasetResult> results;
    private final GuaranteeExperiment.Config config;

    /** A report of {@code results}, run under {@code config}. */
    public GuaranteeReport(List<DatasetResult> results, GuaranteeExperiment.Config config) {
        this.results = List.copyOf(results);
        this.config = config;
    }

    /**
     * Summary figures over a set of evaluations.
     *
     * @param pairs evaluated (dataset, split, τ)
     * @param certifiedPairs those whose τ the training part certified
     * @param significantlyBelow certified pairs significantly below τ on the test part
     * @param meanExcess mean reliability − τ over certified pairs (NaN when there are none)
     * @param meanExcessSe its standard error, clustered by trained model (dataset, split): the τ of one model share
     *     its data and draw
     * @param meanFraction their mean t/d
     * @param meanAccuracy their mean accuracy
     * @param splits (dataset, split) evaluated
     * @param opCertified splits whose operating point is certified
     * @param opAccuracy mean accuracy at the operating point
     * @param opFraction mean t/d at the operating point
     * @param fullAccuracy mean accuracy of the operating point's classifier on complete series
     */
    public record Stats(
            int pairs,
            int certifiedPairs,
            int significantlyBelow,
            double meanExcess,
            double meanExcessSe,
            double meanFraction,
            double meanAccuracy,
            int splits,
            int opCertified,
            double opAccuracy,
            double opFraction,
            double fullAccuracy) {
        /** significantlyBelow / certifiedPairs (NaN when none is certified). */
        public double fractionBelow() {
            return certifiedPairs == 0 ? Double.NaN : significantlyBelow / (double) certifiedPairs;
        }

        static Stats of(List<Outcome> outcomes, double tauOnly) {
            int pairs = 0;
            int certified = 0;
            int below = 0;
            double excess = 0;
            double fraction = 0;
            double accuracy = 0;
            int opCertified = 0;
            double opAccuracy = 0;
            double opFraction = 0;
            double full = 0;
            double[] clusterSums = new double[outcomes.size()];
            int[] clusterCounts = new int[outcomes.size()];
            int g = 0;
            for (Outcome o : outcomes) {
                opCertified += o.operatingPoint().certified() ? 1 : 0;
                opAccuracy += o.operatingPoint().accuracy();
                opFraction += o.operatingPoint().meanFraction();
                full += o.fullAccuracy();
                for (Point p : o.taus()) {
                    if (!Double.isNaN(tauOnly) && p.tau() != tauOnly) {
                        continue;
                    }
                    pairs++;
                    if (p.certified()) {
                        certified++;
                        below += p.significantlyBelow() ? 1 : 0;
                        excess += p.reliability() - p.tau();
                        clusterSums[g] += p.reliability() - p.tau();
                        clusterCounts[g]++;
                        fraction += p.meanFraction();
                        accuracy += p.accuracy();
                    }
                }
                g++;
            }
            int n = outcomes.size();
            return new Stats(
                    pairs,
                    certified,
                    below,
                    mean(excess, certified),
                    GuaranteeStatistics.clusteredSe(clusterSums, clusterCounts),
                    mean(fraction, certified),
                    mean(accuracy, certified),
                    n,
                    opCertified,
                    mean(opAccuracy, n),
                    mean(opFraction, n),
                    mean(full, n));
        }
    }

    private static double mean(double sum, int n) {
        return n == 0 ? Double.NaN : sum / n;
    }

    /** A (dataset, τ) whose certified splits fell significantly below τ in more than 30 % of the splits. */
    public record Repeated(String dataset, double tau, int splitsBelow, int splits) {}

    /**
     * A (dataset, τ) whose mean test reliability is below τ − 0.01, over {@code splits} splits: those certifying τ, or
     * every split ({@code overAll}; {@link #meanShortfalls(Variant, boolean)}); {@code se} is the mean's standard
     * error over those splits (NaN for one), so a shortfall within noise can be told from a real one.
     */
    public record MeanShortfall(
            String dataset, double tau, double meanReliability, double se, int splits, boolean overAll) {}

    /**
     * The calibration goal's figures at τ, over the pairs whose earliest rule is less reliable than τ on the training
     * part's cross-fitted replays (so the selection sees no test series): the mean reliability − τ over those that
     * certify τ and over all of them (a pair that cannot certify τ decides at t = d, and counts as such), each with
     * its standard error clustered by trained model.
     */
    public record EarlyUnreliable(
            double tau, int pairs, double meanExcess, double se, int pairsAll, double meanExcessAll, double seAll) {}

    /** Every outcome of one variant, over all datasets (or one). */
    private List<Outcome> outcomes(Variant v, String dataset) {
        List<Outcome> out = new ArrayList<>();
        for (DatasetResult d : results) {
            if (dataset == null || d.dataset().equals(dataset)) {
                for (Split s : d.splits()) {
                    s.outcome(v).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    /** The variant's figures over every dataset. */
    public Stats stats(Variant v) {
        return Stats.of(outcomes(v, null), Double.NaN);
    }

    /** The variant's figures on one dataset. */
    public Stats stats(Variant v, String dataset) {
        return Stats.of(outcomes(v, dataset), Double.NaN);
    }

    /** The variant's figures at one τ over every dataset. */
    public Stats statsAt(Variant v, double tau) {
        return Stats.of(outcomes(v, null), tau);
    }

    /** The (dataset, τ) below τ in more than 3 of 10 (30 % of the) splits: the pac goal wants none. */
    public List<Repeated> repeated(Variant v) {
        List<Repeated> out = new ArrayList<>();
        for (DatasetResult d : results) {
            for (double tau : config.taus()) {
                int below = 0;
                for (Outcome o : outcomes(v, d.dataset())) {
                    for (Point p : o.taus()) {
                        below += p.tau() == tau && p.certified() && p.significantlyBelow() ? 1 : 0;
                    }
                }
                int done = (int) d.splits().stream().filter(Split::done).count();
                if (10 * below > 3 * done) {
                    out.add(new Repeated(d.dataset(), tau, below, done));
                }
            }
        }
        return out;
    }

    /** The (dataset, τ) whose mean reliability over certifying splits is below τ − 0.01: the expected goal wants none. */
    public List<MeanShortfall> meanShortfalls(Variant v) {
        return meanShortfalls(v, false);
    }

    /**
     * The (dataset, τ) some split certifies whose mean test reliability at τ is below τ − 0.01, over the splits
     * certifying τ ({@code allSplits} false: the goal's reading) or over every split ({@code allSplits} true: a split
     * that cannot certify τ decides every series at t = d, where it agrees, and that is the model a user of τ gets —
     * the mean the expected guarantee bounds, E over training sets of the rate, counts it, while the mean over
     * certifying splits conditions on the training set, which the guarantee does not cover).
     */
    public List<MeanShortfall> meanShortfalls(Variant v, boolean allSplits) {
        List<MeanShortfall> out = new ArrayList<>();
        for (DatasetResult d : results) {
            for (double tau : config.taus()) {
                double sum = 0;
                double sumSq = 0;
                int n = 0;
                boolean anyCertified = false;
                for (Outcome o : outcomes(v, d.dataset())) {
                    for (Point p : o.taus()) {
                        if (p.tau() == tau && (allSplits || p.certified())) {
                            sum += p.reliability();
                            sumSq += p.reliability() * p.reliability();
                            n++;
                        }
                        anyCertified |= p.tau() == tau && p.certified();
                    }
                }
                if (anyCertified && sum / n < tau - MEAN_TOLERANCE) {
                    double m = sum / n;
                    double se = n < 2 ? Double.NaN : Math.sqrt(Math.max(0, (sumSq - n * m * m) / (n - 1)) / n);
                    out.add(new MeanShortfall(d.dataset(), tau, m, se, n, allSplits));
                }
            }
        }
        return out;
    }

    /** Per τ of {@link #EXCESS_TAUS} that was run: the calibration goal's excess ({@link EarlyUnreliable}). */
    public List<EarlyUnreliable> earlyUnreliable(Variant v) {
        List<EarlyUnreliable> out = new ArrayList<>();
        for (double tau : EXCESS_TAUS) {
            if (!config.taus().contains(tau)) {
                continue;
            }
            List<Outcome> outcomes = outcomes(v, null);
            double[] sums = new double[outcomes.size()];
            int[] counts = new int[outcomes.size()];
            double[] sumsAll = new double[outcomes.size()];
            int[] countsAll = new int[outcomes.size()];
            for (int g = 0; g < outcomes.size(); g++) {
                Outcome o = outcomes.get(g);
                if (o.crossFittedEarliest().reliability() >= tau) {
                    continue;
                }
                for (Point p : o.taus()) {
                    if (p.tau() == tau) {
                        sumsAll[g] += p.reliability() - tau;
                        countsAll[g]++;
                        if (p.certified()) {
                            sums[g] += p.reliability() - tau;
                            counts[g]++;
                        }
                    }
                }
            }
            int n = java.util.Arrays.stream(counts).sum();
            int nAll = java.util.Arrays.stream(countsAll).sum();
            out.add(new EarlyUnreliable(
                    tau,
                    n,
                    mean(java.util.Arrays.stream(sums).sum(), n),
                    GuaranteeStatistics.clusteredSe(sums, counts),
                    nAll,
                    mean(java.util.Arrays.stream(sumsAll).sum(), nAll),
                    GuaranteeStatistics.clusteredSe(sumsAll, countsAll)));
        }
        return out;
    }

    /** The modes: each guarantee under its default selection correction when it was run, else under the first. */
    private List<Variant> modes() {
        return config.guarantees().stream()
                .map(g -> new Variant(g, config.modeSelection(g)))
                .toList();
    }

    /**
     * The {@code --json} object: {@code modes} (per guarantee under its default selection correction, or the first
     * one run: {@code certified_pairs}, {@code significantly_below}, {@code fraction_below}, {@code mean_excess},
     * {@code mean_fraction} and more), {@code datasets} (the same per dataset) and, with several corrections, {@code
     * selection_corrections} (every guarantee per correction, with its goals).
     */
    public Map<String, Object> json() {
        Map<String, Object> o = new LinkedHashMap<>();
        Map<String, Object> modes = new LinkedHashMap<>();
        for (Variant v : modes()) {
            Map<String, Object> m = goalsJson(v);
            Map<String, Object> perTau = new LinkedHashMap<>();
            for (double tau : config.taus()) {
                perTau.put(Double.toString(tau), statsJson(statsAt(v, tau)));
            }
            m.put("per_tau", perTau);
            modes.put(v.guarantee().cliName(), m);
        }
        o.put("modes", modes);
        List<Object> datasets = new ArrayList<>();
        for (DatasetResult d : results) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("dataset", d.dataset());
            x.put("train_size", d.trainSize());
            x.put("test_size", d.testSize());
            x.put("splits", d.splits().size());
            Map<String, Object> dm = new LinkedHashMap<>();
            for (Variant v : modes()) {
                dm.put(v.guarantee().cliName(), statsJson(stats(v, d.dataset())));
            }
            x.put("modes", dm);
            x.put("power_against_0_05_shortfall", power(d));
            datasets.add(x);
        }
        o.put("datasets", datasets);
        List<Object> failed = new ArrayList<>();
        for (DatasetResult d : results) {
            for (Split s : d.splits()) {
                if (!s.done()) {
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("dataset", d.dataset());
                    f.put("split", s.split());
                    f.put("reason", s.failure());
                    failed.add(f);
                }
            }
        }
        o.put("failed_splits", failed);
        if (config.selections().size() > 1) {
            Map<String, Object> bySelection = new LinkedHashMap<>();
            for (Selection s : config.selections()) {
                Map<String, Object> m = new LinkedHashMap<>();
                for (Guarantee g : config.guarantees()) {
                    m.put(g.cliName(), goalsJson(new Variant(g, s)));
                }
                bySelection.put(s.cliName(), m);
            }
            o.put("selection_corrections", bySelection);
        }
        Map<String, Object> modeSelection = new LinkedHashMap<>();
        for (Variant v : modes()) {
            modeSelection.put(v.guarantee().cliName(), v.selection().cliName());
        }
        o.put("selection_correction", modeSelection);
        o.put("resplits", config.resplits());
        o.put("taus", config.taus());
        return o;
    }

    /** A variant's figures with its goals: repeated shortfalls, dataset means below τ − 0.01, early-unreliable excess. */
    private Map<String, Object> goalsJson(Variant v) {
        Map<String, Object> m = statsJson(stats(v));
        m.put(
                "repeatedly_below",
                repeated(v).stream().map(GuaranteeReport::json).toList());
        m.put(
                "mean_below_tau_minus_0_01",
                meanShortfalls(v).stream().map(GuaranteeReport::json).toList());
        m.put(
                "mean_over_all_splits_below_tau_minus_0_01",
                meanShortfalls(v, true).stream().map(GuaranteeReport::json).toList());
        Map<String, Object> early = new LinkedHashMap<>();
        for (EarlyUnreliable e : earlyUnreliable(v)) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("selected_by", "cross-fitted earliest reliability");
            x.put("pairs", e.pairs());
            x.put("mean_excess", finite(e.meanExcess()));
            x.put("se", finite(e.se()));
            x.put("pairs_all_splits", e.pairsAll());
            x.put("mean_excess_all_splits", finite(e.meanExcessAll()));
            x.put("se_all_splits", finite(e.seAll()));
            early.put(Double.toString(e.tau()), x);
        }
        m.put("excess_where_earliest_below_tau", early);
        return m;
    }

    private static Map<String, Object> statsJson(Stats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("certified_pairs", s.certifiedPairs());
        m.put("significantly_below", s.significantlyBelow());
        m.put("fraction_below", finite(s.fractionBelow()));
        m.put("mean_excess", finite(s.meanExcess()));
        m.put("mean_excess_se", finite(s.meanExcessSe()));
        m.put("mean_fraction", finite(s.meanFraction()));
        m.put("mean_accuracy", finite(s.meanAccuracy()));
        m.put("pairs", s.pairs());
        m.put("splits", s.splits());
        m.put("operating_point_certified", s.opCertified());
        m.put("operating_point_accuracy", finite(s.opAccuracy()));
        m.put("operating_point_fraction", finite(s.opFraction()));
        m.put("full_accuracy", finite(s.fullAccuracy()));
        return m;
    }

    private static Map<String, Object> json(Repeated r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dataset", r.dataset());
        m.put("tau", r.tau());
        m.put("splits_below", r.splitsBelow());
        m.put("splits", r.splits());
        return m;
    }

    private static Map<String, Object> json(MeanShortfall r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dataset", r.dataset());
        m.put("tau", r.tau());
        m.put("mean_reliability", r.meanReliability());
        m.put("se", finite(r.se()));
        m.put(r.overAll() ? "splits" : "certified_splits", r.splits());
        return m;
    }

    /** Per τ, the power of the 5 % check against a 0.05 shortfall on this dataset's test size. */
    private Map<String, Object> power(DatasetResult d) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (double tau : config.taus()) {
            m.put(Double.toString(tau), GuaranteeStatistics.power(d.testSize(), tau));
        }
        return m;
    }

    /** JSON has no NaN: null instead. */
    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Writes {@link #MARKDOWN} and {@link #CSV} into {@code dir}. */
    public void write(Path dir, Map<String, String> settings) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(settings), StandardCharsets.UTF_8);
        StringBuilder csv = new StringBuilder("dataset," + SPLIT_HEADER + "\n");
        for (DatasetResult d : results) {
            for (Split s : d.splits()) {
                for (String line : rows(s)) {
                    csv.append(d.dataset()).append(',').append(line).append('\n');
                }
            }
        }
        Files.writeString(dir.resolve(CSV), csv.toString(), StandardCharsets.UTF_8);
    }

    /** The markdown report. */
    public String markdown(Map<String, String> settings) {
        StringBuilder sb = new StringBuilder("# Certificates over re-splits\n\n");
        sb.append("Every dataset merged and re-split (stratified, the standard training size, seeded); on each "
                + "training part a model trained with the defaults and certified under each guarantee; each "
                + "requested τ evaluated with the operating point's rule and classifier on the test part. A pair is "
                + "(dataset, split, τ); *below*: test reliability significantly below τ (one-sided binomial, 5 %). "
                + "Excess: test reliability − τ. Accuracy and t/d over certified pairs; *op*: at the stored "
                + "operating point; *full*: its classifier on complete series.\n\n");
        settings.forEach(
                (k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        sb.append(String.format(
                Locale.ROOT,
                "%n## Per guarantee (selection correction %s)%n%n",
                String.join(
                        ", ",
                        modes().stream()
                                .map(v -> v.guarantee().cliName() + ": "
                                        + v.selection().cliName())
                                .toList())));
        statsHeader(sb, "mode");
        for (Variant v : modes()) {
            statsRow(sb, v.guarantee().cliName(), stats(v));
        }
        sb.append("\n### Per τ\n\n");
        statsHeader(sb, "mode | τ");
        for (Variant v : modes()) {
            for (double tau : config.taus()) {
                statsRow(sb, v.guarantee().cliName() + " | " + tau, statsAt(v, tau));
            }
        }
        for (DatasetResult d : results) {
            for (Split s : d.splits()) {
                if (!s.done()) {
                    sb.append(String.format(
                            Locale.ROOT, "%nSplit %d of %s failed: %s%n", s.split(), d.dataset(), s.failure()));
                }
            }
        }
        sb.append("\n## Goals\n\n");
        for (Variant v : modes()) {
            goals(sb, v);
        }
        if (config.selections().size() > 1) {
            sb.append("\nEvery selection correction:\n\n");
            for (Variant v : config.variants()) {
                goals(sb, v);
            }
        }
        if (config.selections().size() > 1) {
            sb.append("\n## Selection corrections\n\n");
            statsHeader(sb, "correction | mode");
            for (Selection s : config.selections()) {
                for (Guarantee g : config.guarantees()) {
                    statsRow(sb, s.cliName() + " | " + g.cliName(), stats(new Variant(g, s)));
                }
            }
        }
        sb.append(
                "\n## Power of the 5 % check\n\nThe probability that *below* fires on a dataset's test part when "
                        + "its true reliability is τ − 0.05: where it is low, few pairs below says little.\n\n| dataset | n test");
        config.taus().forEach(t -> sb.append(" | τ = ").append(t));
        sb.append(" |\n|---|---:|").append("---:|".repeat(config.taus().size())).append('\n');
        for (DatasetResult d : results) {
            sb.append("| ").append(d.dataset()).append(" | ").append(d.testSize());
            power(d).values().forEach(p -> sb.append(" | ").append(plain((Double) p)));
            sb.append(" |\n");
        }
        sb.append("\n## Per dataset\n\n");
        statsHeader(sb, "dataset | n train | mode");
        for (DatasetResult d : results) {
            for (Variant v : modes()) {
                statsRow(
                        sb,
                        d.dataset() + " | " + d.trainSize() + " | "
                                + v.guarantee().cliName(),
                        stats(v, d.dataset()));
            }
        }
        return sb.toString();
    }

    private void goals(StringBuilder sb, Variant v) {
        Stats s = stats(v);
        List<Repeated> repeated = repeated(v);
        sb.append(String.format(
                Locale.ROOT,
                "- **%s**: %d of %d certified pairs significantly below τ (%s); (dataset, τ) below in more than 3 of "
                        + "10 splits: %s",
                v.guarantee().cliName() + " (" + v.selection().cliName() + ")",
                s.significantlyBelow(),
                s.certifiedPairs(),
                percent(s.fractionBelow()),
                repeated.isEmpty()
                        ? "none"
                        : String.join(
                                ", ",
                                repeated.stream()
                                        .map(r -> String.format(
                                                Locale.ROOT,
                                                "%s τ = %s (%d of %d)",
                                                r.dataset(),
                                                r.tau(),
                                                r.splitsBelow(),
                                                r.splits()))
                                        .toList())));
        sb.append(String.format(
                Locale.ROOT,
                "; dataset means over certifying splits below τ − %.2f: %s; over all splits (a split that cannot "
                        + "certify τ decides at t = d): %s",
                MEAN_TOLERANCE,
                shortfallText(meanShortfalls(v, false)),
                shortfallText(meanShortfalls(v, true))));
        for (EarlyUnreliable e : earlyUnreliable(v)) {
            sb.append(String.format(
                    Locale.ROOT,
                    "; τ = %s, pairs whose cross-fitted earliest rate is below τ: mean excess %s ± %s over %d "
                            + "certified, %s ± %s over all %d",
                    e.tau(),
                    signed(e.meanExcess()),
                    plain(e.se()),
                    e.pairs(),
                    signed(e.meanExcessAll()),
                    plain(e.seAll()),
                    e.pairsAll()));
        }
        sb.append(".\n");
    }

    private static String shortfallText(List<MeanShortfall> shortfalls) {
        return shortfalls.isEmpty()
                ? "none"
                : String.join(
                        ", ",
                        shortfalls.stream()
                                .map(r -> String.format(
                                        Locale.ROOT,
                                        "%s τ = %s (%.3f ± %s over %d)",
                                        r.dataset(),
                                        r.tau(),
                                        r.meanReliability(),
                                        plain(r.se()),
                                        r.splits()))
                                .toList());
    }

    private static String percent(double f) {
        return Double.isNaN(f) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * f);
    }

    private static void statsHeader(StringBuilder sb, String first) {
        sb.append("| ")
                .append(first)
                .append(" | certified / pairs | below | fraction below | mean excess | t/d | accuracy | op certified | "
                        + "op accuracy | op t/d | full accuracy |\n|");
        sb.append("---|".repeat(first.split("\\|").length));
        sb.append("---:|".repeat(10)).append('\n');
    }

    private static void statsRow(StringBuilder sb, String first, Stats s) {
        sb.append(String.format(
                Locale.ROOT,
                "| %s | %d / %d | %d | %s | %s | %s | %s | %d / %d | %s | %s | %s |%n",
                first,
                s.certifiedPairs(),
                s.pairs(),
                s.significantlyBelow(),
                percent(s.fractionBelow()),
                signed(s.meanExcess()),
                plain(s.meanFraction()),
                plain(s.meanAccuracy()),
                s.opCertified(),
                s.splits(),
                plain(s.opAccuracy()),
                plain(s.opFraction()),
                plain(s.fullAccuracy())));
    }

    private static String plain(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String signed(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%+.3f", v);
    }

    /** A split as its cache file: a header and one line per (variant, evaluated rule). */
    static String splitCsv(Split s) {
        StringBuilder sb = new StringBuilder(SPLIT_HEADER).append('\n');
        for (String line : rows(s)) {
            sb.append(line).append('\n');
        }
        return sb.toString();
    }

    private static List<String> rows(Split s) {
        List<String> out = new ArrayList<>();
        for (Outcome o : s.outcomes()) {
            out.add(row(s, o, "op", o.operatingPoint()));
            out.add(row(s, o, "earliest", o.earliest()));
            out.add(row(s, o, "cross-fitted-earliest", o.crossFittedEarliest()));
            for (Point p : o.taus()) {
                out.add(row(s, o, "tau", p));
            }
        }
        return out;
    }

    private static String row(Split s, Outcome o, String kind, Point p) {
        // Double.toString round-trips exactly, so a resumed split reports the very same numbers.
        return String.join(
                ",",
                Integer.toString(s.split()),
                Long.toString(s.seed()),
                Integer.toString(s.trainSize()),
                Double.toString(s.seconds()),
                o.variant().guarantee().cliName(),
                o.variant().selection().cliName(),
                o.rule(),
                o.classifier(),
                Double.toString(o.fullAccuracy()),
                kind,
                Double.toString(p.tau()),
                Boolean.toString(p.certified()),
                Integer.toString(p.n()),
                Integer.toString(p.reliable()),
                Integer.toString(p.correct()),
                Double.toString(p.meanFraction()));
    }

    /**
     * Parses a split's cache file.
     *
     * @throws IllegalArgumentException when it is not one, is of another split, or lacks a variant or τ of {@code
     *     config}
     */
    static Split parseSplit(List<String> lines, int split, GuaranteeExperiment.Config config) {
        if (lines.isEmpty() || !lines.get(0).equals(SPLIT_HEADER)) {
            throw new IllegalArgumentException("not a guarantee split file");
        }
        long seed = 0;
        int trainSize = 0;
        double seconds = 0;
        List<Outcome> outcomes = new ArrayList<>();
        for (Variant v : config.variants()) {
            String rule = null;
            String classifier = null;
            double full = Double.NaN;
            Point op = null;
            Point earliest = null;
            Point crossFitted = null;
            List<Point> taus = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split(",", -1);
                if (f.length != 16) {
                    throw new IllegalArgumentException("expected 16 fields, got " + f.length);
                }
                if (Integer.parseInt(f[0]) != split) {
                    throw new IllegalArgumentException("split " + f[0] + " in the file of split " + split);
                }
                if (!f[4].equals(v.guarantee().cliName())
                        || !f[5].equals(v.selection().cliName())) {
                    continue;
                }
                seed = Long.parseLong(f[1]);
                trainSize = Integer.parseInt(f[2]);
                seconds = Double.parseDouble(f[3]);
                rule = f[6];
                classifier = f[7];
                full = Double.parseDouble(f[8]);
                Point p = new Point(
                        Double.parseDouble(f[10]),
                        Boolean.parseBoolean(f[11]),
                        Integer.parseInt(f[12]),
                        Integer.parseInt(f[13]),
                        Integer.parseInt(f[14]),
                        Double.parseDouble(f[15]));
                switch (f[9]) {
                    case "op" -> op = p;
                    case "earliest" -> earliest = p;
                    case "cross-fitted-earliest" -> crossFitted = p;
                    case "tau" -> taus.add(p);
                    default -> throw new IllegalArgumentException("unknown row kind " + f[9]);
                }
            }
            if (op == null
                    || earliest == null
                    || crossFitted == null
                    || !taus.stream().map(Point::tau).toList().equals(config.taus())) {
                throw new IllegalArgumentException("variant " + v + " incomplete");
            }
            outcomes.add(new Outcome(v, rule, classifier, full, op, earliest, crossFitted, taus));
        }
        return new Split(split, seed, trainSize, seconds, outcomes, "");
    }
}
