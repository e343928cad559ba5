package io.vigil.evaluate;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LdgParams;
import io.vigil.ldg.Standardizer;

/**
 * The two per-prefix classifiers of the fixed-time baselines (thesis §5.6.5): Euclidean 1-NN on the raw prefixes,
 * and local QDA in an LDG space refitted on the prefixes with a trained model's settings (ℓ capped at t).
 */
public final class PrefixClassifiers {
    /** Name of the local-QDA prefix classifier in reports. */
    public static final String LOCAL_QDA = "fixed-time local QDA";

    /** Name of the 1-NN prefix classifier in reports. */
    public static final String ONE_NN = "fixed-time 1-NN";

    private PrefixClassifiers() {}

    /**
     * The LDG and local-QDA settings a prefix refit uses (those of the trained model).
     *
     * @param ldgNeighbors LDG neighbour count
     * @param gamma LDG γ
     * @param dims ℓ, capped at t and at the basis rank
     * @param qdaNeighbors local-QDA k
     * @param standardize whether features are standardised on the training prefixes first
     */
    public record LdgQdaSettings(int ldgNeighbors, double gamma, int dims, int qdaNeighbors, boolean standardize) {}

    /** Euclidean 1-NN on the raw prefixes. */
    public static PrefixClassifier oneNn() {
        return (train, y, numClasses, test) -> Knn.fit(train, y, numClasses).predictAll(test, 1);
    }

    /** Local QDA in an LDG space fitted on the prefixes with {@code s}. */
    public static PrefixClassifier localQda(LdgQdaSettings s) {
        return (train, y, numClasses, test) -> {
            double[][] tr = train;
            double[][] te = test;
            if (s.standardize()) {
                Standardizer std = Standardizer.fit(train);
                tr = std.apply(train);
                te = std.apply(test);
            }
            int t = train[0].length;
            LdgBasis basis = Ldg.fit(tr, y, numClasses, new LdgParams(s.ldgNeighbors(), s.gamma()));
            int dims = Math.min(Math.min(s.dims(), t), basis.rank());
            LocalQda qda = LocalQda.fit(basis.project(tr, dims), y, numClasses, s.qdaNeighbors());
            LocalQda.Workspace ws = qda.newWorkspace();
            double[][] q = basis.project(te, dims);
            int[] out = new int[te.length];
            for (int i = 0; i < te.length; i++) {
                out[i] = qda.predict(q[i], ws);
            }
            return out;
        };
    }
}
