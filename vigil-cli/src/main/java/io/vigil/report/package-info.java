/**
 * The report {@code vigil evaluate --report} writes: the Markdown summary, the per-decision CSV and the XChart plots
 * (decision time against reliability and against accuracy, the reliability diagram, HM against τ).
 */
package io.vigil.report;
