package io.vigil.experiment;

import io.vigil.baseline.Teaser;
import io.vigil.data.Dataset;
import io.vigil.evaluate.BaselineMethods;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;

/** {@link BaselineMethods} for {@code vigil evaluate --method}: ECTS, the fixed-time classifiers and TEASER. */
public final class ResearchBaselines implements BaselineMethods {
    @Override
    public void validate(Request request) {
        settings(request);
    }

    @Override
    public EarlyEvaluation.Result run(
            String dataset,
            VigilModel model,
            Dataset train,
            Dataset test,
            Request request,
            boolean curves,
            Progress progress) {
        return BaselineEvaluation.run(dataset, model, train, test, settings(request), curves, progress);
    }

    /** The settings of a request, defaults filled in; the messages name the flags of {@code vigil evaluate}. */
    static BaselineEvaluation.Settings settings(Request r) {
        BaselineEvaluation.Settings defaults = BaselineEvaluation.Settings.defaults(r.method());
        Teaser.Master master;
        try {
            master = r.teaserMaster() == null ? defaults.teaserMaster() : Teaser.Master.parse(r.teaserMaster());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--teaser-master: " + e.getMessage(), e);
        }
        BaselineEvaluation.Settings settings = new BaselineEvaluation.Settings(
                r.method(),
                r.ectsSupport() == null ? defaults.ectsSupport() : r.ectsSupport(),
                r.fixedFraction() == null ? defaults.fixedFraction() : r.fixedFraction(),
                r.teaserPrefixes() == null ? defaults.teaserPrefixes() : r.teaserPrefixes(),
                r.teaserV() == null ? defaults.teaserV() : r.teaserV(),
                master);
        if (!(settings.ectsSupport() >= 0 && settings.ectsSupport() <= 1)) {
            throw new IllegalArgumentException("--ects-support must lie in [0, 1], got " + settings.ectsSupport());
        }
        if (r.fixedFraction() != null && !(r.fixedFraction() > 0 && r.fixedFraction() <= 1)) {
            throw new IllegalArgumentException("--fixed-fraction must lie in (0, 1], got " + r.fixedFraction());
        }
        if (settings.teaserPrefixes() < 1) {
            throw new IllegalArgumentException(
                    "--teaser-prefixes must be at least 1, got " + settings.teaserPrefixes());
        }
        if (r.teaserV() != null && (r.teaserV() < 1 || r.teaserV() > Teaser.MAX_V)) {
            throw new IllegalArgumentException("--teaser-v must lie in 1.." + Teaser.MAX_V + ", got " + r.teaserV());
        }
        return settings;
    }
}
