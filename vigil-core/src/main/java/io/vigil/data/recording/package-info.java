/**
 * Continuous recordings and their labelled events (the layout of docs/recordings.md): a directory with one file per
 * recording (a header naming the channels, one row per sample, an optional {@code time}/{@code ts} column in ms) and
 * one events table {@code events.tsv} ({@code recording, start, end, label}, optional {@code split}). Readers name the
 * file, line and reason of every problem; the model objects are immutable.
 */
package io.vigil.data.recording;
