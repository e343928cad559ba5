package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionStride;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.PatternReplay;
import io.vigil.early.SampleScore;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.select.Reducer;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.select.TransferTrainer;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;

/**
 * Cross-fitted calibration of a trained model's early decisions (docs/method.md §5). The training series are split in
 * K stratified folds; for each fold LDG (same k, γ, ℓ), local QDA, the complete-series Gaussian and the linear SVM are
 * refitted without it, and its series are replayed sample by sample through the same {@link EarlyClassifier}, so
 * every statistic comes from series the fitted model did not see:
 *
 * <ol>
 *   <li>a variance inflation κ per band of t/d: the held-out squared Mahalanobis distances D²(t) = (y − m_y)ᵀ
 *       R_y⁻¹(y − m_y) of each series' own projection y (in its fold model's coordinates, so the fold bases need no
 *       alignment) from the conditional mean have their 0.9-quantile at κ·χ²_ℓ(0.9);
 *   <li>with R_y inflated by κ — for a fold's series, the κ of the other folds' held-out series only (inner
 *       cross-fit: the distances that set a fold's inflation are never those of the series it certifies) — one replay per held-out series and rule gives its
 *       decision at every threshold of the grid ({@link EarlyClassifier#score}), hence per threshold the number of
 *       early labels that differ from the fold model's complete-series label (and of series that differ there or at
 *       any more conservative threshold, for conformal risk control), the number equal to the true label and the
 *       mean decision time;
 *   <li>the operating point: the announced τ (and rule, classifier) with the best cross-fitted objective among the
 *       certified ones, its certificate corrected for that choice ({@link Selection}).
 * </ol>
 *
 * The result is the model with a {@link CalibrationSection}; thresholds for any τ follow from it by Learn-then-Test
 * when the model is used. Caveat, measured in the method notes: with very few series the fold models differ from the
 * full one more than a new test series does, so cross-fitted replays err on the late, safe side.
 */
public final class CrossFitCalibrator {
    /** τ values at which the Gaussian set's held-out coverage is measured and reported. */
    static final double[] COVERAGE_TAUS = {0.5, 0.8, 0.9, 0.95, 0.99};

    /** Announced τ values the operating point is chosen among. */
    static final double[] OPERATING_TAUS = {0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.99};

    /** Quantile of the held-out distances the inflation matches (the default τ of the stream job). */
    static final double INFLATION_QUANTILE = 0.9;

    /**
     * Bounds of the inflation: below 0.05 a band would claim the model 20 times too cautious, above 1e6 it would
     * discard the data; both would mean a broken fit, not a calibration.
     */
    static final double MIN_INFLATION = 0.05;

    static final double MAX_INFLATION = 1e6;

    private CrossFitCalibrator() {}

    /**
     * A fold: its held-out series, the model refitted without them and that model's complete-series estimator of
     * {@link CalibrationParams#estimator} (built once and shared by both passes and every replayed rule).
     */
    private record Fold(int[] heldOut, VigilModel model, CompleteSeriesEstimator estimator) {}

    /** Pass 1 of one fold: per band the ratios D²/χ²_ℓ(0.9), and per sample (band, D², ℓ). */
    record HeldOutDistances(List<List<Double>> ratios, List<double[]> perSample) {}

    /** A rule and classifier to replay. */
    private record CurveSpec(DecisionParams params) {}

    /** One held-out series' replay: per threshold the stopping sample and label; its complete and true labels. */
    private record SeriesReplay(int[] stopT, int[] stopLabel, int complete, int truth, int length) {}

    /**
     * The model with its {@code calibration} section.
     *
     * @param model a model trained on {@code train} with its {@code complete_series} section (joint estimator)
     * @param train the training split, class indices in the model's class order
     * @param sections how the complete-series sections were fitted (refitted per fold the same way)
     * @param progress advanced per fold refit and per fold replay
     * @throws IllegalArgumentException when the model has no joint Gaussian or too few series to cross-fit
     */
    public static VigilModel calibrate(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress) {
        return calibrate(
                model, train, sections, p, progress, Runtime.getRuntime().availableProcessors());
    }

