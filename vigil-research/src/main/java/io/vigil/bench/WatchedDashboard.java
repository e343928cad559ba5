package io.vigil.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.dashboard.Dashboard;
import io.vigil.flink.JobConfig;
import io.vigil.flink.LocalFlink;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.TopicTail;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The live dashboard of a benchmarked job with one client following its event stream, as a browser would: what
 * {@code vigil bench stream --dashboard} runs beside the Vigil job to measure what the dashboard costs it, and how
 * late the page learns of a decision. The dashboard's decision tail reads the run's own decision topic from its
 * beginning; the client parses every event and records, for each decision record it sees for the first time, the
 * time from the job emitting it ({@code emitted_at}) to the event's arrival.
 */
final class WatchedDashboard implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Dashboard dashboard;
    private final InputStream events;
    private final Thread reader;

    private WatchedDashboard(Dashboard dashboard, InputStream events, Lags lags, LongSupplier clock) {
        this.dashboard = dashboard;
        this.events = events;
        this.reader = new Thread(
                () -> {
                    Set<String> seen = new HashSet<>();
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(events, StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            if (line.startsWith("data: ")) {
                                record(line.substring(6), clock.getAsLong(), seen, lags);
                            }
                        }
                    } catch (IOException e) {
                        // closed
                    }
                },
                "vigil-bench-dashboard-client");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * How late the page learns of decisions (ms from the job emitting a record to the event that shows it arriving).
     *
     * @param perDecision one per decision row of the page's table, the first time the client sees it (the table
     *     holds the newest rows, so at a high decision rate this samples the newest decisions of each event)
     * @param worstPerEvent one per event that counts new decisions: its arrival minus the emission of the oldest
     *     record it counts for the first time, the lag of the latest decision to reach the page
     */
    record Lags(List<Long> perDecision, List<Long> worstPerEvent) {
        /** Empty synchronised lists. */
        static Lags create() {
            return new Lags(
                    Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
        }
    }

    /** Adds one event's lags (see {@link Lags}); rows are told apart by series and status. */
    static void record(String event, long arrivedAt, Set<String> seen, Lags lags) throws IOException {
        JsonNode view = JSON.readTree(event);
        long oldest = view.path("oldest_new_emitted_at").asLong();
        if (oldest > 0) {
            lags.worstPerEvent.add(arrivedAt - oldest);
        }
        for (JsonNode row : view.path("decisions")) {
            long emitted = row.path("emitted_at").asLong();
            if (emitted > 0
                    && seen.add(row.path("series").asText() + "/"
                            + row.path("status").asText())) {
                lags.perDecision.add(arrivedAt - emitted);
            }
        }
    }

    /**
     * Starts the dashboard of {@code job} (tails from the topics' beginning) and one client following its events,
     * which adds what it sees to {@code lags}.
     */
    static WatchedDashboard start(LoopbackKafka kafka, JobConfig job, LocalFlink flink, Lags lags)
            throws IOException, InterruptedException {
        Dashboard d = Dashboard.start(Dashboard.Settings.of(
                        0, "bench", kafka.clientProperties(), job.input(), job.output(), flink.metrics()::snapshot)
                .from(TopicTail.Start.BEGINNING));
        try {
            HttpResponse<InputStream> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(d.url() + "events"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() != 200) {
                throw new IOException("the dashboard's event stream answered " + r.statusCode());
            }
            return new WatchedDashboard(d, r.body(), lags, System::currentTimeMillis);
        } catch (IOException | InterruptedException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        dashboard.close();
        events.close();
        reader.join(10_000);
    }
}
