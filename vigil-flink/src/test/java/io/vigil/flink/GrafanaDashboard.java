package io.vigil.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Grafana dashboard of config/grafana as the tests read it: its panels' PromQL and the metric names they use. */
public record GrafanaDashboard(JsonNode json) {
    /** The dashboard file. */
    public static final Path FILE = Path.of("config/grafana/dashboards/vigil.json");

    private static final Pattern METRIC =
            Pattern.compile("flink_(?:taskmanager_job_task_operator|jobmanager_job)_[A-Za-z]+(?:_[a-z]+)*");

    /** Reads {@link #FILE}. */
    public static GrafanaDashboard read() throws IOException {
        return new GrafanaDashboard(new ObjectMapper().readTree(FILE.toFile()));
    }

    /** The PromQL expression of every panel target. */
    public List<String> expressions() {
        List<String> out = new ArrayList<>();
        for (JsonNode panel : json.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.add(target.path("expr").asText());
            }
        }
        return out;
    }

    /** Full Prometheus metric names the expressions name literally (regex selectors excluded). */
    public Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        for (String expr : expressions()) {
            Matcher m = METRIC.matcher(expr);
            while (m.find()) {
                char next = m.end() < expr.length() ? expr.charAt(m.end()) : ' ';
                if (next != '_' && next != '.') { // not the stem of a regex selector such as deadLetters_.+
                    names.add(m.group());
                }
            }
        }
        return names;
    }
}
