package io.vigil.baseline;

import libsvm.svm;
import libsvm.svm_model;
import libsvm.svm_node;
import libsvm.svm_parameter;
import libsvm.svm_problem;

/**
 * The ν one-class SVM with a Gaussian kernel K(a, b) = exp(−γ‖a − b‖²) (Schölkopf, Platt, Shawe-Taylor, Smola &amp;
 * Williamson 2001), TEASER's master (Schäfer &amp; Leser 2020), as LIBSVM solves it (Chang &amp; Lin 2011, the
 * library TEASER's authors use): minimise ½ αᵀKα subject to 0 ≤ α<sub>i</sub> ≤ 1 and Σ α<sub>i</sub> = ν·l; the
 * decision value is Σ α<sub>i</sub> K(x<sub>i</sub>, x) − ρ and a point is accepted when it is positive.
 */
public final class OneClassSvm {
    /** LIBSVM's stopping tolerance ε on the KKT conditions (its default). */
    public static final double TOLERANCE = 1e-3;

    /** LIBSVM's kernel cache, MB (its default). */
    private static final double CACHE_MB = 100;

    static {
        // LIBSVM prints its optimisation trace on stdout unless told otherwise; stdout belongs to --json.
        svm.svm_set_print_string_function(s -> {});
    }

    private final svm_model model;
    private final int dim;

    private OneClassSvm(svm_model model, int dim) {
        this.model = model;
        this.dim = dim;
    }

    /**
     * Fits the one-class SVM.
     *
     * @param x l ≥ 1 points of one dimension (copied)
     * @param nu ν in (0, 1]: an upper bound on the fraction of training points rejected
     * @param gamma kernel width γ &gt; 0
     * @throws IllegalArgumentException on an empty or ragged x, or ν, γ out of range
     */
    public static OneClassSvm fit(double[][] x, double nu, double gamma) {
        int l = x.length;
        if (l == 0) {
            throw new IllegalArgumentException("a one-class SVM needs at least one training point");
        }
        if (!(nu > 0 && nu <= 1)) {
            throw new IllegalArgumentException("one-class SVM ν must lie in (0, 1], got " + nu);
        }
        if (!(gamma > 0) || Double.isInfinite(gamma)) {
            throw new IllegalArgumentException("one-class SVM γ must be positive and finite, got " + gamma);
        }
        int dim = x[0].length;
        svm_problem problem = new svm_problem();
        problem.l = l;
        problem.y = new double[l];
        problem.x = new svm_node[l][];
        for (int i = 0; i < l; i++) {
            if (x[i].length != dim) {
                throw new IllegalArgumentException(
                        "one-class SVM point " + i + " has " + x[i].length + " values but point 0 has " + dim);
            }
            problem.y[i] = 1;
            problem.x[i] = nodes(x[i]);
        }
        svm_parameter p = new svm_parameter();
        p.svm_type = svm_parameter.ONE_CLASS;
        p.kernel_type = svm_parameter.RBF;
        p.gamma = gamma;
        p.nu = nu;
        p.eps = TOLERANCE;
        p.cache_size = CACHE_MB;
        p.shrinking = 1;
        p.probability = 0;
        p.nr_weight = 0;
        p.weight_label = new int[0];
        p.weight = new double[0];
        String problemText = svm.svm_check_parameter(problem, p);
        if (problemText != null) {
            throw new IllegalArgumentException("one-class SVM: " + problemText);
        }
        return new OneClassSvm(svm.svm_train(problem, p), dim);
    }

    /** LIBSVM's 1-based sparse row; every coordinate is kept, so a zero is a zero and not a missing value. */
    private static svm_node[] nodes(double[] v) {
        svm_node[] out = new svm_node[v.length];
        for (int t = 0; t < v.length; t++) {
            out[t] = new svm_node();
            out[t].index = t + 1;
            out[t].value = v[t];
        }
        return out;
    }

    /**
     * The decision value Σ α<sub>i</sub> K(x<sub>i</sub>, q) − ρ.
     *
     * @throws IllegalArgumentException when q's dimension is not the training points'
     */
    public double decision(double[] q) {
        if (q.length != dim) {
            throw new IllegalArgumentException(
                    "one-class SVM query has " + q.length + " values but the model was fitted on " + dim);
        }
        double[] value = new double[1];
        svm.svm_predict_values(model, nodes(q), value);
        return value[0];
    }

    /** Whether q is accepted (decision value &gt; 0). */
    public boolean accepts(double[] q) {
        return decision(q) > 0;
    }

    /** The number of support vectors (α<sub>i</sub> &gt; 0); at least ν·l (Schölkopf et al. 2001, Prop. 4). */
    public int supportSize() {
        return model.l;
    }

    /** ρ, the offset of the decision function. */
    public double rho() {
        return model.rho[0];
    }
}
