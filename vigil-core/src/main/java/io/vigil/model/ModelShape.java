package io.vigil.model;

/**
 * The core sizes of a model that every section must agree with: series length d, LDG dimension ℓ, number of
 * classes G and training size n. Passed to {@link ModelSection#checkShape} and to the section codecs when a file is read.
 *
 * @param length series length d
 * @param dims LDG dimension ℓ
 * @param numClasses G
 * @param trainSize n
 */
public record ModelShape(int length, int dims, int numClasses, int trainSize) {}
