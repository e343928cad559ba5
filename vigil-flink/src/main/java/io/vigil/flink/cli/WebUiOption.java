package io.vigil.flink.cli;

import io.vigil.flink.LocalFlink;
import java.util.OptionalInt;
import picocli.CommandLine.Option;

/** {@code --web-ui [PORT]} of the commands that run an embedded Flink cluster: the web UI is opt-in, loopback only. */
public final class WebUiOption {
    @Option(
            names = "--web-ui",
            arity = "0..1",
            paramLabel = "PORT",
            fallbackValue = "" + LocalFlink.DEFAULT_WEB_UI_PORT,
            description = "Serve Flink's web UI on 127.0.0.1:PORT (default port ${FALLBACK-VALUE}) while the embedded "
                    + "job runs. Off by default; never on another address.")
    Integer port;

    /** The port asked for, or empty when the web UI is off. */
    public OptionalInt port() {
        return port == null ? OptionalInt.empty() : OptionalInt.of(port);
    }

    /** The line that announces the UI, or null when it is off. */
    public String announcement() {
        return port == null ? null : "Flink web UI at http://" + LocalFlink.LOOPBACK + ":" + port + "/";
    }
}
