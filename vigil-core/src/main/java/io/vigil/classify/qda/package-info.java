/**
 * Local QDA (thesis §2.1.2, §5.6.1; docs/method.md §2 and §3.4): diagonal class Gaussians from the k nearest
 * training points of each class, and the per-series searches that refit them around a moving conditional mean exactly
 * but cheaply. {@link io.vigil.classify.qda.LocalQda} is the entry point; the searches are used through {@link
 * io.vigil.early.EarlyClassifier}.
 */
package io.vigil.classify.qda;
