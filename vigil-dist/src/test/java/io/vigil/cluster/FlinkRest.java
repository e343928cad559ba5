package io.vigil.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The few calls of Flink's REST API the cluster test needs (the same ones {@code flink run}, {@code flink stop}
 * and the web UI use), with {@link HttpClient} and Jackson. Non-2xx answers throw with Flink's error text.
 */
public final class FlinkRest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final String base;
    private final HttpClient http;

    /** A client for {@code base}, e.g. {@code http://127.0.0.1:8081}. */
    public FlinkRest(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** Whether {@code /overview} answers. */
    public boolean isUp() throws InterruptedException {
        try {
            get("/overview");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Registered TaskManagers ({@code GET /taskmanagers}). */
    public int taskManagers() throws IOException, InterruptedException {
        return get("/taskmanagers").path("taskmanagers").size();
    }

    /** {@code POST /jars/upload} (multipart, field {@code jarfile}); returns the jar id. */
    public String uploadJar(Path jar) throws IOException, InterruptedException {
        String boundary = "----vigil" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.write(Files.readAllBytes(jar));
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build();
        JsonNode answer = send(req);
        String file = answer.path("filename").asText();
        if (!"success".equals(answer.path("status").asText()) || file.isEmpty()) {
            throw new IOException("jar upload failed: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    /**
     * {@code POST /jars/:id/run}; returns the job id.
     *
     * @param savepointPath the savepoint to resume from, or null
     */
    public String runJar(String jarId, String entryClass, List<String> args, int parallelism, String savepointPath)
            throws IOException, InterruptedException {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("entryClass", entryClass);
        body.set("programArgsList", MAPPER.valueToTree(args));
        body.put("parallelism", parallelism);
        if (savepointPath != null) {
            body.put("savepointPath", savepointPath);
            body.put("allowNonRestoredState", false);
        }
        JsonNode answer = post("/jars/" + jarId + "/run", body);
        String job = answer.path("jobid").asText();
        if (job.isEmpty()) {
            throw new IOException("no job id in " + answer);
        }
        return job;
    }

    /** {@code GET /jobs/:id}: state, duration, timestamps per status, vertices. */
    public JsonNode job(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId);
    }

    /** The job's state, e.g. RUNNING, RESTARTING, FINISHED. */
    public String state(String jobId) throws IOException, InterruptedException {
        return job(jobId).path("state").asText();
    }

    /** {@code GET /jobs/:id/exceptions}, for failure messages. */
    public String exceptions(String jobId) {
        try {
            return get("/jobs/" + jobId + "/exceptions").toString();
        } catch (IOException e) {
            return "(exceptions unavailable: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /**
     * The sum over subtasks of a metric of the vertex whose name contains {@code vertexName}: the metric id is
     * {@code metric} itself or, for an operator metric, ends with {@code "." + metric} ({@code GET
     * /jobs/:id/vertices/:vid/subtasks/:i/metrics}). The REST API serves metrics from a store the JobManager
     * refreshes asynchronously (at most {@code metrics.fetcher.update-interval} old, and empty for a job it has not
     * fetched yet), so this polls until every subtask has reported the metric or {@code timeout} passes.
     */
    public long vertexMetricSum(String jobId, String vertexName, String metric, Duration timeout)
            throws IOException, InterruptedException {
        JsonNode vertex = null;
        for (JsonNode v : job(jobId).path("vertices")) {
            if (v.path("name").asText().contains(vertexName)) {
                vertex = v;
                break;
            }
        }
        if (vertex == null) {
            throw new IOException("no vertex named like '" + vertexName + "' in job " + jobId);
        }
        String path = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/subtasks/";
        int parallelism = vertex.path("parallelism").asInt();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long sum = 0;
            int reported = 0;
            for (int i = 0; i < parallelism; i++) {
                Long value = metricValue(get(path + i + "/metrics"), metric, path + i + "/metrics");
                if (value != null) {
                    sum += value;
                    reported++;
                }
            }
            if (reported == parallelism) {
                return sum;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(metric + " of '" + vertexName + "' in job " + jobId + " reported by " + reported
                        + " of " + parallelism + " subtasks after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(250);
        }
    }

    /**
     * A job-level metric ({@code GET /jobs/:id/metrics?get=…}), e.g. {@code numRestarts}, polled until the
     * JobManager's metric store has it (see {@link #vertexMetricSum}).
     */
    public long jobMetric(String jobId, String metric, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (JsonNode e : get("/jobs/" + jobId + "/metrics?get=" + metric)) {
                if (metric.equals(e.path("id").asText())) {
                    return (long) Double.parseDouble(e.path("value").asText());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        "job metric " + metric + " of " + jobId + " not reported after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(250);
        }
    }

    /** The value of {@code metric} (id equal or ending in "." + metric) in a metrics listing; null when absent. */
    private Long metricValue(JsonNode listing, String metric, String path) throws IOException, InterruptedException {
        for (JsonNode available : listing) {
            String id = available.path("id").asText();
            if (id.equals(metric) || id.endsWith("." + metric)) {
                for (JsonNode e : get(path + "?get=" + id)) {
                    return (long) Double.parseDouble(e.path("value").asText());
                }
            }
        }
        return null;
    }

    /**
     * Stop-with-savepoint ({@code POST /jobs/:id/stop}, then polling {@code /jobs/:id/savepoints/:trigger}); returns
     * the savepoint's location.
     */
    public String stopWithSavepoint(String jobId, Path targetDirectory, Duration timeout)
            throws IOException, InterruptedException {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("targetDirectory", targetDirectory.toUri().toString());
        body.put("drain", false);
        String trigger =
                post("/jobs/" + jobId + "/stop", body).path("request-id").asText();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode s = get("/jobs/" + jobId + "/savepoints/" + trigger);
            if ("COMPLETED".equals(s.path("status").path("id").asText())) {
                JsonNode op = s.path("operation");
                if (op.has("failure-cause")) {
                    throw new IOException("stop-with-savepoint of " + jobId + " failed: " + op.path("failure-cause"));
                }
                return op.path("location").asText();
            }
            Thread.sleep(200);
        }
        throw new IOException("stop-with-savepoint of " + jobId + " did not complete within " + timeout);
    }

    /** {@code PATCH /jobs/:id?mode=cancel}. */
    public void cancel(String jobId) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel"))
                .timeout(REQUEST_TIMEOUT)
                .method("PATCH", HttpRequest.BodyPublishers.noBody())
                .build());
    }

    /** Polls until the job is in {@code state}; throws with the job's exceptions when it ends otherwise. */
    public void awaitState(String jobId, String state, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String now = state(jobId);
        while (!now.equals(state)) {
            if (List.of("FAILED", "CANCELED", "FINISHED").contains(now) || System.nanoTime() > deadline) {
                throw new IOException("job " + jobId + " is " + now + ", expected " + state + " (within " + timeout
                        + "); exceptions: " + exceptions(jobId));
            }
            Thread.sleep(200);
            now = state(jobId);
        }
    }

    /**
     * Polls until every task of the job is RUNNING (the job's state is RUNNING as soon as it is scheduled, before
     * its tasks are deployed).
     */
    public void awaitAllTasksRunning(String jobId, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode j = job(jobId);
            String state = j.path("state").asText();
            boolean all = "RUNNING".equals(state) && j.path("vertices").size() > 0;
            for (JsonNode v : j.path("vertices")) {
                all &= v.path("tasks").path("RUNNING").asInt()
                        == v.path("parallelism").asInt();
            }
            if (all) {
                return;
            }
            if (List.of("FAILED", "CANCELED", "FINISHED").contains(state) || System.nanoTime() > deadline) {
                throw new IOException("tasks of job " + jobId + " not all running (" + state + ", within " + timeout
                        + "): " + j.path("vertices") + "; exceptions: " + exceptions(jobId));
            }
            Thread.sleep(200);
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(REQUEST_TIMEOUT)
                .GET()
                .build());
    }

    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(MAPPER.writeValueAsString(body)))
                .build());
    }

    private JsonNode send(HttpRequest req) throws IOException, InterruptedException {
        HttpResponse<String> r;
        try {
            r = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IOException(req.method() + " " + req.uri() + ": cannot connect", e);
        }
        if (r.statusCode() / 100 != 2) {
            throw new IOException(req.method() + " " + req.uri() + " -> HTTP " + r.statusCode() + ": " + r.body());
        }
        return r.body().isEmpty() ? MAPPER.createObjectNode() : MAPPER.readTree(r.body());
    }
}
