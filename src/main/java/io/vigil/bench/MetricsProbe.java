package io.vigil.bench;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Reads Flink metrics of an embedded job by name, in process: a metric reporter that keeps every counter and gauge
 * it is told of (job manager and task metrics alike) in a static registry the benchmark polls, so a benchmark sees
 * what Flink itself measures (checkpoint duration and size, the operator's counters and gauges) without a REST
 * round trip. A counter's last value is kept when its task ends, so totals survive the end of a bounded job.
 */
public final class MetricsProbe implements MetricReporter {
    /** Name of the reporter in Flink's configuration. */
    static final String NAME = "vigilprobe";

    private static final Map<String, List<Metric>> LIVE = new ConcurrentHashMap<>();
    private static final Map<String, Long> RETIRED = new ConcurrentHashMap<>();

    /** Creates the reporter (found by Flink through {@code META-INF/services}). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new MetricsProbe();
        }
    }

    /** The configuration that installs this reporter on a MiniCluster started from it. */
    static Configuration configuration() {
        Configuration c = new Configuration();
        c.setString("metrics.reporters", NAME);
        c.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        return c;
    }

    /** Forgets every metric (before the next job). */
    static void clear() {
        LIVE.clear();
        RETIRED.clear();
    }

    /**
     * The sum over all registered metrics named {@code name} (every subtask's) of their current value, plus the last
     * value of such counters whose task has ended; 0 when there is none.
     */
    static long sum(String name) {
        long s = RETIRED.getOrDefault(name, 0L);
        for (Metric m : LIVE.getOrDefault(name, List.of())) {
            s += value(m);
        }
        return s;
    }

    /** True when a metric of that name is registered now. */
    static boolean present(String name) {
        return !LIVE.getOrDefault(name, List.of()).isEmpty();
    }

    private static long value(Metric m) {
        if (m instanceof Counter c) {
            return c.getCount();
        }
        if (m instanceof Gauge<?> g && g.getValue() instanceof Number n) {
            return n.longValue();
        }
        return 0;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        if (metric instanceof Counter || metric instanceof Gauge) {
            LIVE.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>()).add(metric);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        List<Metric> list = LIVE.get(name);
        if (list != null && list.remove(metric) && metric instanceof Counter c) {
            RETIRED.merge(name, c.getCount(), Long::sum);
        }
    }
}