    /**
     * As {@link #calibrate(VigilModel, Dataset, EarlyModelTrainer.Params, CalibrationParams, Progress)} with the
     * number of threads that run the folds (the result does not depend on it; memory grows with it by one fold's
     * refit at a time, the fold models themselves are kept for both passes).
     */
    public static VigilModel calibrate(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress,
            int threads) {
        return calibrate(model, train, sections, p, progress, threads, (sub, sec) -> refit(model, sub, sec));
    }

    /**
     * How a fold's model is refitted: the full model's selection fixed, fitted on the fold's complement {@code sub}
     * with the complete-series sections {@code sections}.
     */
    @FunctionalInterface
    interface Refit {
        VigilModel fit(Dataset sub, EarlyModelTrainer.Params sections);
    }

    /**
     * The calibration of a transfer-LDG model (thesis chapter 4): the folds split the target training series only;
     * each fold refits transfer LDG with the model's α, γ, ℓ and neighbour counts on the rest of the target series and
     * the whole source, and its complete-series sections on that pooled set, as {@code vigil train} fits the full
     * model. Held-out target series are replayed as for any model, so the certificate speaks of new target series.
     *
     * @param target the target training split the model was trained on
     * @param source the source domain it was trained with
     * @throws IllegalArgumentException when the model is not a transfer-LDG model, or as {@link #calibrate(VigilModel,
     *     Dataset, EarlyModelTrainer.Params, CalibrationParams, Progress)}
     */
    public static VigilModel calibrateTransfer(
            VigilModel model,
            Dataset target,
            Dataset source,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress) {
        TransferSource ts = model.projection()
                .transfer()
                .orElseThrow(() -> new IllegalArgumentException("calibrateTransfer needs a transfer-LDG model"));
        TrainParams fixed = TrainParams.builder()
                .reducer(Reducer.TRANSFER_LDG)
                .protocol(SelectionProtocol.GIVEN)
                .alpha(ts.alpha())
                .gamma(model.gamma())
                .dims(model.dims())
                .neighbors(model.ldgNeighbors())
                .qdaNeighbors(model.qdaNeighbors())
                .standardize(model.standardizer().isPresent())
                .seed(model.seed())
                .build();
        return calibrate(
                model, target, sections, p, progress, Runtime.getRuntime().availableProcessors(), (sub, sec) -> {
                    TransferTrainer.Result r =
                            TransferTrainer.train(sub, source, fixed, model.created(), Progress.none(), 1);
                    return EarlyModelTrainer.addSections(r.model(), r.pooled(), sec);
                });
    }

    /**
     * One cross-fit certified under each of {@code variants}: the folds are refitted and replayed once, and each
     * variant's guarantee, selection correction, δ and objective are applied to the same replays, so the models equal
     * those of separate {@link #calibrate(VigilModel, Dataset, EarlyModelTrainer.Params, CalibrationParams, Progress)}
     * calls at a fraction of the cost (the experiments compare guarantees this way).
     *
     * @param variants at least one; they may differ only in guarantee, selection, δ, objective, target and delay cost
     * @return one model per variant, in order
     * @throws IllegalArgumentException when the variants differ in what the replays depend on (folds, seed, bands,
     *     thresholds, rules, classifiers, set), or as {@link #calibrate(VigilModel, Dataset, EarlyModelTrainer.Params,
     *     CalibrationParams, Progress)}
     */
    public static List<VigilModel> calibrateEach(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            List<CalibrationParams> variants,
            Progress progress) {
        return calibrateEach(model, train, sections, variants, Optional.empty(), progress);
    }

