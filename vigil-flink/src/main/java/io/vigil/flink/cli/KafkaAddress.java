package io.vigil.flink.cli;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import picocli.CommandLine;

/**
 * One Kafka address per command: {@code --bootstrap} and a {@code bootstrap.servers} client property (from a
 * properties file or a job file's {@code kafka:} map) must name the same brokers, or the preflight checks one
 * cluster while the job talks to another. Addresses compare as sets of trimmed {@code host:port} entries, so
 * order and spacing do not matter.
 */
public final class KafkaAddress {
    /** The client property that names the brokers. */
    static final String PROPERTY = "bootstrap.servers";

    private KafkaAddress() {}

    /** The trimmed, non-empty {@code host:port} entries of a comma-separated list, host names in lower case. */
    static Set<String> servers(String list) {
        return Arrays.stream(list.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(s -> s.toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Refuses properties whose {@value #PROPERTY} names other brokers than {@code bootstrap}.
     *
     * @param bootstrapOrigin where {@code bootstrap} came from, e.g. {@code --bootstrap}
     * @param properties client properties (without {@value #PROPERTY}: nothing to check)
     * @param propertiesOrigin where the properties came from, e.g. {@code --config kafka.properties}
     * @throws CommandLine.ParameterException (exit 2) naming both values and where each came from
     */
    public static void requireSame(
            CommandLine cl,
            String bootstrap,
            String bootstrapOrigin,
            Map<String, ?> properties,
            String propertiesOrigin) {
        Object other = properties.get(PROPERTY);
        if (bootstrap == null || other == null) {
            return;
        }
        if (!servers(bootstrap).equals(servers(String.valueOf(other)))) {
            throw new CommandLine.ParameterException(
                    cl,
                    "two Kafka addresses: " + bootstrapOrigin + " " + bootstrap + " but " + PROPERTY + "=" + other
                            + " in " + propertiesOrigin + "; a job talks to one cluster: remove " + PROPERTY
                            + " from " + propertiesOrigin + " or give the same address in both");
        }
    }
}
