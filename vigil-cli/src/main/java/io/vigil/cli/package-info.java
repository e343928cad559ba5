/**
 * The {@code vigil} command line: the product commands (generate, train, classify, evaluate, inspect, broker,
 * replay, publish-model, demo) and their option mixins; further commands are found through {@link
 * io.vigil.cli.CommandProvider}.
 */
package io.vigil.cli;
