package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;

/**
 * Finds local QDA's class Gaussians around a query that moves from sample to sample (the conditional mean m_y of
 * one series, thesis §5.6.1), reusing what the previous query computed. Every implementation returns bit-for-bit
 * the Gaussians of {@link LocalQda#classGaussians} — the same neighbour sets, summed in the same order — and only
 * differs in the work it skips: {@link LocalQda#fullSearch()} none, an {@link AnchorCache} what bounds about each
 * class centroid exclude, a {@link NeighborCache} what triangle-inequality
 * certificates exclude, a {@link DotTracker} what dot-product screening along the known steps of m_y excludes.
 *
 * <p>An instance other than the full search holds per-series state: one series, one thread at a time. It is
 * validated by what it stores, so it stays correct when the series restarts, is restored or is handed another
 * series (that only costs a recomputation).
 */
public interface ClassGaussianSearch {
    /**
     * The class Gaussians around {@code q}.
     *
     * @param q the query, length ℓ; not modified
     * @param step the index t of the step the query has just moved by, q = q_prev + p_t·e_t (the joint estimator's
     *     conditional mean, docs/method.md §3.1), or −1 when unknown; a hint, never trusted
     * @param innovation e_t (ignored when {@code step} &lt; 0)
     * @param ws a workspace of the search's model (per thread)
     * @param out receives the Gaussians; overwritten
     * @throws IllegalArgumentException on a query of the wrong length, or storage of another model or shape
     */
    void find(double[] q, int step, double innovation, Workspace ws, ClassGaussians out);

    /** The model whose Gaussians this search finds. */
    LocalQda model();

    /** Makes the searches of one model for new series (see {@link LocalQda#searches}). Thread-safe. */
    interface Factory {
        /** A fresh search for one series. */
        ClassGaussianSearch newSearch();
    }
}
