package io.vigil.baseline;

/**
 * The ν one-class SVM with a Gaussian kernel K(a, b) = exp(−γ‖a − b‖²) (Schölkopf, Platt, Shawe-Taylor, Smola &amp;
 * Williamson 2001), TEASER's master (Schäfer &amp; Leser 2020). Dual, in LIBSVM's scaling (Chang &amp; Lin
 * 2011, one-class SVM): minimise ½ αᵀKα subject to 0 ≤ α_i ≤ 1 and Σ α_i = ν·l; the decision value is Σ α_i K(x_i, x) − ρ
 * and a point is accepted when it is positive. Solved by SMO on the maximal violating pair (Keerthi et al. 2001):
 * with gradient G = Kα, the pair i = argmin{G_i : α_i &lt; 1}, j = argmax{G_j : α_j &gt; 0} moves mass from j to i
 * until G_j − G_i &lt; {@link #TOLERANCE}; ρ is the mean gradient over free α_i (by the KKT conditions G_i = ρ
 * there), else the midpoint of the interval the bounded ones allow.
 */
public final class OneClassSvm {
    /** Stopping tolerance on the maximal KKT violation (LIBSVM's default ε). */
    public static final double TOLERANCE = 1e-3;

    private static final int MAX_ITERATIONS = 100_000;

    private final double[][] support;
    private final double[] alpha;
    private final double rho;
    private final double gamma;

    private OneClassSvm(double[][] support, double[] alpha, double rho, double gamma) {
        this.support = support;
        this.alpha = alpha;
        this.rho = rho;
        this.gamma = gamma;
    }

    /**
     * Fits the one-class SVM.
     *
     * @param x l ≥ 1 points of one dimension (not copied beyond the support vectors kept)
     * @param nu ν in (0, 1]: an upper bound on the fraction of training points rejected
     * @param gamma kernel width γ &gt; 0
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
        double[][] k = new double[l][l];
        for (int i = 0; i < l; i++) {
            k[i][i] = 1;
            for (int j = i + 1; j < l; j++) {
                k[i][j] = kernel(x[i], x[j], gamma);
                k[j][i] = k[i][j];
            }
        }
        double[] a = new double[l];
        double mass = nu * l;
        int whole = (int) Math.min(l, Math.floor(mass));
        for (int i = 0; i < whole; i++) {
            a[i] = 1;
        }
        if (whole < l) {
            a[whole] = mass - whole;
        }
        double[] g = new double[l];
        for (int i = 0; i < l; i++) {
            for (int j = 0; j < l; j++) {
                g[i] += k[i][j] * a[j];
            }
        }
        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            int up = -1;
            int low = -1;
            for (int t = 0; t < l; t++) {
                if (a[t] < 1 && (up < 0 || g[t] < g[up])) {
                    up = t;
                }
                if (a[t] > 0 && (low < 0 || g[t] > g[low])) {
                    low = t;
                }
            }
            if (up < 0 || low < 0 || g[low] - g[up] < TOLERANCE) {
                break;
            }
            double curvature = Math.max(k[up][up] + k[low][low] - 2 * k[up][low], 1e-12);
            double step = Math.min((g[low] - g[up]) / curvature, Math.min(1 - a[up], a[low]));
            a[up] += step;
            a[low] -= step;
            for (int t = 0; t < l; t++) {
                g[t] += step * (k[t][up] - k[t][low]);
            }
        }
        double rho = rho(a, g);
        int count = 0;
        for (double v : a) {
            count += v > 0 ? 1 : 0;
        }
        double[][] sv = new double[count][];
        double[] coef = new double[count];
        int c = 0;
        for (int i = 0; i < l; i++) {
            if (a[i] > 0) {
                sv[c] = x[i].clone();
                coef[c++] = a[i];
            }
        }
        return new OneClassSvm(sv, coef, rho, gamma);
    }

    private static double rho(double[] a, double[] g) {
        double sum = 0;
        int free = 0;
        double atUpper = Double.NEGATIVE_INFINITY;
        double atZero = Double.POSITIVE_INFINITY;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 0 && a[i] < 1) {
                sum += g[i];
                free++;
            } else if (a[i] >= 1) {
                atUpper = Math.max(atUpper, g[i]);
            } else {
                atZero = Math.min(atZero, g[i]);
            }
        }
        if (free > 0) {
            return sum / free;
        }
        if (Double.isInfinite(atUpper)) {
            return atZero;
        }
        return Double.isInfinite(atZero) ? atUpper : (atUpper + atZero) / 2;
    }

    /** The decision value Σ α_i K(x_i, q) − ρ. */
    public double decision(double[] q) {
        double s = 0;
        for (int i = 0; i < support.length; i++) {
            s += alpha[i] * kernel(support[i], q, gamma);
        }
        return s - rho;
    }

    /** Whether q is accepted (decision value &gt; 0). */
    public boolean accepts(double[] q) {
        return decision(q) > 0;
    }

    /** The number of support vectors (α_i &gt; 0); at least ν·l (Schölkopf et al. 2001, Prop. 4). */
    public int supportSize() {
        return support.length;
    }

    /** ρ, the offset of the decision function. */
    public double rho() {
        return rho;
    }

    private static double kernel(double[] a, double[] b, double gamma) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            double diff = a[t] - b[t];
            s += diff * diff;
        }
        return Math.exp(-gamma * s);
    }
}
