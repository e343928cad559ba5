package io.vigil.flink.cli;

import io.vigil.flink.LocalFlink;
import io.vigil.flink.PrometheusEndpoint;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --metrics-port PORT} of the commands that run an embedded Flink cluster: Prometheus scrapes the job's
 * metrics from 127.0.0.1:PORT ({@link PrometheusEndpoint}); opt-in, loopback only.
 */
public final class MetricsPortOption {
    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            description = "Serve the embedded job's metrics (Vigil's and Flink's) for Prometheus at "
                    + "http://127.0.0.1:PORT/metrics while it runs. Off by default; never on another address.")
    Integer port;

    /** The port asked for, or empty when off. */
    public OptionalInt port(CommandLine cl) {
        if (port == null) {
            return OptionalInt.empty();
        }
        if (port < 1 || port > 65_535) {
            throw new CommandLine.ParameterException(cl, "--metrics-port must be 1..65535, got " + port);
        }
        return OptionalInt.of(port);
    }

    /** The line that announces the endpoint, or null when it is off. */
    public String announcement() {
        return port == null ? null : "Prometheus metrics at http://" + LocalFlink.LOOPBACK + ":" + port + "/metrics";
    }
}
