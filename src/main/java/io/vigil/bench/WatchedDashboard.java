package io.vigil.bench;

import io.vigil.dashboard.Dashboard;
import io.vigil.flink.JobConfig;
import io.vigil.flink.LocalFlink;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.TopicTail;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The live dashboard of a benchmarked job with one client following its event stream, as a browser would: what
 * {@code vigil bench stream --dashboard} runs beside the Vigil job to measure what the dashboard costs it. The
 * dashboard's tails read the pre-filled sample topic from its beginning, as the job does, so the dashboard sees
 * every sample and decision as it would on a live stream.
 */
final class WatchedDashboard implements AutoCloseable {
    private final Dashboard dashboard;
    private final InputStream events;
    private final Thread reader;

    private WatchedDashboard(Dashboard dashboard, InputStream events) {
        this.dashboard = dashboard;
        this.events = events;
        this.reader = new Thread(
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try {
                        while (events.read(buffer) >= 0) {
                            // a browser would draw it; the benchmark only reads it
                        }
                    } catch (IOException e) {
                        // closed
                    }
                },
                "vigil-bench-dashboard-client");
        reader.setDaemon(true);
        reader.start();
    }

    static WatchedDashboard start(LoopbackKafka kafka, JobConfig job, LocalFlink flink)
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
            return new WatchedDashboard(d, r.body());
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
