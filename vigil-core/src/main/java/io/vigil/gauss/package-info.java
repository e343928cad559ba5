/**
 * The complete-series model of reliable early classification (thesis §5.4, docs/method.md §3.1): Gaussian
 * ({@code joint}, eq. 5.19) and class-mixture ({@code gmm}, eq. 5.20) estimates of the conditional mean
 * and covariance of the LDG features {@code Y = BᵀX} of a complete series given its prefix
 * {@code x(1..t)}, updated incrementally per sample through the innovations form of the LDLᵀ
 * factorisation, with Ledoit–Wolf (or OAS) shrinkage covariances because n ≤ d is common. Each Gaussian is held
 * densely ({@link io.vigil.gauss.JointGaussian}) or, for long series, as a scaled identity plus a low-rank term with
 * a semiseparable LDLᵀ ({@link io.vigil.gauss.LowRankGaussian}, {@code SemiseparableLdl}): O(n·d)
 * memory, no d×d matrix anywhere ({@link io.vigil.gauss.CovarianceForm}).
 *
 * <p>Pure Java + EJML; nothing here knows about Flink, Kafka or the CLI.
 */
package io.vigil.gauss;
