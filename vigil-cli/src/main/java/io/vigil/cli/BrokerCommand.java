package io.vigil.cli;

import io.vigil.flink.cli.CommandLines;
import io.vigil.kafka.LoopbackKafka;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Exit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code vigil broker}: Apache Kafka (KRaft, one node) in the foreground on 127.0.0.1 — a Kafka for laptops with
 * no Docker. Prints {@code bootstrap: 127.0.0.1:PORT} on stdout once clients can connect, then runs until
 * SIGINT/SIGTERM, when it shuts Kafka down cleanly and exits 0.
 */
@Command(
        name = "broker",
        mixinStandardHelpOptions = true,
        description = {
            "Run Apache Kafka (KRaft, one combined broker+controller) in the foreground, listening on 127.0.0.1 only.",
            "Prints 'bootstrap: 127.0.0.1:PORT' on stdout when ready; Ctrl-C (SIGINT) or SIGTERM stops it cleanly."
        })
public final class BrokerCommand implements Callable<Integer> {
    /** Kafka's conventional client port, so tools that assume localhost:9092 work unchanged. */
    static final int DEFAULT_PORT = 9092;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--port",
            paramLabel = "P",
            defaultValue = "" + DEFAULT_PORT,
            description = "Client port on 127.0.0.1 (default ${DEFAULT-VALUE}; 0 picks a free port).")
    int port;

    @Option(
            names = "--dir",
            paramLabel = "D",
            description = "Storage directory kept across runs (created and formatted on first use); "
                    + "default: a temp directory deleted on exit.")
    Path dir;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "" + LoopbackKafka.Settings.DEFAULT_PARTITIONS,
            description = "Partitions of topics created automatically on first use (default ${DEFAULT-VALUE}).")
    int partitions;

    /** Exit status for the shutdown hook: 0 after a signal, Kafka's own status if Kafka exits the JVM. */
    private static volatile int exitStatus;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw CommandLines.usageError(spec, "--port must be in 0..65535, got " + port);
        }
        if (partitions < 1) {
            throw CommandLines.usageError(spec, "--partitions must be at least 1, got " + partitions);
        }
        LoopbackKafka kafka = LoopbackKafka.start(
                LoopbackKafka.Settings.defaults().withPort(port).withDir(dir).withDefaultPartitions(partitions));
        PrintWriter err = spec.commandLine().getErr();
        // A fatal Kafka error exits through Exit.exit: remember its status so the hook below does not turn it into 0.
        Exit.setExitProcedure((status, message) -> {
            exitStatus = status;
            System.exit(status);
        });
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(kafka, err, stopped), "vigil-broker-shutdown"));
        } catch (IllegalStateException shuttingDown) {
            // A signal came while Kafka started: the broker's own hook stops it and deletes its temp directory.
            return 0;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("bootstrap: " + kafka.bootstrapServers());
        out.flush();
        err.println("vigil broker: Kafka " + AppInfoParser.getVersion() + " (KRaft) ready in "
                + kafka.startupTime().toMillis() + " ms, data in " + kafka.dir()
                + (dir == null ? " (deleted on exit)" : "") + "; Ctrl-C to stop");
        err.flush();
        stopped.await();
        return 0;
    }

    /**
     * The shutdown hook: a clean Kafka shutdown, then {@code halt} with status 0 (the JVM would otherwise exit
     * 130/143 after SIGINT/SIGTERM, but a requested stop is success), Kafka's status when Kafka itself exited, or 1
     * when the shutdown failed.
     */
    private static void stop(LoopbackKafka kafka, PrintWriter err, CountDownLatch stopped) {
        int status = exitStatus;
        try {
            err.println("vigil broker: stopping");
            err.flush();
            kafka.close();
            err.println("vigil broker: stopped");
        } catch (RuntimeException e) {
            err.println("vigil broker: error while stopping Kafka: " + e.getMessage());
            status = VigilCli.EXIT_FAILURE;
        } finally {
            err.flush();
            stopped.countDown();
            Runtime.getRuntime().halt(status);
        }
    }
}
