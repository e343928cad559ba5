package io.vigil.flink;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricsProcessor;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.Summary;
import org.hawkular.agent.prometheus.walkers.CollectorPrometheusMetricsWalker;

/**
 * One scrape of a Prometheus endpoint on loopback, parsed with a text exposition-format parser (Hawkular's
 * prometheus-scraper), as Prometheus would read it.
 *
 * @param families the metric families by name
 */
public record PrometheusScrape(Map<String, MetricFamily> families) {
    /** Metric name prefix Flink's Prometheus conversion gives operator-scope metrics. */
    public static final String OPERATOR = "flink_taskmanager_job_task_operator_";

    /** Metric name prefix of job-scope metrics (JobManager), e.g. the checkpoint gauges. */
    public static final String JOB = "flink_jobmanager_job_";

    /** GETs {@code url} (text format) and parses the answer. */
    public static PrometheusScrape of(String url) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IOException(url + " answered " + r.statusCode());
        }
        CollectorPrometheusMetricsWalker walker = new CollectorPrometheusMetricsWalker();
        new TextPrometheusMetricsProcessor(new ByteArrayInputStream(r.body()), walker).walk();
        Map<String, MetricFamily> byName = new TreeMap<>();
        for (MetricFamily f : walker.getAllMetricFamilies()) {
            byName.put(f.getName(), f);
        }
        return new PrometheusScrape(byName);
    }

    /** Whether the family exists. */
    public boolean has(String name) {
        return families.containsKey(name);
    }

    /** The sum over all label sets of a counter or gauge family (Flink exports counters as gauges); 0 when absent. */
    public double sum(String name) {
        MetricFamily f = families.get(name);
        if (f == null) {
            return 0;
        }
        double s = 0;
        for (Metric m : f.getMetrics()) {
            if (m instanceof Gauge g) {
                s += g.getValue();
            } else if (m instanceof Counter c) {
                s += c.getValue();
            } else {
                throw new IllegalArgumentException(name + " is a " + f.getType() + ", not a counter or gauge");
            }
        }
        return s;
    }

    /**
     * The value of a counter or gauge family per label set: each key is the family's labels (sorted, without the
     * family name), so two families of the same operator can be paired subtask by subtask.
     */
    public Map<Map<String, String>, Double> byLabels(String name) {
        MetricFamily f = families.get(name);
        Map<Map<String, String>, Double> out = new java.util.HashMap<>();
        if (f != null) {
            for (Metric m : f.getMetrics()) {
                double v = m instanceof Gauge g ? g.getValue() : ((Counter) m).getValue();
                out.put(new TreeMap<>(m.getLabels()), v);
            }
        }
        return out;
    }

    /** The summaries (Flink's histograms) of a family, one per label set; empty when absent. */
    public List<Summary> summaries(String name) {
        MetricFamily f = families.get(name);
        return f == null
                ? List.of()
                : f.getMetrics().stream().map(Summary.class::cast).toList();
    }
}
