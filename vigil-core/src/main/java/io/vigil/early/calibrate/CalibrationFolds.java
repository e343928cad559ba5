package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.early.DecisionStride;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.ldg.Standardizer;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.select.Reducer;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;

/**
 * The folds of a {@link CrossFitCalibrator} run (docs/method.md §5): the stratified (for windows: grouped by recording)
 * split of the training series, the
 * model refitted without each fold, and pass 1 — each held-out series' squared Mahalanobis distances from its
 * conditional mean, which set the variance inflation κ, and the coverage of the Gaussian τ-sets before and after it.
 */
final class CalibrationFolds {
    private CalibrationFolds() {}

    /**
     * A fold: its held-out series, the model refitted without them and that model's complete-series estimator of
     * {@link CalibrationParams#estimator} (built once and shared by both passes and every replayed rule).
     */
    record Fold(int[] heldOut, VigilModel model, CompleteSeriesEstimator estimator) {}

    /**
     * What the folds refit: the calibrated complete-series estimator only (the replays use no other), and the linear
     * SVM only when a linear-SVM curve will be replayed.
     */
    static EarlyModelTrainer.Params refitSections(
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
     * series stay in. Grouped series (the windows of a window model, grouped by recording) are split by {@link
     * Folds#groupedKFold}, so no recording lies on both sides of a fold and every held-out window is replayed by a
     * fold model that saw none of its recording.
     */
    static List<Fold> refitFolds(
            VigilModel model,
            Dataset train,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress,
            int threads,
            CrossFitCalibrator.Refit refit) {
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
        int[][] parts = train.hasGroups()
                ? Folds.groupedKFold(y, g, train.groups(), k, p.seed())
                : Folds.stratifiedKFold(y, g, k, p.seed());
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
    static CrossFitCalibrator.HeldOutDistances distances(Fold f, Dataset train, int bands) {
        VigilModel m = f.model();
        CompleteSeriesEstimator est = f.estimator();
        int ell = m.dims();
        int d = m.length();
        int stride = DecisionStride.of(d);
        ChiSquaredDistribution chi = new ChiSquaredDistribution(ell);
        double ref = chi.inverseCumulativeProbability(CrossFitCalibrator.INFLATION_QUANTILE);
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
        return new CrossFitCalibrator.HeldOutDistances(ratios, perSample);
    }

    /** Held-out coverage of the Gaussian τ-set {D² ≤ χ²_ℓ(τ)} with R_y as fitted and with R_y inflated by κ. */
    static void coverage(List<double[]> perSample, double[] kappa, int bands, double[] beforeOut, double[] afterOut) {
        Map<Integer, double[]> quantiles = new HashMap<>();
        int[] inBefore = new int[CrossFitCalibrator.COVERAGE_TAUS.length];
        int[] inAfter = new int[CrossFitCalibrator.COVERAGE_TAUS.length];
        for (double[] s : perSample) {
            int band = (int) s[0];
            double d2 = s[1];
            double[] q = quantiles.computeIfAbsent((int) s[2], ell -> {
                ChiSquaredDistribution chi = new ChiSquaredDistribution(ell);
                return Arrays.stream(CrossFitCalibrator.COVERAGE_TAUS)
                        .map(chi::inverseCumulativeProbability)
                        .toArray();
            });
            for (int k = 0; k < q.length; k++) {
                inBefore[k] += d2 <= q[k] ? 1 : 0;
                inAfter[k] += d2 / kappa[band] <= q[k] ? 1 : 0;
            }
        }
        int n = Math.max(1, perSample.size());
        for (int k = 0; k < CrossFitCalibrator.COVERAGE_TAUS.length; k++) {
            beforeOut[k] = (double) inBefore[k] / n;
            afterOut[k] = (double) inAfter[k] / n;
        }
    }
}
