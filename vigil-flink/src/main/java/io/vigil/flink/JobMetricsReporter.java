package io.vigil.flink;

import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * The Flink metric reporter that feeds {@link JobMetrics} in-process: the embedded cluster's configuration names
 * it ({@link #configure}) with the id of the {@link JobMetrics} it reports to, so two clusters in one JVM keep
 * their metrics apart. It only keeps references; nothing is polled or sent anywhere.
 */
public final class JobMetricsReporter implements MetricReporter {
    /** Name of the reporter in the Flink configuration. */
    static final String NAME = "vigil";

    /** Reporter property holding the {@link JobMetrics} id. */
    static final String ID_KEY = "metrics-id";

    private final JobMetrics target;

    JobMetricsReporter(JobMetrics target) {
        this.target = target;
    }

    /** Adds the reporter for {@code metrics} to a cluster configuration. */
    static void configure(Configuration c, JobMetrics metrics) {
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        c.setString("metrics.reporter." + NAME + "." + ID_KEY, metrics.id());
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        if (target != null) {
            target.added(name, metric);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        if (target != null) {
            target.removed(name, metric);
        }
    }

    /** Creates the reporter for the {@link JobMetrics} named in its properties (found by Flink's service loader). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new JobMetricsReporter(
                    JobMetrics.byId(properties.getProperty(ID_KEY, "")).orElse(null));
        }
    }
}
