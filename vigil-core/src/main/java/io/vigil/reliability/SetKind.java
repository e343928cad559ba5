package io.vigil.reliability;

import io.vigil.util.EnumNames;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * The four constructions of a set A with {@code P(Y ∈ A | z) ≥ τ} around the conditional mean m with conditional
 * covariance R (thesis §5.2). Every construction is "centre m, shape from R, radius from (ℓ, τ)": the ellipsoids are
 * {@code {y : (y−m)ᵀE⁻¹(y−m) ≤ r²}} and the box is {@code {y : |y_i − m_i| ≤ r·sqrt(R_ii)}}.
 *
 * <ul>
 *   <li>{@link #CHEBYSHEV} (5.3): E = R, r² = ℓ/(1−τ). Distribution-free (multivariate Chebyshev); the largest set.
 *   <li>{@link #NB_QUADRATIC} (5.4): E = diag(R), r² = χ²_ℓ quantile at τ. Exact mass τ when R is diagonal; with a
 *       correlated Gaussian the mass can fall below τ (the thesis calls the naive-Bayes assumption conservative; for
 *       the ellipsoid it is not — see {@code TauSetTest}).
 *   <li>{@link #NB_BOX} (5.5): per-coordinate interval {@code m_i ± r·sqrt(R_ii)} with Gaussian mass τ^{1/ℓ} each,
 *       i.e. r = Φ⁻¹((1+τ^{1/ℓ})/2). Mass ≥ τ for any Gaussian, correlated or not (Šidák's inequality).
 *   <li>{@link #GAUSSIAN}: E = R (full), r² = χ²_ℓ quantile at τ: the exact Gaussian τ-ellipsoid, which the thesis
 *       (after 5.4) calls non-trivial; it is not (docs/method.md §3.2).
 * </ul>
 *
 * <p>Radii use the nominal dimension ℓ even when R is singular (a coordinate known exactly): a rank-k Gaussian puts mass
 * {@code F_{χ²_k}(χ²_ℓ⁻¹(τ)) ≥ τ} in the ellipsoid because k ≤ ℓ, and the Chebyshev and Šidák bounds only improve, so
 * the sets stay valid, merely conservative. Radii are computed here without caching; {@link SetRadii} tabulates them.
 */
public enum SetKind {
    /** Multivariate Chebyshev ellipsoid (5.3), full R. */
    CHEBYSHEV("chebyshev", true),
    /** Naive-Bayes quadratic set (5.4): diagonal of R, chi-square radius. */
    NB_QUADRATIC("nb-quadratic", false),
    /** Naive-Bayes box (5.5): diagonal of R, per-coordinate Gaussian mass τ^{1/ℓ}. */
    NB_BOX("nb-box", false),
    /** Exact Gaussian τ-ellipsoid with the full R. */
    GAUSSIAN("gaussian", true);

    /**
     * Absolute accuracy requested from Hipparchus' inverse chi-square CDF (its default is 1e-9). The quantile of
     * interest is at least about 1e-6 for τ ≥ 1e-6 and is used as a radius²; 1e-13 keeps the relative error near
     * machine precision for quantiles of order 1–1000 without making the Brent solver fail to converge.
     */
    static final double CHI_SQUARE_QUANTILE_ACCURACY = 1e-13;

    private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution();

    private final String cliName;
    private final boolean fullCovariance;

    SetKind(String cliName, boolean fullCovariance) {
        this.cliName = cliName;
        this.fullCovariance = fullCovariance;
    }

    /** The name used on the command line: {@code chebyshev}, {@code nb-quadratic}, {@code nb-box}, {@code gaussian}. */
    public String cliName() {
        return cliName;
    }

    /** Whether the construction uses the full covariance R (true) or only its diagonal (false). */
    public boolean usesFullCovariance() {
        return fullCovariance;
    }

    /** Whether the set is a box (5.5) rather than an ellipsoid. */
    public boolean isBox() {
        return this == NB_BOX;
    }

    /**
     * Parses a command-line name.
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid ones
     */
    public static SetKind fromCliName(String name) {
        return EnumNames.parse(SetKind.class, name, SetKind::cliName, "set");
    }

    /**
     * The radius r of the set for dimension ℓ and mass τ (uncached): sqrt(ℓ/(1−τ)) for Chebyshev, sqrt of the χ²_ℓ
     * quantile at τ for the two chi-square ellipsoids, and the standard-normal quantile Φ⁻¹((1+τ^{1/ℓ})/2) for the box
     * (half-width in units of the conditional standard deviation).
     *
     * <p>Every radius is strictly increasing in τ (ℓ/(1−τ) obviously; a quantile function is increasing; τ^{1/ℓ} is
     * increasing), so the sets are nested in τ. This is what makes bisection on τ valid in {@link
     * ReliableDecisionRule#largestReliableTau}.
     *
     * @throws IllegalArgumentException unless 1 ≤ ℓ and 0 &lt; τ &lt; 1
     */
    public double radius(int ell, double tau) {
        checkArguments(ell, tau);
        switch (this) {
            case CHEBYSHEV:
                return Math.sqrt(ell / (1.0 - tau));
            case NB_QUADRATIC:
            case GAUSSIAN:
                return chiSquareRadius(ell, tau);
            case NB_BOX:
                // Two-sided tail mass per coordinate q = 1 − τ^{1/ℓ}, computed without cancellation for τ^{1/ℓ} ≈ 1.
                double q = -Math.expm1(Math.log(tau) / ell);
                return -STANDARD_NORMAL.inverseCumulativeProbability(0.5 * q);
            default:
                throw new IllegalStateException("unhandled set kind " + this);
        }
    }

    /**
     * sqrt of the χ²_ℓ quantile at τ. Closed forms for ℓ = 1 (a squared standard normal: Φ⁻¹((1+τ)/2)) and ℓ = 2
     * (an exponential with mean 2: −2 log(1−τ)) — for these the density is unbounded or large near 0, where a root
     * finder with an absolute tolerance in x would lose relative accuracy in τ; Hipparchus' inverse CDF otherwise.
     */
    private static double chiSquareRadius(int ell, double tau) {
        if (ell == 1) {
            return -STANDARD_NORMAL.inverseCumulativeProbability(0.5 * (1.0 - tau));
        }
        if (ell == 2) {
            return Math.sqrt(-2.0 * Math.log1p(-tau));
        }
        return Math.sqrt(
                new ChiSquaredDistribution(ell, CHI_SQUARE_QUANTILE_ACCURACY).inverseCumulativeProbability(tau));
    }

    static void checkArguments(int ell, double tau) {
        if (ell < 1) {
            throw new IllegalArgumentException("dimension must be at least 1, got " + ell);
        }
        if (!(tau > 0.0 && tau < 1.0)) {
            throw new IllegalArgumentException("tau must lie strictly between 0 and 1, got " + tau);
        }
    }
}
