package io.vigil.flink.cli;

import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --dashboard [PORT]} of the commands that run the job embedded: Vigil's live dashboard (one page, updated
 * through server-sent events) on 127.0.0.1, opt-in.
 */
public final class DashboardOption {
    /** The port without a value. */
    static final int DEFAULT_PORT = 8088;

    @Option(
            names = "--dashboard",
            arity = "0..1",
            paramLabel = "PORT",
            fallbackValue = "" + DEFAULT_PORT,
            description = "Serve the live dashboard (counters, t/d, latency, the last decisions, one series drawn; "
                    + "for a watch job the alarms as they fire with keys, open windows and the flood guard's count) "
                    + "on 127.0.0.1:PORT (default port ${FALLBACK-VALUE}; 0 = any free port) while the embedded job "
                    + "runs; the address is printed. Off by default; never on another address.")
    Integer port;

    /** The port asked for, or empty when the dashboard is off. */
    public OptionalInt port(CommandLine cl) {
        if (port == null) {
            return OptionalInt.empty();
        }
        if (port < 0 || port > 65_535) {
            throw new CommandLine.ParameterException(cl, "--dashboard port must be in 0..65535, got " + port);
        }
        return OptionalInt.of(port);
    }
}
