/**
 * Early time-series classifiers Vigil is compared with: ECTS (Xing, Pei &amp; Yu 2012; thesis §5.5.1),
 * fixed-time classifiers at a prefix length chosen on the training split, and TEASER (Schäfer &amp; Leser 2020) with
 * Vigil's own 1-NN slaves. Each produces, per series, an early decision (label, t) so {@code vigil evaluate} can
 * report all methods in one format. Pure numerical code on top of data, classify, ldg and util: no Flink, Kafka or
 * CLI types.
 */
package io.vigil.baseline;
