package io.vigil.cli;

import java.util.List;

/**
 * Adds subcommands to {@code vigil} from another module, found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.vigil.cli.CommandProvider}): how the research module registers {@code vigil
 * experiment} and {@code vigil bench} without the product depending on it.
 */
public interface CommandProvider {
    /** New instances of picocli command objects ({@code @Command}-annotated), in the order help lists them. */
    List<Object> commands();
}
