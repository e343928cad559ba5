package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Grafana files of config/grafana fit together and fit the job: the provisioned data source is the one every
 * panel queries, the dashboard provider loads the directory the dashboard is mounted in, and every metric the
 * panels name is one the job registers (operator metrics by their Vigil name, job metrics by Flink's). That the
 * running job exports them is checked by {@code RunProcessTest#prometheusScrapesVigilsMetricsWhileTheJobRuns}.
 */
class GrafanaDashboardTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Operator metrics the job registers (EarlyDecisionFunction, ModelSwapFunction, TruthAgreement). */
    static final Set<String> VIGIL_OPERATOR_METRICS = Set.of(
            JobMetrics.SAMPLES_IN,
            JobMetrics.DECISIONS_EARLY,
            JobMetrics.DECISIONS_COMPLETE,
            JobMetrics.DECISIONS_UNDECIDED,
            JobMetrics.SERIES_ABANDONED,
            JobMetrics.SERIES_IN_FLIGHT,
            JobMetrics.OUT_OF_RANGE,
            "decisionFractionPermille",
            "decisionLatencyMs",
            "modelSwaps",
            "modelsRejected",
            "liveModels",
            "truthAgreement",
            "truthAccuracy");

    @Test
    void panelsQueryTheProvisionedDataSourceAndNameMetricsTheJobRegisters() throws Exception {
        JsonNode sources = YAML.readTree(Path.of("config/grafana/provisioning/datasources/prometheus.yml")
                .toFile());
        String uid = sources.path("datasources").path(0).path("uid").asText();
        assertEquals(
                "http://prometheus:9090",
                sources.path("datasources").path(0).path("url").asText());
        GrafanaDashboard dashboard = GrafanaDashboard.read();
        assertTrue(dashboard.json().path("panels").size() >= 10, "panels");
        for (JsonNode panel : dashboard.json().path("panels")) {
            assertEquals(
                    uid,
                    panel.path("datasource").path("uid").asText(),
                    panel.path("title").asText());
            assertTrue(panel.path("targets").size() > 0, panel.path("title") + " has queries");
        }
        Set<String> used = new HashSet<>();
        for (String name : dashboard.metricNames()) {
            if (name.startsWith(PrometheusScrape.OPERATOR)) {
                String vigil = name.substring(PrometheusScrape.OPERATOR.length());
                assertTrue(VIGIL_OPERATOR_METRICS.contains(vigil), name + " is not a metric the job registers");
                used.add(vigil);
            } else {
                String job = name.substring(PrometheusScrape.JOB.length());
                assertTrue(
                        Set.of(
                                        JobMetrics.LAST_CHECKPOINT_DURATION,
                                        JobMetrics.LAST_CHECKPOINT_SIZE,
                                        JobMetrics.LAST_CHECKPOINT_FULL_SIZE)
                                .contains(job),
                        name);
            }
        }
        assertEquals(VIGIL_OPERATOR_METRICS, used, "every Vigil metric has a panel");
        assertTrue(
                dashboard.expressions().stream().anyMatch(e -> e.contains("deadLetters_.+")), "dead letters by reason");
    }

    @Test
    void theProviderLoadsTheDirectoryComposeMountsTheDashboardIn() throws Exception {
        JsonNode providers = YAML.readTree(
                Path.of("config/grafana/provisioning/dashboards/vigil.yml").toFile());
        String path =
                providers.path("providers").path(0).path("options").path("path").asText();
        JsonNode compose = YAML.readTree(Path.of("docker-compose.yml").toFile());
        Set<String> volumes = new HashSet<>();
        compose.path("services").path("grafana").path("volumes").forEach(v -> volumes.add(v.asText()));
        assertTrue(volumes.contains("./config/grafana/dashboards:" + path + ":ro"), volumes.toString());
        assertTrue(volumes.contains("./config/grafana/provisioning:/etc/grafana/provisioning:ro"), volumes.toString());
        Set<String> prometheus = new HashSet<>();
        compose.path("services").path("prometheus").path("volumes").forEach(v -> prometheus.add(v.asText()));
        assertTrue(prometheus.contains("./config/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro"));
    }
}
