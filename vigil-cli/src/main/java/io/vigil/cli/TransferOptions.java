package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.data.DatasetFiles;
import io.vigil.data.DatasetReader;
import io.vigil.data.ReadOptions;
import io.vigil.select.Reducer;
import io.vigil.select.TrainParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}'s transfer LDG options (thesis chapter 4): the labelled source domain, read like the target's
 * training split ({@code --source-data DIR --source-dataset NAME}, or {@code --source-data FILE}), and a fixed α.
 */
public final class TransferOptions {
    @Option(
            names = "--source-data",
            paramLabel = "DIR|FILE",
            description = "Transfer LDG's source domain: an archive directory (with --source-dataset; its training "
                    + "split is used) or one labelled file, series of the target's length and classes.")
    Path sourceData;

    @Option(names = "--source-dataset", paramLabel = "NAME", description = "Source data set name under --source-data.")
    String sourceDataset;

    @Option(
            names = "--alpha",
            paramLabel = "A",
            description = "Fix transfer LDG's source weight alpha in [0, 1] (default: 3-NN CV on the target series "
                    + "over 0, 0.1, 0.3, 0.5 at gamma = 0.9, thesis 4.5.2).")
    Double alpha;

    /** Applies {@code --alpha}; usage errors for source options without {@code --reducer transfer-ldg}. */
    TrainParams.Builder applyTo(TrainParams.Builder b, Reducer reducer) {
        boolean transfer = reducer == Reducer.TRANSFER_LDG;
        if (!transfer && (sourceData != null || sourceDataset != null)) {
            throw new IllegalArgumentException(
                    "--source-data and --source-dataset apply to --reducer transfer-ldg only");
        }
        if (transfer && sourceData == null) {
            throw new IllegalArgumentException(
                    "--reducer transfer-ldg needs a source domain: --source-data DIR --source-dataset NAME, or "
                            + "--source-data FILE");
        }
        if (sourceData != null && sourceDataset == null && Files.isDirectory(sourceData)) {
            throw new IllegalArgumentException("--source-data " + sourceData + " is a directory: give "
                    + "--source-dataset NAME, or a labelled file");
        }
        return alpha == null ? b : b.alpha(alpha);
    }

    /** The source domain's series (the training split under an archive directory). */
    Dataset load(ReadOptions options) throws IOException {
        Path file = sourceDataset == null
                ? sourceData
                : DatasetFiles.resolve(sourceData, sourceDataset).train();
        Dataset ds = DatasetReader.read(file, options);
        String name = sourceDataset != null ? sourceDataset : DatasetReader.datasetName(file);
        return ds.name().equals(name)
                ? ds
                : Dataset.of(name, ds.rows(), ds.classIndices(), ds.classNames())
                        .withChannels(ds.channelNames());
    }
}