    /**
     * As {@link #calibrateEach(VigilModel, Dataset, EarlyModelTrainer.Params, List, Progress)}, optionally with k, γ,
     * ℓ (and the rest of the selection) chosen afresh inside each fold: with {@code reselect} present, a fold's model
     * is {@link Trainer#train trained} on the fold's complement with those parameters, selection and all, instead of
     * refitted with the full model's choice. The full model's choice saw the held-out series, so reusing it is mildly
     * optimistic (docs/method.md §6); re-selecting removes that at the cost of one selection per fold.
     *
     * @param reselect the training parameters the full model was trained with, to re-select with in every fold
     */
    public static List<VigilModel> calibrateEach(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            List<CalibrationParams> variants,
            Optional<TrainParams> reselect,
            Progress progress) {
        CalibrationParams p = variants.get(0);
        for (CalibrationParams q : variants) {
            boolean sameReplays = q.folds() == p.folds()
                    && q.seed() == p.seed()
                    && q.bands() == p.bands()
                    && Arrays.equals(q.thresholds(), p.thresholds())
                    && q.rules().equals(p.rules())
                    && q.classifiers().equals(p.classifiers())
                    && q.set() == p.set()
                    && q.estimator() == p.estimator()
                    && q.pattern().equals(p.pattern());
            if (!sameReplays) {
                throw new IllegalArgumentException("calibration variants must share folds, seed, bands, thresholds, "
                        + "rules, classifiers, set, estimator and observation pattern");
            }
        }
        return calibrate(
                model,
                train,
                sections,
                variants,
                progress,
                Runtime.getRuntime().availableProcessors(),
                reselect.<Refit>map(tp -> (sub, sec) -> EarlyModelTrainer.addSections(
                                Trainer.train(sub, tp, model.created(), Progress.none(), 1), sub, sec))
                        .orElse((sub, sec) -> refit(model, sub, sec)));
    }

    private static VigilModel calibrate(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress,
            int threads,
            Refit refit) {
        return calibrate(model, train, sections, List.of(p), progress, threads, refit)
                .get(0);
    }

