package io.vigil.research;

import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options the archive experiments ({@code experiment reliability}, {@code fig58}, {@code table54}, {@code
 * guarantee}, {@code teaser}) share, declared once ({@code @Mixin ArchiveOptions archive;}): the archive directory,
 * the datasets to run (default: every dataset directory in it), the output directory, the seed and JSON output.
 */
public final class ArchiveOptions {
    @Option(names = "--data", required = true, paramLabel = "DIR", description = "UCR archive directory.")
    Path dataDir;

    @Option(
            names = "--datasets",
            split = ",",
            paramLabel = "NAME",
            description = "Comma-separated datasets (default: every dataset directory under --data).")
    List<String> datasets;

    @Mixin
    OutOption out;

    @Mixin
    SeedOption seed;

    @Mixin
    JsonOption json;

    @Spec(Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    /** {@code --datasets}, or every dataset directory under {@code --data}, sorted. */
    List<String> names() throws IOException {
        return datasets != null ? datasets : DatasetFiles.datasetsUnder(dataDir);
    }

    /**
     * {@link #names()} for an experiment that needs at least one dataset.
     *
     * @throws CommandLine.ParameterException (a usage error) when there is none
     */
    List<String> requireNames() throws IOException {
        List<String> names = names();
        if (names.isEmpty()) {
            throw new CommandLine.ParameterException(command.commandLine(), "no datasets under " + dataDir);
        }
        return names;
    }

    /** The standard train/test split of one dataset of the archive. */
    TrainTest load(String name) throws IOException {
        return DatasetFiles.resolve(dataDir, name).load(ReadOptions.DEFAULT);
    }
}
