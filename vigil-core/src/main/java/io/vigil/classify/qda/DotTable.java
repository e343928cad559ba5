package io.vigil.classify.qda;

/**
 * The table T[t][i] = p_t·y_i of a known sequence of query steps p_0..p_{d−1} against every training point y_i,
 * for {@link DotTracker}s (thesis §5.6.1; docs/method.md §3.1: for the joint estimator the conditional mean moves as
 * m_y(t+1) = m_y(t) + p_t·e_t with p_t = (BᵀL)[:, t]). Built once, O(d·n·ℓ); immutable and shared by every series.
 * Memory 8·d·n bytes (8 MB at d = 1,024, n = 1,000) plus 16·n + 8·d·(ℓ + 1) for the norms and gains.
 */
final class DotTable {
    /**
     * Most doubles a table may hold, d·n ≤ 2²⁴ (128 MB): beyond that {@link LocalQda#fitsDotTable} is false and the
     * early classifier keeps a {@link NeighborCache}. The benchmark's table (d = 1,024, n = 1,000) is 8 MB.
     */
    static final long MAX_DOUBLES = 1L << 24;

    static final double UNIT_ROUNDOFF = 0x1p-53;

    final LocalQda owner;
    final int steps;
    /** Row t (length n, classes concatenated in class order, points in class order) = p_t·y_i. */
    final double[] table;
    /** ‖p_t‖, rounded up. */
    final double[] gainNorms;
    /** ‖y_i‖², classes concatenated. */
    final double[] squaredNorms;
    /** max_i ‖y_i‖, rounded up. */
    final double maxNorm;
    /** The gains p_t, row-major d × ℓ, for the step residual. */
    final double[] gains;

    DotTable(LocalQda owner, double[][] gains) {
        this.owner = owner;
        ClassPoints p = owner.points;
        int dim = p.dim;
        int n = owner.size();
        this.steps = gains.length;
        this.squaredNorms = new double[n];
        double max = 0;
        for (int g = 0; g < p.numClasses; g++) {
            double[] pts = p.rows[g];
            for (int i = 0; i < p.sizes[g]; i++) {
                double s = 0;
                for (int t = 0; t < dim; t++) {
                    s += pts[i * dim + t] * pts[i * dim + t];
                }
                squaredNorms[p.offsets[g] + i] = s;
                max = Math.max(max, s);
            }
        }
        this.maxNorm = Math.sqrt(max) * (1 + 4 * dim * UNIT_ROUNDOFF);
        this.table = new double[steps * n];
        this.gainNorms = new double[steps];
        this.gains = new double[steps * dim];
        for (int s = 0; s < steps; s++) {
            double[] row = gains[s];
            if (row.length != dim) {
                throw new IllegalArgumentException(
                        "local QDA: gain " + s + " has length " + row.length + ", model has dimension " + dim);
            }
            double pp = 0;
            for (int t = 0; t < dim; t++) {
                if (!Double.isFinite(row[t])) {
                    throw new IllegalArgumentException("local QDA: gain " + s + " is not finite");
                }
                pp += row[t] * row[t];
            }
            gainNorms[s] = Math.sqrt(pp) * (1 + 4 * dim * UNIT_ROUNDOFF);
            System.arraycopy(row, 0, this.gains, s * dim, dim);
            int base0 = s * n;
            for (int g = 0; g < p.numClasses; g++) {
                int ng = p.sizes[g];
                double[] byDim = p.byDim[g];
                int base = base0 + p.offsets[g];
                for (int t = 0; t < dim; t++) {
                    double pt = row[t];
                    int col = t * ng;
                    for (int i = 0; i < ng; i++) {
                        table[base + i] += pt * byDim[col + i];
                    }
                }
            }
        }
    }

    /** Number of steps d (rows). */
    public int steps() {
        return steps;
    }

    /** The model whose training points the table holds products with. */
    public LocalQda model() {
        return owner;
    }
}
