package io.vigil.research;

import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options the thesis's re-split protocols ({@code experiment table33}, {@code table34}, {@code table35} and
 * {@code transfer}) share, declared once ({@code @Mixin ResplitOptions resplit;}): the archive directory, the output
 * directory, the base seed of the random splits, how many splits run in parallel, and JSON output.
 */
public final class ResplitOptions {
    @Option(names = "--data", required = true, paramLabel = "DIR", description = "UCR archive directory.")
    Path dataDir;

    @Mixin
    OutOption out;

    @Mixin
    SeedOption seed;

    @Option(
            names = "--threads",
            defaultValue = "2",
            paramLabel = "N",
            description = "Splits run in parallel (default: ${DEFAULT-VALUE}); results do not depend on it.")
    int threads;

    @Mixin
    JsonOption json;

    /** The standard train/test split of one dataset of the archive. */
    TrainTest load(String name) throws IOException {
        return DatasetFiles.resolve(dataDir, name).load(ReadOptions.DEFAULT);
    }
}
