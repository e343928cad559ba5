package io.vigil.flink;

import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.prometheus.AbstractPrometheusReporter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * The Prometheus scrape endpoint of an embedded cluster ({@code --metrics-port}): every Flink metric of the cluster's
 * jobs, Vigil's operator metrics included, in Prometheus's text format at {@code http://127.0.0.1:PORT/metrics}.
 *
 * <p>Flink's own {@code PrometheusReporter} binds every interface and has no bind-address option, so the endpoint
 * binds {@value LocalFlink#LOOPBACK} itself (the Prometheus client's {@link HTTPServer}) and serves what Flink's
 * reporter conversion ({@link AbstractPrometheusReporter}) registers: metric names and labels are those of a cluster
 * running Flink's reporter ({@code flink_taskmanager_job_task_operator_samplesIn}, ...), so one dashboard fits both.
 * The socket is bound when the endpoint starts, before the cluster, so a port in use fails the run at once.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** Name of the reporter in the Flink configuration. */
    static final String NAME = "prometheus";

    /** Reporter property holding the endpoint's id. */
    static final String ID_KEY = "endpoint-id";

    private static final Map<String, PrometheusEndpoint> ENDPOINTS = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private final CollectorRegistry served = new CollectorRegistry();
    private final HTTPServer server;

    private PrometheusEndpoint(int port) throws IOException {
        server = new HTTPServer(new InetSocketAddress(LocalFlink.LOOPBACK, port), served, true);
    }

    /**
     * Binds {@value LocalFlink#LOOPBACK}:{@code port} (0 = an ephemeral port) and serves the metrics of the clusters
     * configured with {@link #configure} until {@link #close}.
     *
     * @throws UncheckedIOException when the port cannot be bound, naming it
     */
    public static PrometheusEndpoint start(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("metrics port must be 0..65535, got " + port);
        }
        try {
            PrometheusEndpoint e = new PrometheusEndpoint(port);
            ENDPOINTS.put(e.id, e);
            return e;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot serve Prometheus metrics on " + LocalFlink.LOOPBACK + ":" + port + ": " + e.getMessage(),
                    e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getPort();
    }

    /** The scrape address, e.g. {@code http://127.0.0.1:9249/metrics}. */
    public String url() {
        return "http://" + LocalFlink.LOOPBACK + ":" + port() + "/metrics";
    }

    /** Adds the reporter that feeds this endpoint to a cluster configuration. */
    void configure(Configuration c) {
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        c.setString("metrics.reporter." + NAME + "." + ID_KEY, id);
    }

    /** Stops serving and closes the socket. */
    @Override
    public void close() {
        ENDPOINTS.remove(id);
        server.stop();
    }

    /**
     * Flink's Prometheus conversion of every metric the cluster registers, served by the endpoint it was configured
     * with; the cluster closes it (its metrics leave the endpoint with it).
     */
    static final class Reporter extends AbstractPrometheusReporter {
        private final PrometheusEndpoint endpoint;
        private final Collector bridge;

        Reporter(PrometheusEndpoint endpoint) {
            this.endpoint = endpoint;
            CollectorRegistry converted = registryOf(this);
            this.bridge = new Collector() {
                @Override
                public List<MetricFamilySamples> collect() {
                    return Collections.list(converted.metricFamilySamples());
                }
            };
            endpoint.served.register(bridge);
        }

        @Override
        public void close() {
            endpoint.served.unregister(bridge);
            super.close();
        }

        /**
         * The registry Flink's conversion fills: a package-private field of {@link AbstractPrometheusReporter}
         * (flink-metrics-prometheus 2.2.1), read once per reporter; the scrape test in {@code RunProcessTest} fails if
         * it moves.
         */
        private static CollectorRegistry registryOf(AbstractPrometheusReporter reporter) {
            try {
                Field f = AbstractPrometheusReporter.class.getDeclaredField("registry");
                f.setAccessible(true);
                return (CollectorRegistry) f.get(reporter);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException(
                        "this flink-metrics-prometheus has no registry field in AbstractPrometheusReporter", e);
            }
        }
    }

    /** Creates the reporter of the endpoint named in its properties (found by Flink's service loader). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            String id = properties.getProperty(ID_KEY, "");
            return new Reporter(Optional.ofNullable(ENDPOINTS.get(id))
                    .orElseThrow(() -> new IllegalStateException("no Prometheus endpoint with id '" + id + "'")));
        }
    }
}