    /** The cross-fit with the replay settings of the first variant, certified under each. */
    private static List<VigilModel> calibrate(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            List<CalibrationParams> variants,
            Progress progress,
            int threads,
            Refit refit) {
        CalibrationParams p = variants.get(0);
        CompleteSeriesSection cs = model.section(CompleteSeriesSection.class)
                .orElseThrow(() -> new IllegalArgumentException("calibration needs the complete_series section"));
        if (!cs.available().contains(p.estimator())) {
            throw new IllegalArgumentException(
                    "calibration with --estimator " + p.estimator().id()
                            + " needs that complete-series estimator in the model, which holds only "
                            + cs.available().stream().map(e -> e.id()).toList());
        }
        List<Fold> folds = refitFolds(model, train, refitSections(model, sections, p), p, progress, threads, refit);
        // Pass 1: held-out distances of each series' projection from its conditional mean, per band of t/d.
        List<HeldOutDistances> held = Parallel.map(folds, threads, "calibration", f -> distances(f, train, p.bands()));
        List<double[]> perSample = new ArrayList<>();
        for (HeldOutDistances h : held) {
            perSample.addAll(h.perSample());
        }
        double[] kappa = inflation(held, -1, p.bands());
        double[] coverageBefore = new double[COVERAGE_TAUS.length];
        double[] coverageAfter = new double[COVERAGE_TAUS.length];
        coverage(perSample, kappa, p.bands(), coverageBefore, coverageAfter);
        // Pass 2: every threshold's decisions, per rule and classifier, with the inflated R_y. Each fold's series are
        // replayed with the inflation learned on the other folds' series only (inner cross-fit, docs/method.md §6):
        // κ is part of the curve, so the distances that set it are never those of the series that certify it. Those
        // distances come from the other folds' models, which were fitted with this fold's series among others; fully
        // nested refits (no model that set κ saw the fold) would cost K(K − 1)/2 refits instead of K.
        List<CurveSpec> specs = new ArrayList<>();
        for (DecisionRule rule : p.rules()) {
            for (ClassifierKind kind : p.classifiers()) {
                boolean missingSvm = kind == ClassifierKind.LINEAR_SVM
                        && model.section(LinearSvmSection.class).isEmpty();
                if (missingSvm || (!kind.hasDiscriminants() && rule != DecisionRule.PROBABILITY)) {
                    continue;
                }
                specs.add(new CurveSpec(new DecisionParams(0.5, p.set(), p.estimator(), kind, null, rule)));
            }
        }
        progress.extendBy(folds.size());
        List<Integer> foldIndex = new ArrayList<>();
        for (int f = 0; f < folds.size(); f++) {
            foldIndex.add(f);
        }
        List<List<List<SeriesReplay>>> replays = Parallel.map(foldIndex, threads, "calibration", f -> {
            // A section holding only this fold's κ: its replay needs nothing else.
            CalibrationSection foldInflation = section(
                    folds.size(),
                    p,
                    inflation(held, f, p.bands()),
                    List.of(),
                    Optional.empty(),
                    1,
                    Selection.NONE,
                    coverageBefore,
                    coverageAfter);
            List<List<SeriesReplay>> perCurve =
                    replay(folds.get(f), train, foldInflation, specs, p.thresholds(), p.pattern());
            progress.step();
            return perCurve;
        });
        List<List<SeriesReplay>> perCurve = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            List<SeriesReplay> all = new ArrayList<>();
            for (List<List<SeriesReplay>> fold : replays) {
                all.addAll(fold.get(c));
            }
            perCurve.add(all);
        }
        List<VigilModel> models = new ArrayList<>();
        for (CalibrationParams v : variants) {
            CalibrationSection done = certified(folds.size(), v, kappa, specs, perCurve, coverageBefore, coverageAfter);
            models.add(model.toBuilder().section(done).build());
        }
        return models;
    }

    /**
     * The section with its curves and operating point, the choice accounted for as {@link CalibrationParams#selection}
     * says: uncorrected, Bonferroni over the K candidates the objective looks at, or chosen on one half of the
     * replayed series (split stratified by class, seeded) and certified on the other, whose curves alone are kept.
     */
    private static CalibrationSection certified(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<CurveSpec> specs,
            List<List<SeriesReplay>> perCurve,
            double[] coverageBefore,
            double[] coverageAfter) {
        int m = p.thresholds().length;
        List<CalibrationSection.Curve> all = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            all.add(curve(specs.get(c).params(), perCurve.get(c), m));
        }
        if (p.selection() == Selection.FIXED) {
            all = all.stream().filter(CrossFitCalibrator::isFixed).limit(1).toList();
        }
        if (p.selection() != Selection.SPLIT || all.isEmpty()) {
            // Bonferroni over every (curve, τ) candidate; nested and fixed leave no choice of curve to correct for,
            // only the τ the objective chooses among (one, the target, for earliest-at-reliability).
            int k =
                    switch (p.selection()) {
                        case BONFERRONI -> OperatingPoints.candidates(all.size(), p, OPERATING_TAUS);
                        case NESTED, FIXED -> OperatingPoints.candidates(1, p, OPERATING_TAUS);
                        default -> 1;
                    };
            boolean nested = p.selection() == Selection.NESTED && !all.isEmpty();
            int[][] counts = nested ? nestedCounts(perCurve, m) : new int[][] {new int[0], new int[0]};
            CalibrationSection withCurves = section(
                    folds, p, kappa, all, Optional.empty(), k, p.selection(), coverageBefore, coverageAfter, counts);
            return withCurves.withOperatingPoint(OperatingPoints.choose(withCurves, p, OPERATING_TAUS));
        }
        boolean[] certifying = splitHalves(perCurve.get(0), p.seed());
        if (perCurve.get(0).size() < 2) {
            throw new IllegalArgumentException("--selection split needs at least two replayed series");
        }
        List<CalibrationSection.Curve> choosing = new ArrayList<>();
        List<CalibrationSection.Curve> certifyingCurves = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            List<SeriesReplay> in = new ArrayList<>();
            List<SeriesReplay> out = new ArrayList<>();
            for (int i = 0; i < perCurve.get(c).size(); i++) {
                (certifying[i] ? in : out).add(perCurve.get(c).get(i));
            }
            choosing.add(curve(specs.get(c).params(), out, m));
            certifyingCurves.add(curve(specs.get(c).params(), in, m));
        }
        CalibrationSection chooser =
                section(folds, p, kappa, choosing, Optional.empty(), 1, Selection.NONE, coverageBefore, coverageAfter);
        CalibrationSection certifier = section(
                folds, p, kappa, certifyingCurves, Optional.empty(), 1, Selection.SPLIT, coverageBefore, coverageAfter);
        Optional<CalibrationSection.OperatingPoint> point = OperatingPoints.choose(chooser, p, OPERATING_TAUS)
                .map(q -> OperatingPoints.at(
                        certifier,
                        certifier
                                .curve(q.rule(), q.classifier(), q.set(), q.estimator())
                                .orElseThrow(),
                        q.tau(),
                        p));
        return section(folds, p, kappa, certifyingCurves, point, 1, Selection.SPLIT, coverageBefore, coverageAfter);
    }

    /**
     * Whether a curve is {@link Selection#FIXED}'s: the default decision rule and classifier (every replayed curve
     * conditions with the one estimator {@link CalibrationParams#estimator} names).
     */
    private static boolean isFixed(CalibrationSection.Curve c) {
        DecisionParams d = DecisionParams.defaults();
        return c.rule() == d.rule() && c.classifier() == d.classifier() && c.set() == d.set();
    }

    /**
     * The counts of {@link Selection#NESTED}'s family, per threshold: series that disagree with their complete-series
     * label on at least one curve ({@code [0]}), and on at least one curve at that threshold or a more conservative
     * one ({@code [1]}, the union of the curves' monotonised losses, itself monotone). Every curve replays the same
     * series in the same order.
     */
    static int[][] nestedCounts(List<List<SeriesReplay>> perCurve, int m) {
        int n = perCurve.get(0).size();
        int[] raw = new int[m];
        int[] monotone = new int[m];
        for (int i = 0; i < n; i++) {
            boolean later = false;
            for (int j = m - 1; j >= 0; j--) {
                boolean differs = false;
                for (List<SeriesReplay> curve : perCurve) {
                    SeriesReplay r = curve.get(i);
                    differs |= r.stopLabel()[j] != r.complete();
                }
                later |= differs;
                raw[j] += differs ? 1 : 0;
                monotone[j] += later ? 1 : 0;
            }
        }
        return new int[][] {raw, monotone};
    }

    /**
     * Which replayed series certify under {@link Selection#SPLIT} (true) and which choose (false): within each class
     * a seeded shuffle, alternately; with an odd count the certifying half gets the extra series.
     */
    static boolean[] splitHalves(List<SeriesReplay> replays, long seed) {
        Map<Integer, List<Integer>> byClass = new TreeMap<>();
        for (int i = 0; i < replays.size(); i++) {
            byClass.computeIfAbsent(replays.get(i).truth(), k -> new ArrayList<>())
                    .add(i);
        }
        boolean[] certifying = new boolean[replays.size()];
        Random rnd = new Random(seed ^ 0x5EED5L);
        boolean next = true;
        for (List<Integer> members : byClass.values()) {
            Collections.shuffle(members, rnd);
            for (int i : members) {
                certifying[i] = next;
                next = !next;
            }
        }
        return certifying;
    }

    /** The section of these parts (the expected guarantee needs curves; a curve-less section is pac). */
    private static CalibrationSection section(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<CalibrationSection.Curve> curves,
            Optional<CalibrationSection.OperatingPoint> point,
            int candidates,
            Selection selection,
            double[] coverageBefore,
            double[] coverageAfter) {
        return section(
                folds, p, kappa, curves, point, candidates, selection, coverageBefore, coverageAfter, new int[][] {
                    new int[0], new int[0]
                });
    }

    /** As above, with the counts of {@link Selection#NESTED}'s family ({@link #nestedCounts}; empty for the others). */
    private static CalibrationSection section(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<CalibrationSection.Curve> curves,
            Optional<CalibrationSection.OperatingPoint> point,
            int candidates,
            Selection selection,
            double[] coverageBefore,
            double[] coverageAfter,
            int[][] nested) {
        Guarantee g = curves.isEmpty() ? Guarantee.PAC : p.guarantee();
        return new CalibrationSection(
                folds,
                p.seed(),
                p.delta(),
                kappa,
                p.thresholds(),
                curves,
                COVERAGE_TAUS,
                coverageBefore,
                coverageAfter,
                point,
                g,
                selection,
                candidates,
                nested[0],
                nested[1],
                p.pattern(),
                g == Guarantee.EXPECTED ? p.crcDraw() : ConformalRiskControl.CONSERVATIVE);
    }

    /**
     * κ per band from the held-out distances of every fold but {@code leftOut} (−1: of every fold). A band no other
     * fold reached falls back to all folds' distances, so a fold is never replayed uninflated for lack of data.
     */
    static double[] inflation(List<HeldOutDistances> held, int leftOut, int bands) {
        double[] kappa = new double[bands];
        for (int b = 0; b < bands; b++) {
            List<Double> ratios = new ArrayList<>();
            for (int f = 0; f < held.size(); f++) {
                if (f != leftOut) {
                    ratios.addAll(held.get(f).ratios().get(b));
                }
            }
            if (ratios.isEmpty() && leftOut >= 0) {
                ratios.addAll(held.get(leftOut).ratios().get(b));
            }
            kappa[b] = inflationOf(ratios);
        }
        return kappa;
    }

    /**
     * What the folds refit: the calibrated complete-series estimator only (the replays use no other), and the linear
     * SVM only when a linear-SVM curve will be replayed.
     */
    private static EarlyModelTrainer.Params refitSections(
            VigilModel model, EarlyModelTrainer.Params sections, CalibrationParams p) {
        boolean svm = p.classifiers().contains(ClassifierKind.LINEAR_SVM)
                && model.section(LinearSvmSection.class).isPresent();
        return new EarlyModelTrainer.Params(
                sections.shrinkage(),
                sections.covariance(),
                Set.of(p.estimator()),
                svm ? sections.svmCost() : Double.NaN,
                sections.seed());
    }

    /**
     * Splits the series in stratified folds and refits the model without each (folds in parallel); classes of one
     * series stay in.
     */
    private static List<Fold> refitFolds(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress,
            int threads,
            Refit refit) {
        int n = train.size();
        int g = model.numClasses();
        int[] y = train.classIndices();
        int[] counts = train.classCounts();
        int smallest = Integer.MAX_VALUE;
        for (int c : counts) {
            if (c >= 2) {
                smallest = Math.min(smallest, c);
            }
        }
        if (smallest == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cross-fitting needs a class with at least two training series");
        }
        int k = Math.max(2, Math.min(p.foldsFor(n, train.length()), smallest));
        int[][] parts = Folds.stratifiedKFold(y, g, k, p.seed());
        progress.extendBy(parts.length);
        List<int[]> held = new ArrayList<>();
        for (int[] part : parts) {
            int[] h = Arrays.stream(part).filter(i -> counts[y[i]] >= 2).toArray();
            if (h.length == 0) {
                progress.step();
            } else {
                held.add(h);
            }
        }
        if (held.isEmpty()) {
            throw new IllegalArgumentException("no fold could be held out for cross-fitting");
        }
        return Parallel.map(held, threads, "calibration", h -> {
            VigilModel m = refit.fit(train.subset(Folds.complement(h, n)), sections);
            Fold f = new Fold(h, m, EarlyClassifier.estimator(m, p.estimator()));
            progress.step();
            return f;
        });
    }

    /**
     * The model's selection fixed (k, γ, ℓ, local QDA's k, standardisation, gradient refinement, time segments,
     * sparse LDG's λ and deflation), refitted on {@code sub}.
     */
    static VigilModel refit(VigilModel model, Dataset sub, EarlyModelTrainer.Params sections) {
        int dims = Math.min(model.dims(), Math.max(1, sub.size() - 1));
        IllegalArgumentException last = null;
        for (; dims >= 1; dims--) {
            TrainParams.Builder b = TrainParams.builder();
            model.projection().sparse().ifPresent(s -> b.reducer(Reducer.SPARSE_LDG)
                    .sparsity(s.sparsity())
                    .deflation(s.deflation()));
            model.projection().segments().ifPresent(b::segments);
            TrainParams tp = b.gamma(model.gamma())
                    .dims(dims)
                    .neighbors(model.ldgNeighbors())
                    .qdaNeighbors(model.qdaNeighbors())
                    .standardize(model.standardizer().isPresent())
                    .refine(model.projection().refinement().isPresent())
                    .seed(model.seed())
                    .build();
            try {
                VigilModel m = Trainer.fitFixed(sub, tp, model.created());
                return EarlyModelTrainer.addSections(m, sub, sections);
            } catch (IllegalArgumentException e) {
                // ℓ above this fold's LDG rank: the fold keeps as many directions as it can supply.
                if (e.getMessage() == null || !e.getMessage().contains("LDG rank")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    /**
     * Held-out D²(t) of every series of the fold, divided by χ²_ℓ(0.9), per band; and per sample (band, D², ℓ) for
     * the coverage before and after the inflation. Only the samples at which the rule is evaluated count ({@link
     * DecisionStride}); the last sample (R_y = 0) is left out.
     */
    private static HeldOutDistances distances(Fold f, Dataset train, int bands) {
        VigilModel m = f.model();
        CompleteSeriesEstimator est = f.estimator();
        int ell = m.dims();
        int d = m.length();
        int stride = DecisionStride.of(d);
        ChiSquaredDistribution chi = new ChiSquaredDistribution(ell);
        double ref = chi.inverseCumulativeProbability(INFLATION_QUANTILE);
        Standardizer std = m.standardizer().orElse(null);
        double[] y = new double[ell];
        double[] mean = new double[ell];
        double[] packed = new double[SymmetricPacked.size(ell)];
        double[] work = new double[ell * ell + ell];
        List<List<Double>> ratios = new ArrayList<>();
        for (int b = 0; b < bands; b++) {
            ratios.add(new ArrayList<>());
        }
        List<double[]> perSample = new ArrayList<>();
        for (int i : f.heldOut()) {
            double[] x = train.series(i);
            m.project(x, y);
            SeriesState state = est.newState();
            for (int t = 0; t < d - 1; t++) {
                est.update(state, std == null ? x[t] : std.apply(t, x[t]));
                if (!DecisionStride.checks(t + 1, stride, d)) {
                    continue;
                }
                est.conditionalMean(state, mean);
                est.conditionalCovariance(state, packed);
                double d2 = Mahalanobis.squared(y, mean, packed, ell, work);
                int band = Math.min(bands - 1, (int) ((long) t * bands / d));
                ratios.get(band).add(d2 / ref);
                perSample.add(new double[] {band, d2, ell});
            }
        }
        return new HeldOutDistances(ratios, perSample);
    }

    /** The 0.9-quantile of the ratios D²/χ²_ℓ(0.9) of a band, bounded; 1 for an empty band. */
    static double inflationOf(List<Double> ratios) {
        if (ratios.isEmpty()) {
            return 1.0;
        }
        double[] r = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int k = (int) Math.ceil(INFLATION_QUANTILE * r.length) - 1;
        double v = r[Math.max(0, Math.min(r.length - 1, k))];
        if (!Double.isFinite(v)) {
            return MAX_INFLATION;
        }
        return Math.min(MAX_INFLATION, Math.max(MIN_INFLATION, v));
    }

    /** Held-out coverage of the Gaussian τ-set {D² ≤ χ²_ℓ(τ)} with R_y as fitted and with R_y inflated by κ. */
    private static void coverage(
            List<double[]> perSample, double[] kappa, int bands, double[] beforeOut, double[] afterOut) {
        Map<Integer, double[]> quantiles = new HashMap<>();
        int[] inBefore = new int[COVERAGE_TAUS.length];
        int[] inAfter = new int[COVERAGE_TAUS.length];
        for (double[] s : perSample) {
            int band = (int) s[0];
            double d2 = s[1];
            double[] q = quantiles.computeIfAbsent((int) s[2], ell -> {
                ChiSquaredDistribution chi = new ChiSquaredDistribution(ell);
                return Arrays.stream(COVERAGE_TAUS)
                        .map(chi::inverseCumulativeProbability)
                        .toArray();
            });
            for (int k = 0; k < q.length; k++) {
                inBefore[k] += d2 <= q[k] ? 1 : 0;
                inAfter[k] += d2 / kappa[band] <= q[k] ? 1 : 0;
            }
        }
        int n = Math.max(1, perSample.size());
        for (int k = 0; k < COVERAGE_TAUS.length; k++) {
            beforeOut[k] = (double) inBefore[k] / n;
            afterOut[k] = (double) inAfter[k] / n;
        }
    }

    /**
     * Every curve's replay of the fold's held-out series: per series and threshold the sample at which the rule first
     * decides and its label. The curves share the fold's estimator.
     */
    private static List<List<SeriesReplay>> replay(
            Fold f,
            Dataset train,
            CalibrationSection inflation,
            List<CurveSpec> specs,
            double[] grid,
            ObservationPattern pattern) {
        int m = grid.length;
        VigilModel sub = f.model().toBuilder().section(inflation).build();
        List<List<SeriesReplay>> out = new ArrayList<>();
        SampleScore score = new SampleScore();
        for (CurveSpec spec : specs) {
            EarlyClassifier c = EarlyClassifier.forReplay(sub, spec.params(), grid, f.estimator());
            EarlyClassifier.Workspace ws = c.newWorkspace();
            List<SeriesReplay> series = new ArrayList<>();
            if (!pattern.isComplete()) {
                for (int i : f.heldOut()) {
                    series.add(replayUnder(c, ws, score, train, i, pattern, m));
                }
                out.add(series);
                continue;
            }
            SeriesState state = c.newState();
            int d = c.length();
            for (int i : f.heldOut()) {
                double[] x = train.series(i);
                state.reset();
                int[] stopT = new int[m];
                int[] stopLabel = new int[m];
                int reached = -1;
                for (int t = 0; t < d && reached < m - 1; t++) {
                    c.score(state, x[t], ws, score, reached);
                    int idx = Math.min(score.index(), m - 1);
                    for (int j = reached + 1; j <= idx; j++) {
                        stopT[j] = t + 1;
                        stopLabel[j] = score.label();
                    }
                    reached = Math.max(reached, idx);
                }
                series.add(new SeriesReplay(stopT, stopLabel, c.completeLabel(x, ws), train.classOf(i), d));
            }
            out.add(series);
        }
        return out;
    }

    /**
     * One held-out series observed under {@code pattern} (seeded by its id {@code DATASET/train/INDEX}, as {@code
     * vigil replay} names the row): per threshold the position at which the rule first decides and its label ({@link
     * PatternReplay#scoreGrid}: the latest value's position in the time-major order, as the stream and {@link
     * EarlyReplay} report t; thresholds never reached when the values run out take the label the stream gives the
     * series on its end record).
     */
    private static SeriesReplay replayUnder(
            EarlyClassifier c,
            EarlyClassifier.Workspace ws,
            SampleScore score,
            Dataset train,
            int i,
            ObservationPattern pattern,
            int m) {
        double[] x = train.series(i);
        int[] order = pattern.order(train.name() + "/train/" + i, c.channels(), c.length());
        PatternReplay.Grid g = PatternReplay.scoreGrid(c, c.newSubsetState(), x, order, ws, score, m, false);
        return new SeriesReplay(g.stopT(), g.stopLabel(), c.completeLabel(x, ws), train.classOf(i), c.length());
    }

    /** A curve from its replays, in fold order: per threshold, disagreements, correct labels, Σ t/d. */
    private static CalibrationSection.Curve curve(DecisionParams dp, List<SeriesReplay> replays, int m) {
        int[] disagree = new int[m];
        int[] monotone = new int[m];
        int[] correct = new int[m];
        double[] fraction = new double[m];
        for (SeriesReplay r : replays) {
            boolean later = false;
            for (int j = m - 1; j >= 0; j--) {
                boolean differs = r.stopLabel()[j] != r.complete();
                later |= differs;
                disagree[j] += differs ? 1 : 0;
                monotone[j] += later ? 1 : 0;
                correct[j] += r.stopLabel()[j] == r.truth() ? 1 : 0;
                fraction[j] += (double) r.stopT()[j] / r.length();
            }
        }
        return new CalibrationSection.Curve(
                dp.rule(),
                dp.classifier(),
                dp.set(),
                dp.estimator(),
                replays.size(),
                disagree,
                correct,
                fraction,
                monotone);
    }
}
