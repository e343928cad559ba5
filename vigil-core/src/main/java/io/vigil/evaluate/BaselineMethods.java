package io.vigil.evaluate;

import io.vigil.data.Dataset;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The early-classification baselines {@code vigil evaluate --method ects|fixed-qda|fixed-1nn|teaser} runs, found
 * through {@link ServiceLoader}: the comparison methods live in the research module, which the product does not
 * depend on, and {@code vigil.jar} carries both.
 */
public interface BaselineMethods {
    /**
     * A baseline's settings as the user gave them; null means the method's default (or: chosen on the training
     * split).
     *
     * @param method not {@link EarlyMethod#VIGIL}
     * @param ectsSupport ECTS minimum support
     * @param fixedFraction fixed-time fraction of d
     * @param teaserPrefixes TEASER's number of prefix lengths S
     * @param teaserV TEASER's v
     * @param teaserMaster TEASER's master, by name
     */
    record Request(
            EarlyMethod method,
            Double ectsSupport,
            Double fixedFraction,
            Integer teaserPrefixes,
            Integer teaserV,
            String teaserMaster) {}

    /**
     * Refuses a baseline's own setting (null: not given) given with another method, naming both, e.g. "--ects-support
     * only applies to --method ects, not --method vigil".
     *
     * @throws IllegalArgumentException for the first such setting
     */
    static void checkSettings(
            EarlyMethod m,
            Double ectsSupport,
            Double fixedFraction,
            Integer teaserPrefixes,
            Integer teaserV,
            String teaserMaster) {
        onlyWith(m, ectsSupport, "--ects-support", EarlyMethod.ECTS);
        onlyWith(m, fixedFraction, "--fixed-fraction", EarlyMethod.FIXED_QDA, EarlyMethod.FIXED_1NN);
        onlyWith(m, teaserPrefixes, "--teaser-prefixes", EarlyMethod.TEASER);
        onlyWith(m, teaserV, "--teaser-v", EarlyMethod.TEASER);
        onlyWith(m, teaserMaster, "--teaser-master", EarlyMethod.TEASER);
    }

    private static void onlyWith(EarlyMethod m, Object value, String name, EarlyMethod... methods) {
        if (value == null || List.of(methods).contains(m)) {
            return;
        }
        StringBuilder names = new StringBuilder();
        for (EarlyMethod allowed : methods) {
            names.append(names.length() == 0 ? "" : " or ").append(allowed.cliName());
        }
        throw new IllegalArgumentException(
                name + " only applies to --method " + names + ", not --method " + m.cliName());
    }

    /** Checks a request before any data is read; the message names the flag. */
    void validate(Request request);

    /**
     * Trains the baseline on {@code train} (every parameter it chooses is chosen there) and evaluates it on
     * {@code test}, in the format of {@link EarlyEvaluation.Result}.
     *
     * @param curves whether to add the fixed-time baseline curves as {@code vigil} does
     */
    EarlyEvaluation.Result run(
            String dataset,
            VigilModel model,
            Dataset train,
            Dataset test,
            Request request,
            boolean curves,
            Progress progress);

    /** The provider on the class path, if any. */
    static Optional<BaselineMethods> find() {
        return ServiceLoader.load(BaselineMethods.class).findFirst();
    }
}
