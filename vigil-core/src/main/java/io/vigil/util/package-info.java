/**
 * Small shared helpers with no domain knowledge: progress reporting ({@link io.vigil.util.Progress}, which long
 * operations take as an argument), deterministic parallel maps, percentiles, file trees, enum names and failure
 * messages.
 */
package io.vigil.util;
