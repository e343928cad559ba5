/**
 * Seeded generators for the synthetic data sets of the UCR archive (CBF, SyntheticControl, TwoPatterns),
 * implemented from their published definitions so experiments and tests can create data of any size
 * without the archive.
 */
package io.vigil.data.synthetic;
