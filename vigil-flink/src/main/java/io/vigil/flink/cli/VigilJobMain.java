package io.vigil.flink.cli;

/**
 * Entry point of {@code flink run target/vigil-flink-job.jar …} (the job jar's {@code Main-Class}): the flags of
 * {@code vigil run}, parsed by the same command, which builds {@link io.vigil.flink.VigilJob} on the cluster's
 * execution environment. Lives on the CLI side so that the job itself depends on no command-line types.
 */
public final class VigilJobMain {
    private VigilJobMain() {}

    /** Runs {@code vigil run} with {@code args}; exits with its code when it is not 0. */
    public static void main(String[] args) {
        int code = CommandLines.standalone(RunCommand.forCluster()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
