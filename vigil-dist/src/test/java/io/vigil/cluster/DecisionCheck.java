package io.vigil.cluster;

import io.vigil.data.Dataset;
import io.vigil.stream.DecisionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Outcome of comparing the decisions a cluster run delivered with the offline decisions of its model(s): series lost,
 * decisions duplicated, decisions that differ (with up to ten examples of each); and the figures file of {@link
 * FlinkClusterIT}.
 */
record DecisionCheck(
        int lost,
        int duplicated,
        int wrong,
        List<String> lostExamples,
        List<String> duplicateExamples,
        List<String> wrongExamples) {
    static Set<String> seriesIds(Dataset d) {
        Set<String> ids = new TreeSet<>();
        for (int i = 0; i < d.size(); i++) {
            ids.add(d.name() + "/test/" + i);
        }
        return ids;
    }

    /**
     * Lost, duplicated and wrong decisions against the offline decisions by model id and series; each decision must
     * come from one of {@code modelIds}.
     */
    static DecisionCheck of(
            List<DecisionCollector.Arrival> arrivals,
            Dataset d,
            Map<String, Map<String, DecisionRecord>> offline,
            String... modelIds) {
        Map<String, Integer> count = new HashMap<>();
        List<String> wrong = new ArrayList<>();
        for (DecisionCollector.Arrival a : arrivals) {
            DecisionRecord r = a.decision();
            count.merge(r.series, 1, Integer::sum);
            DecisionRecord e =
                    List.of(modelIds).contains(r.model) ? offline.get(r.model).get(r.series) : null;
            if (e == null || !same(e, r)) {
                wrong.add(r.series + ": " + r.status + " " + r.label + " t=" + r.t + " model " + r.model
                        + (e == null ? " (unknown series)" : " (offline " + e.label + " t=" + e.t + ")"));
            }
        }
        List<String> lost =
                seriesIds(d).stream().filter(s -> !count.containsKey(s)).toList();
        List<String> dup = count.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(e -> e.getKey() + " x" + e.getValue())
                .collect(Collectors.toList());
        return new DecisionCheck(
                lost.size(),
                arrivals.size() - count.size(),
                wrong.size(),
                lost.subList(0, Math.min(10, lost.size())),
                dup.subList(0, Math.min(10, dup.size())),
                wrong.subList(0, Math.min(10, wrong.size())));
    }

    static boolean same(DecisionRecord expected, DecisionRecord actual) {
        return DecisionRecord.DECIDED.equals(actual.status)
                && expected.label.equals(actual.label)
                && expected.t == actual.t
                && expected.early == actual.early
                && expected.model.equals(actual.model);
    }

    /** The figures the run measured, to {@code figures} (and standard output), with the setting they were measured in. */
    static void writeFigures(Path figures, Map<String, String> lines, double rate, int concurrency) throws IOException {
        StringBuilder b = new StringBuilder("# Cluster and fault tolerance figures (FlinkClusterIT)\n\n");
        b.append("Command: `mvn -B verify -Pcluster-it`; 1 JobManager + 2 TaskManagers (2 slots each) as separate JVMs")
                .append(" on 127.0.0.1, loopback Kafka broker, job parallelism 4, checkpoints every 1 s; replay ")
                .append(String.format(Locale.ROOT, "%,.0f", rate))
                .append(" samples/s, ")
                .append(concurrency)
                .append(" series at a time; CBF d = 128.\n\n");
        lines.forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
        Files.createDirectories(figures.toAbsolutePath().getParent());
        Files.writeString(figures, b.toString(), StandardCharsets.UTF_8);
        System.out.println(b);
    }
}
