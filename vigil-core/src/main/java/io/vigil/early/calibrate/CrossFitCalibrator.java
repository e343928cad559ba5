package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
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
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

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
 * when the model is used. {@link #calibrateHoldout} is the exact alternative: the series it replays were never used to
 * fit or select the model it certifies. Caveat (docs/method.md §5): with very few series the fold models differ from the
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

    /** Pass 1 of one fold: per band the ratios D²/χ²_ℓ(0.9), and per sample (band, D², ℓ). */
    record HeldOutDistances(List<List<Double>> ratios, List<double[]> perSample) {}

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
        return calibrate(
                model, train, sections, p, progress, threads, (sub, sec) -> CalibrationFolds.refit(model, sub, sec));
    }

    /**
     * A fold model for replays run elsewhere (the watch certificate's cross-fitted recordings, docs/watch.md): the
     * model's selection fixed, refitted on {@code sub} with the sections a calibration fold refits.
     */
    public static VigilModel refitFold(
            VigilModel model, Dataset sub, EarlyModelTrainer.Params sections, CalibrationParams p) {
        return CalibrationFolds.refit(model, sub, CalibrationFolds.refitSections(model, sections, p));
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
        requireSameReplays(variants);
        return calibrate(
                model,
                train,
                sections,
                variants,
                progress,
                Runtime.getRuntime().availableProcessors(),
                reselect.<Refit>map(tp -> (sub, sec) -> EarlyModelTrainer.addSections(
                                Trainer.train(sub, tp, model.created(), Progress.none(), 1), sub, sec))
                        .orElse((sub, sec) -> CalibrationFolds.refit(model, sub, sec)));
    }

    /** The variants differ only in what is certified, not in what the replays depend on. */
    private static void requireSameReplays(List<CalibrationParams> variants) {
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
        requireEstimator(model, p);
        List<CalibrationFolds.Fold> folds = CalibrationFolds.refitFolds(
                model, train, CalibrationFolds.refitSections(model, sections, p), p, progress, threads, refit);
        // Pass 1: held-out distances of each series' projection from its conditional mean, per band of t/d.
        List<HeldOutDistances> held =
                Parallel.map(folds, threads, "calibration", f -> CalibrationFolds.distances(f, train, p.bands()));
        List<double[]> perSample = new ArrayList<>();
        for (HeldOutDistances h : held) {
            perSample.addAll(h.perSample());
        }
        double[] kappa = inflation(held, -1, p.bands());
        double[][] coverage = coverage(perSample, kappa, p.bands());
        // Pass 2: each fold's series are replayed with the inflation learned on the other folds' series only (inner
        // cross-fit, docs/method.md §6): κ is part of the curve, so the distances that set it are never those of the
        // series that certify it. Those distances come from the other folds' models, which were fitted with this
        // fold's series among others; fully nested refits (no model that set κ saw the fold) would cost K(K − 1)/2
        // refits instead of K.
        return certify(
                model,
                train,
                folds,
                f -> inflation(held, f, p.bands()),
                new Inflation(kappa, coverage[0], coverage[1], folds.size()),
                variants,
                progress,
                threads);
    }

    /**
     * Holdout calibration (docs/guarantee.md, "Holdout calibration"): {@code model} was selected and fitted on {@code
     * fit} alone, and the series of {@code held} — never used for fitting or selection — are replayed through that
     * very model, so Learn-then-Test and conformal risk control certify the deployed model itself, not fold models.
     * The inflation κ is learned as in cross-fitting, but on {@code fit} only (K refits with the model's selection
     * fixed, pass 1 only): the certifying series never set it. The held-out coverage is measured on {@code held}.
     *
     * @param model trained on {@code fit}, with its {@code complete_series} section
     * @param fraction the share of the training series held out, stored in the section ({@link
     *     CalibrationSection#holdout})
     * @return one model per variant, in order, each {@code model} with its calibration section
     * @throws IllegalArgumentException when {@code held} is empty, the variants differ in what the replays depend on,
     *     or {@code fit} cannot be cross-fitted for κ
     */
    public static List<VigilModel> calibrateHoldout(
            VigilModel model,
            Dataset fit,
            Dataset held,
            EarlyModelTrainer.Params sections,
            List<CalibrationParams> variants,
            double fraction,
            Progress progress) {
        if (held.size() == 0) {
            throw new IllegalArgumentException("holdout calibration needs at least one held-out series");
        }
        requireSameReplays(variants);
        CalibrationParams p = variants.get(0);
        requireEstimator(model, p);
        int threads = Runtime.getRuntime().availableProcessors();
        List<CalibrationFolds.Fold> folds = CalibrationFolds.refitFolds(
                model,
                fit,
                CalibrationFolds.refitSections(model, sections, p),
                p,
                progress,
                threads,
                (sub, sec) -> CalibrationFolds.refit(model, sub, sec));
        List<HeldOutDistances> fitDistances =
                Parallel.map(folds, threads, "calibration", f -> CalibrationFolds.distances(f, fit, p.bands()));
        double[] kappa = inflation(fitDistances, -1, p.bands());
        // The held-out series through the deployed model, in as many chunks as threads (each its own estimator).
        int chunks = Math.max(1, Math.min(threads, held.size()));
        List<CalibrationFolds.Fold> replayed = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            int from = (int) ((long) c * held.size() / chunks);
            int to = (int) ((long) (c + 1) * held.size() / chunks);
            int[] part = new int[to - from];
            for (int i = from; i < to; i++) {
                part[i - from] = i;
            }
            replayed.add(new CalibrationFolds.Fold(part, model, EarlyClassifier.estimator(model, p.estimator())));
        }
        List<double[]> perSample = new ArrayList<>();
        for (CalibrationFolds.Fold f : replayed) {
            perSample.addAll(CalibrationFolds.distances(f, held, p.bands()).perSample());
        }
        double[][] coverage = coverage(perSample, kappa, p.bands());
        return certify(
                        model,
                        held,
                        replayed,
                        f -> kappa,
                        new Inflation(kappa, coverage[0], coverage[1], folds.size()),
                        variants,
                        progress,
                        threads)
                .stream()
                .map(m -> m.toBuilder()
                        .section(m.section(CalibrationSection.class)
                                .orElseThrow()
                                .withHoldout(fraction))
                        .build())
                .toList();
    }

    /** The stored inflation, the coverage before and after it, and the K of the folds that learned it. */
    private record Inflation(double[] kappa, double[] coverageBefore, double[] coverageAfter, int folds) {}

    private static void requireEstimator(VigilModel model, CalibrationParams p) {
        CompleteSeriesSection cs = model.section(CompleteSeriesSection.class)
                .orElseThrow(() -> new IllegalArgumentException("calibration needs the complete_series section"));
        if (!cs.available().contains(p.estimator())) {
            throw new IllegalArgumentException(
                    "calibration with --estimator " + p.estimator().id()
                            + " needs that complete-series estimator in the model, which holds only "
                            + cs.available().stream().map(e -> e.id()).toList());
        }
    }

    /** Held-out coverage before ([0]) and after ([1]) the inflation, at {@link #COVERAGE_TAUS}. */
    private static double[][] coverage(List<double[]> perSample, double[] kappa, int bands) {
        double[] before = new double[COVERAGE_TAUS.length];
        double[] after = new double[COVERAGE_TAUS.length];
        CalibrationFolds.coverage(perSample, kappa, bands, before, after);
        return new double[][] {before, after};
    }

    /**
     * Pass 2 and the certificates: every threshold's decisions, per rule and classifier, for the series of each of
     * {@code folds} (indices into {@code series}) replayed through the fold's model with the inflation {@code
     * replayKappa} gives for the fold; then each variant certified on the pooled replays.
     */
    private static List<VigilModel> certify(
            VigilModel model,
            Dataset series,
            List<CalibrationFolds.Fold> folds,
            IntFunction<double[]> replayKappa,
            Inflation stored,
            List<CalibrationParams> variants,
            Progress progress,
            int threads) {
        CalibrationParams p = variants.get(0);
        List<FoldReplays.CurveSpec> specs = new ArrayList<>();
        for (DecisionRule rule : p.rules()) {
            for (ClassifierKind kind : p.classifiers()) {
                boolean missingSvm = kind == ClassifierKind.LINEAR_SVM
                        && model.section(LinearSvmSection.class).isEmpty();
                if (missingSvm || (!kind.hasDiscriminants() && rule != DecisionRule.PROBABILITY)) {
                    continue;
                }
                specs.add(new FoldReplays.CurveSpec(new DecisionParams(0.5, p.set(), p.estimator(), kind, null, rule)));
            }
        }
        progress.extendBy(folds.size());
        List<Integer> foldIndex = new ArrayList<>();
        for (int f = 0; f < folds.size(); f++) {
            foldIndex.add(f);
        }
        List<List<List<FoldReplays.SeriesReplay>>> replays = Parallel.map(foldIndex, threads, "calibration", f -> {
            // A section holding only this fold's κ: its replay needs nothing else.
            CalibrationSection foldInflation = Certification.section(
                    Math.max(2, stored.folds()),
                    p,
                    replayKappa.apply(f),
                    List.of(),
                    Optional.empty(),
                    1,
                    Selection.NONE,
                    stored.coverageBefore(),
                    stored.coverageAfter());
            List<List<FoldReplays.SeriesReplay>> perCurve =
                    FoldReplays.replay(folds.get(f), series, foldInflation, specs, p.thresholds(), p.pattern());
            progress.step();
            return perCurve;
        });
        List<List<FoldReplays.SeriesReplay>> perCurve = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            List<FoldReplays.SeriesReplay> all = new ArrayList<>();
            for (List<List<FoldReplays.SeriesReplay>> fold : replays) {
                all.addAll(fold.get(c));
            }
            perCurve.add(all);
        }
        List<VigilModel> models = new ArrayList<>();
        for (CalibrationParams v : variants) {
            CalibrationSection done = Certification.certified(
                    stored.folds(),
                    v,
                    stored.kappa(),
                    specs,
                    perCurve,
                    stored.coverageBefore(),
                    stored.coverageAfter());
            models.add(model.toBuilder().section(done).build());
        }
        return models;
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
}
