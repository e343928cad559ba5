package io.vigil.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.flink.WatchAlarm;
import io.vigil.watch.AlarmEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dashboard's HTTP server on loopback, spoken to with raw sockets (so the Host header and a client that never
 * reads are under the test's control): the page and its assets, refusals, the event stream, and that a client that
 * does not read loses old frames, not the newest, while {@code publish} never blocks and the others keep receiving.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DashboardServerTest {
    /** Sends a request; returns the status line and headers (up to the blank line) and keeps the socket open. */
    private static List<String> request(Socket socket, String method, String path, String host) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(
                (method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        List<String> head = new ArrayList<>();
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            head.add(line);
        }
        return head;
    }

    private static Socket connect(DashboardServer server) throws IOException {
        Socket s = new Socket(InetAddress.getByName(DashboardServer.LOOPBACK), server.port());
        s.setSoTimeout(60_000);
        return s;
    }

    private static String status(DashboardServer server, String method, String path, String host) throws IOException {
        try (Socket s = connect(server)) {
            return request(s, method, path, host).get(0);
        }
    }

    @Test
    void servesThePageAndItsAssetsOnLoopbackOnly() throws Exception {
        try (DashboardServer server = DashboardServer.start(0)) {
            String host = DashboardServer.LOOPBACK + ":" + server.port();
            assertEquals("http://" + host + "/", server.url());
            for (String path : List.of("/", "/dashboard.js", "/dashboard.css", "/uPlot.min.js", "/uPlot.min.css")) {
                assertEquals("HTTP/1.1 200 OK", status(server, "GET", path, host), path);
            }
            try (Socket s = connect(server)) {
                List<String> head = request(s, "GET", "/", "localhost:" + server.port());
                assertEquals("HTTP/1.1 200 OK", head.get(0));
                assertTrue(head.contains("Content-type: text/html; charset=utf-8"), head.toString());
                assertTrue(
                        head.stream().anyMatch(h -> h.startsWith("Content-security-policy: default-src 'self'")),
                        head.toString());
            }
            assertEquals("HTTP/1.1 404 Not Found", status(server, "GET", "/etc/passwd", host));
            assertEquals("HTTP/1.1 405 Method Not Allowed", status(server, "POST", "/", host));
            assertEquals(
                    "HTTP/1.1 403 Forbidden",
                    status(server, "GET", "/", "rebound.example:" + server.port()),
                    "a page of another site resolving its name to 127.0.0.1 is refused");
        }
    }

    @Test
    void eventStreamDeliversEveryPublishedDocument() throws Exception {
        try (DashboardServer server = DashboardServer.start(0);
                Socket s = connect(server)) {
            List<String> head = request(s, "GET", "/events", DashboardServer.LOOPBACK + ":" + server.port());
            assertEquals("HTTP/1.1 200 OK", head.get(0));
            assertTrue(head.contains("Content-type: text/event-stream; charset=utf-8"), head.toString());
            awaitClients(server);
            server.publish("{\"n\":1}".getBytes(StandardCharsets.UTF_8));
            server.publish("{\"n\":2}".getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            List<String> data = new ArrayList<>();
            for (String line = in.readLine(); data.size() < 2 && line != null; line = in.readLine()) {
                if (line.contains("data: ")) {
                    data.add(line.substring(line.indexOf("data: ")));
                }
            }
            assertEquals(List.of("data: {\"n\":1}", "data: {\"n\":2}"), data);
        }
    }

    @Test
    void aClientThatDoesNotReadLosesOldFramesWhilePublishNeverBlocksAndTheOthersKeepReceiving() throws Exception {
        try (DashboardServer server = DashboardServer.start(0);
                Socket stalled = connect(server);
                Socket reader = connect(server)) {
            String host = DashboardServer.LOOPBACK + ":" + server.port();
            stalled.setReceiveBufferSize(4096);
            request(stalled, "GET", "/events", host); // and never read again
            awaitClients(server);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(reader.getInputStream(), StandardCharsets.UTF_8));
            request(reader, "GET", "/events", host);
            // A client is registered after its headers went out: publishing before the reader is registered would
            // leave it waiting for a frame it never gets.
            awaitClients(server, 2);
            byte[] big = new byte[256 * 1024];
            Arrays.fill(big, (byte) 'x');
            big[0] = '"';
            big[big.length - 1] = '"';
            while (server.skipped() == 0) {
                server.publish(big); // returns at once even though one client's socket and queue are full
                readFrame(in); // the reading client keeps up
            }
            server.publish("{\"after\":true}".getBytes(StandardCharsets.UTF_8));
            assertEquals("{\"after\":true}", readFrame(in), "the reading client still receives every frame");
            assertTrue(
                    server.hasClients(), "the stalled client is not cut off: it gets the newest frames when it reads");
        }
    }

    @Test
    void eventStreamsBeyondTheLimitAreRefused() throws Exception {
        try (DashboardServer server = DashboardServer.start(0)) {
            String host = DashboardServer.LOOPBACK + ":" + server.port();
            List<Socket> open = new ArrayList<>();
            try {
                for (int i = 0; i < DashboardServer.MAX_CLIENTS; i++) {
                    Socket s = connect(server);
                    open.add(s);
                    assertEquals(
                            "HTTP/1.1 200 OK",
                            request(s, "GET", "/events", host).get(0));
                }
                assertEquals("HTTP/1.1 503 Service Unavailable", status(server, "GET", "/events", host));
                assertEquals("HTTP/1.1 200 OK", status(server, "GET", "/", host), "the page is still served");
            } finally {
                for (Socket s : open) {
                    s.close();
                }
            }
        }
    }

    /**
     * A watch job's state as the dashboard publishes it reaches the event stream with the alarm records' field names,
     * and the page served has the alarm list and the watch counters to show it in.
     */
    @Test
    void aWatchJobsAlarmsReachTheEventStreamUnderTheAlarmRecordsFieldNames() throws Exception {
        DashboardState state = DashboardState.watching("watch", 0, java.util.Map.of());
        state.alarm(
                WatchAlarm.of(
                        new AlarmEvent("pump-7", "bell", 400, 431, 31, 620.0, 400, 96, true, "pac", 0.9, 0.95),
                        "model-1",
                        1_000,
                        1_002),
                1_000,
                1_010);
        try (DashboardServer server = DashboardServer.start(0);
                Socket s = connect(server)) {
            String host = DashboardServer.LOOPBACK + ":" + server.port();
            request(s, "GET", "/events", host);
            awaitClients(server);
            server.publish(Dashboard.JSON.writeValueAsBytes(state.view(2_000)));
            JsonNode frame = new ObjectMapper()
                    .readTree(readFrame(
                            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))));
            assertEquals("watch", frame.get("mode").asText());
            JsonNode alarm = frame.get("alarms").get(0);
            for (String field : List.of(
                    "key",
                    "label",
                    "event_start",
                    "trigger",
                    "delay_samples",
                    "delay_ms",
                    "certified",
                    "guarantee",
                    "target",
                    "window_start",
                    "window_length",
                    "reliability",
                    "latency_ms")) {
                assertTrue(alarm.has(field), field + " in " + alarm);
            }
            assertEquals("pump-7", alarm.get("key").asText());
            assertEquals(431, alarm.get("trigger").asLong());
            assertEquals(10, alarm.get("latency_ms").asLong());
            for (String counter :
                    List.of("keys", "open_windows", "alarms", "alarms_suppressed", "windows_decided", "timeouts")) {
                assertTrue(frame.get("watch").has(counter), counter);
            }
            try (var page = DashboardServer.class.getResourceAsStream("index.html")) {
                String html = new String(page.readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(html.contains("id=\"alarms\"") && html.contains("id=\"c-suppressed\""), html);
            }
        }
    }

    /**
     * The next event's data (keep-alive comments and chunk-size lines skipped). Keep-alives arrive every few seconds, so
     * the socket's read timeout alone would never end a wait for a frame that is not coming: give up after a minute.
     */
    private static String readFrame(BufferedReader in) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            int at = line.indexOf("data: ");
            if (at >= 0) {
                return line.substring(at + "data: ".length());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no event frame within 60 s, only keep-alives");
            }
        }
        throw new IOException("the event stream ended");
    }

    private static void awaitClients(DashboardServer server) throws InterruptedException {
        awaitClients(server, 1);
    }

    /** Until at least {@code n} clients follow the event stream (bounded by the class's timeout). */
    private static void awaitClients(DashboardServer server, int n) throws InterruptedException {
        while (server.clientCount() < n) {
            Thread.sleep(10);
        }
    }
}
