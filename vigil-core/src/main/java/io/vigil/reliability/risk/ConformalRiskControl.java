package io.vigil.reliability.risk;

import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Conformal risk control (Angelopoulos, Bates, Fisch, Lei, Schuster 2022; docs/method.md §6): from n exchangeable
 * calibration series, the least conservative threshold λ̂ with (n·R̂_n(λ) + B)/(n + 1) ≤ α — equivalently
 * (n/(n + 1))·R̂_n(λ) + B/(n + 1) ≤ α — has E[risk(λ̂)] ≤ α on a new series, the expectation taken over the calibration
 * series too. B = 1 bounds the disagreement indicator.
 *
 * <p>The theorem needs each series' loss to be non-increasing as λ grows more conservative. Whether an early label
 * differs from the complete-series label is not (a later stop can change the label back and forth), so the counts
 * given here are of the monotonised loss L̃_i(λ_j) = max over j' ≥ j of L_i(λ_j'): a series counts at λ_j when it
 * disagrees at λ_j or any more conservative threshold. L̃ ≥ L, so E[L̃] ≤ α bounds E[L]. Beyond the most conservative
 * threshold the rule waits for t = d, where the loss is 0, so λ̂ always exists (it may be "never early").
 *
 * <p><b>The randomised form.</b> Every method also takes a draw U ∈ (0, 1] that replaces the bound B of the unseen
 * series' loss: λ̂ is the least conservative λ with (n·R̂_n(λ) + U)/(n + 1) ≤ α. U = 1 is the form above. With U drawn
 * uniformly, independently of the series, the expected risk is at most α — and equals α when no two series change
 * their loss at the same threshold — where U = 1 leaves up to 1/(n + 1) unused. Proof for the 0/1 monotonised losses
 * counted here (the smoothed conformal argument, Vovk, Gammerman &amp; Shafer 2005, §2.4): with c_i the first threshold
 * index at which series i stops disagreeing, λ̂ is the (n − r)-th smallest c_i of the n calibration series, where r =
 * ⌊α(n + 1) − U⌋ is how many may disagree; by exchangeability a new series exceeds it with probability at most (r +
 * 1)/(n + 1), and writing α(n + 1) = a + f (a an integer, f ∈ [0, 1)), r = a when U ≤ f and a − 1 otherwise, so
 * E[r + 1] = a + f = α(n + 1). The guarantee is then in expectation over the calibration series <em>and</em> U, so U
 * must be drawn afresh for every model (a draw fixed for everyone is not random: for some n it allows one disagreement
 * too many).
 *
 * <p><b>Where the draw alone would decide.</b> When α(n + 1) &lt; 1 (a = 0 above) not even a calibration set without a
 * disagreement certifies in the non-randomised form, and the randomised one certifies exactly when U ≤ f: whether the
 * model decides early then depends on the draw alone, not on the series. Such a certificate holds in expectation but
 * says nothing about this model, so nothing is certified there whatever U ({@link #drawDecides}); deciding at t = d
 * instead has loss 0, so the expected risk stays ≤ α. {@link #seriesForAnyCertificate} says how many series allow it.
 *
 * <p><b>Comparisons.</b> α arrives as 1 − τ in binary floating point (1 − 0.9 = 0.09999999999999998), so (k + U)/(n + 1)
 * ≤ α is tested as ≤ α + {@link #TOLERANCE}: the rounding error of 1 − τ and of the quotient is below 10⁻¹⁵, and a bound
 * within 10⁻¹² of α that is truly above it would need n &gt; 10¹¹ series or a draw U within 10⁻¹² of a value, which
 * a uniform draw hits with probability about 10⁻¹².
 *
 * <p><b>A reproducible draw ({@link #derivedDraw}).</b> {@code train} derives U from SHA-256 of {@code --seed} and the
 * fingerprint of the raw training data (itself SHA-256 of the files), so the same data, options and seed give the same
 * model. Why U stays independent of the calibration losses: the losses are a function of the training series (and
 * the seed); U is a hash of them that no step of training looks at, and SHA-256 behaves as a function chosen at
 * random independently of the data (the random-oracle model), under which U is uniform on its 2⁵³ values and
 * independent of every function of the data that does not evaluate the hash — the losses among them. Unlike a draw
 * from the seed alone it differs between training sets, so no training-set size gets one disagreement too many for
 * every model. What it does not survive is a search: re-training with other seeds (or a chosen {@code --crc-draw
 * U}) until τ is certified makes U depend on the losses, and the expected guarantee no longer holds.
 */
public final class ConformalRiskControl {
    /** The loss bound B of a disagreement indicator, and the draw U that gives the non-randomised form. */
    public static final double CONSERVATIVE = 1.0;

    /**
     * The reproducible draw U ∈ (0, 1] of a model (class comment, "A reproducible draw"): the first 53 bits of
     * SHA-256("vigil-crc-draw", seed, fingerprint), plus one, over 2⁵³.
     *
     * @param seed the training seed
     * @param fingerprint the training data's fingerprint ({@code sha256:<hex>})
     */
    public static double derivedDraw(long seed, String fingerprint) {
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
        sha.update("vigil-crc-draw\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sha.update(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(seed).array());
        sha.update(fingerprint.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        long bits = java.nio.ByteBuffer.wrap(sha.digest()).getLong() >>> 11;
        return (bits + 1) / (double) (1L << 53);
    }

    /** Absolute slack of the comparisons of a bound with α or δ (class comment, "Comparisons"). */
    public static final double TOLERANCE = 1e-12;

    private ConformalRiskControl() {}

    /**
     * The outcome for one α.
     *
     * @param index the chosen threshold index (the smallest one passing), or the most conservative index m−1 when
     *     none passes
     * @param certified whether threshold {@code index} passed
     * @param bound (n·R̂_n + U)/(n + 1) at {@code index}
     */
    public record Result(int index, boolean certified, double bound) {}

    /** {@link #certify(int, int[], double, double)} in the non-randomised form (U = B = 1). */
    public static Result certify(int n, int[] monotoneLosses, double alpha) {
        return certify(n, monotoneLosses, alpha, CONSERVATIVE);
    }

    /**
     * Chooses a threshold for risk level α.
     *
     * @param n calibration series (≥ 1)
     * @param monotoneLosses per threshold (ascending λ), how many of the n series have monotonised loss 1: they
     *     disagree with the complete-series label at this threshold or a more conservative one; non-increasing in the
     *     threshold index, each in 0..n
     * @param alpha the risk level 1 − τ, in (0, 1)
     * @param draw U in (0, 1]: 1 for the non-randomised form, uniform for the randomised one (class comment)
     */
    public static Result certify(int n, int[] monotoneLosses, double alpha, double draw) {
        check(n, alpha, draw);
        if (monotoneLosses.length == 0) {
            throw new IllegalArgumentException("risk control needs at least one threshold");
        }
        int m = monotoneLosses.length;
        for (int j = 0; j < m; j++) {
            int k = monotoneLosses[j];
            if (k < 0 || k > n || (j > 0 && k > monotoneLosses[j - 1])) {
                throw new IllegalArgumentException("monotonised losses must lie in 0.." + n
                        + " and not increase with the threshold; threshold " + j + " has " + k);
            }
        }
        int chosen = -1;
        for (int j = m - 1;
                j >= 0 && !drawDecides(n, alpha) && bound(n, monotoneLosses[j], draw) <= alpha + TOLERANCE;
                j--) {
            chosen = j;
        }
        return chosen < 0
                ? new Result(m - 1, false, bound(n, monotoneLosses[m - 1], draw))
                : new Result(chosen, true, bound(n, monotoneLosses[chosen], draw));
    }

    /** {@link #requiredReliability(int, double, double)} in the non-randomised form. */
    public static OptionalDouble requiredReliability(int n, double alpha) {
        return requiredReliability(n, alpha, CONSERVATIVE);
    }

    /**
     * The cross-fitted reliability a rule needs for α to be certified in expectation on n series: 1 − k/n for the
     * largest k with (k + U)/(n + 1) ≤ α; empty when even no disagreement does not pass (α &lt; U/(n + 1)).
     */
    public static OptionalDouble requiredReliability(int n, double alpha, double draw) {
        check(n, alpha, draw);
        int k = -1;
        while (k + 1 <= n && !drawDecides(n, alpha) && bound(n, k + 1, draw) <= alpha + TOLERANCE) {
            k++;
        }
        return k < 0 ? OptionalDouble.empty() : OptionalDouble.of(1 - (double) k / n);
    }

    /** {@link #seriesNeeded(double, double, int, int, double)} in the non-randomised form. */
    public static OptionalInt seriesNeeded(double rate, double alpha, int minSeries, int maxSeries) {
        return seriesNeeded(rate, alpha, minSeries, maxSeries, CONSERVATIVE);
    }

    /**
     * How many calibration series would certify α in expectation if the monotonised disagreement rate stayed at
     * {@code rate}: the smallest N in [{@code minSeries}, {@code maxSeries}] with (⌊rate·N⌋ + U)/(N + 1) ≤ α; empty
     * when the rate is not below α or N would exceed {@code maxSeries} (searched from above the replayed series, as
     * {@link LearnThenTest#seriesNeeded} says why).
     */
    public static OptionalInt seriesNeeded(double rate, double alpha, int minSeries, int maxSeries, double draw) {
        check(1, alpha, draw);
        if (!(rate >= 0) || rate >= alpha) {
            return OptionalInt.empty();
        }
        for (int n = Math.max(1, minSeries); n <= maxSeries; n++) {
            if (!drawDecides(n, alpha) && bound(n, (int) Math.floor(rate * n + 1e-9), draw) <= alpha + TOLERANCE) {
                return OptionalInt.of(n);
            }
        }
        return OptionalInt.empty();
    }

    /** The smallest α certifiable in expectation with n series in the non-randomised form: 1/(n + 1). */
    public static double smallestCertifiableAlpha(int n) {
        return smallestCertifiableAlpha(n, CONSERVATIVE);
    }

    /**
     * The smallest α certifiable in expectation with n series: 1/(n + 1) whatever the draw U, since below it the draw
     * alone would decide ({@link #drawDecides}).
     */
    public static double smallestCertifiableAlpha(int n, double draw) {
        checkDraw(draw);
        return 1.0 / (n + 1);
    }

    /**
     * Whether ⌊α(n + 1)⌋ = 0: with n series no calibration outcome certifies α except through the draw U, so nothing
     * is certified (class comment).
     */
    public static boolean drawDecides(int n, double alpha) {
        return alpha * (n + 1) + TOLERANCE * (n + 1) < 1;
    }

    /** The fewest calibration series n with ⌊α(n + 1)⌋ ≥ 1, the least that lets the series rather than U decide. */
    public static int seriesForAnyCertificate(double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("α must lie in (0, 1), got " + alpha);
        }
        int n = Math.max(1, (int) Math.ceil(1 / alpha) - 2);
        while (drawDecides(n, alpha)) {
            n++;
        }
        return n;
    }

    /** Rejects a draw outside (0, 1] (U = 0 would allow one disagreement too many whatever n). */
    public static void checkDraw(double draw) {
        if (!(draw > 0 && draw <= 1)) {
            throw new IllegalArgumentException("the conformal draw U must lie in (0, 1], got " + draw);
        }
    }

    private static double bound(int n, int losses, double draw) {
        return (losses + draw) / (n + 1);
    }

    private static void check(int n, double alpha, double draw) {
        checkDraw(draw);
        if (n < 1) {
            throw new IllegalArgumentException("risk control needs at least one calibration series, got " + n);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("α must lie in (0, 1), got " + alpha);
        }
    }
}
