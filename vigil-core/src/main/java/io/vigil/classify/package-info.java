/**
 * Point classifiers in LDG space besides local QDA: the thesis's 3-NN ({@link io.vigil.classify.Knn}) and the
 * one-vs-rest linear SVM of the reliable rule ({@link io.vigil.classify.LinearSvm}, LIBLINEAR). Local QDA itself is in
 * {@code io.vigil.classify.qda}.
 */
package io.vigil.classify;
