/**
 * Time-series datasets and their files: the UCR/UEA text formats, {@code .ts} and ARFF readers (gzip aware, every
 * error naming the file, line and reason), the writer, and the splits and folds training uses. An embedder reads data
 * with {@link io.vigil.data.DatasetReader} (options in {@link io.vigil.data.ReadOptions}) or builds a {@link
 * io.vigil.data.Dataset} directly, and describes how a stream will observe series with {@link
 * io.vigil.data.ObservationPattern}.
 */
package io.vigil.data;
