/**
 * Watching endless streams: windows opened every S samples of a key are decided early as an event class or the
 * background class by the series-mode rule, window decisions become one alarm per event, and alarms are scored against
 * labelled events (docs/watch.md). Pure logic; the Flink job and the CLI adapt it.
 */
package io.vigil.watch;
