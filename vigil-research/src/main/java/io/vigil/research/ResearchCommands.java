package io.vigil.research;

import io.vigil.cli.CommandProvider;
import java.util.List;

/** Registers {@code vigil experiment} and {@code vigil bench} into the CLI. */
public final class ResearchCommands implements CommandProvider {
    @Override
    public List<Object> commands() {
        return List.of(new ExperimentCommand(), new BenchCommand());
    }
}
