package io.vigil.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dashboard's HTTP server (the JDK's {@code com.sun.net.httpserver}), on 127.0.0.1 only: the page, its script
 * and style, uPlot from its WebJar, and {@code /events}, a server-sent-event stream of the dashboard's state.
 *
 * <p>Nothing a browser does can hold up the caller: {@link #publish} only offers each client's frame to a queue of
 * {@link #QUEUE_FRAMES}, and when a client's queue is full (it reads slowly, or not at all) the oldest frame waiting
 * is discarded; every frame is the whole state, so a slow client skips states and still shows the newest. Each client
 * is written to by its own thread, and at most {@link #MAX_CLIENTS} event streams are served at once (more get 503).
 * The job itself never talks to this server: the dashboard reads the job's topics and metrics. Requests whose {@code Host} is not this
 * loopback address (DNS rebinding) get 403; anything but GET and HEAD 405.
 */
final class DashboardServer implements AutoCloseable {
    static final String LOOPBACK = "127.0.0.1";
    static final int MAX_CLIENTS = 8;
    static final int QUEUE_FRAMES = 4;

    /** Comment line sent when nothing else was, so proxies and browsers keep the stream open. */
    private static final byte[] KEEP_ALIVE = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    private static final long KEEP_ALIVE_S = 15;

    /** The uPlot release packaged as a WebJar (pom.xml). */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

    /** Served paths: classpath resource and content type. */
    private static final Map<String, String[]> FILES = Map.of(
            "/", new String[] {"io/vigil/dashboard/index.html", "text/html; charset=utf-8"},
            "/dashboard.js", new String[] {"io/vigil/dashboard/dashboard.js", "text/javascript; charset=utf-8"},
            "/dashboard.css", new String[] {"io/vigil/dashboard/dashboard.css", "text/css; charset=utf-8"},
            "/uPlot.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
            "/uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css; charset=utf-8"},
            "/favicon.ico", new String[] {"io/vigil/dashboard/favicon.svg", "image/svg+xml"});

    private final HttpServer http;
    private final ExecutorService pool;
    private final Set<Client> clients = ConcurrentHashMap.newKeySet();
    private final AtomicInteger streams = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private volatile boolean open = true;

    private DashboardServer(HttpServer http, ExecutorService pool) {
        this.http = http;
        this.pool = pool;
    }

    /**
     * Listens on 127.0.0.1:{@code port} (0: a free port).
     *
     * @throws IOException when the port cannot be bound (the message names the address)
     */
    static DashboardServer start(int port) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(LOOPBACK), port);
        HttpServer http;
        try {
            http = HttpServer.create(address, 16);
        } catch (BindException e) {
            throw new IOException("the dashboard cannot listen on " + LOOPBACK + ":" + port + ": " + e.getMessage(), e);
        }
        ExecutorService pool = Executors.newFixedThreadPool(MAX_CLIENTS + 4, r -> {
            Thread t = new Thread(r, "vigil-dashboard-http");
            t.setDaemon(true);
            return t;
        });
        DashboardServer s = new DashboardServer(http, pool);
        http.createContext("/", s::handle);
        http.setExecutor(pool);
        http.start();
        return s;
    }

    /** The port listened on. */
    int port() {
        return http.getAddress().getPort();
    }

    /** The page's address. */
    String url() {
        return "http://" + LOOPBACK + ":" + port() + "/";
    }

    /** Whether any browser follows the event stream (else there is nothing to publish). */
    boolean hasClients() {
        return !clients.isEmpty();
    }

    /** How many clients follow the event stream (registered after their response headers went out). */
    int clientCount() {
        return clients.size();
    }

    /** Frames discarded so far, unsent, because their client's queue was full. */
    int skipped() {
        return skipped.get();
    }

    /**
     * Sends one JSON document to every client as a server-sent event; never blocks: a full queue loses its oldest
     * frame.
     */
    void publish(byte[] json) {
        byte[] frame = frame(json);
        for (Client c : clients) {
            while (!c.frames.offer(frame)) {
                if (c.frames.poll() != null) {
                    skipped.incrementAndGet();
                }
            }
        }
    }

    static byte[] frame(byte[] json) {
        byte[] head = "data: ".getBytes(StandardCharsets.US_ASCII);
        byte[] f = new byte[head.length + json.length + 2];
        System.arraycopy(head, 0, f, 0, head.length);
        System.arraycopy(json, 0, f, head.length, json.length);
        f[f.length - 2] = '\n';
        f[f.length - 1] = '\n';
        return f;
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            String method = ex.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                send(ex, 405, "text/plain", "GET only\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (!loopbackHost(ex.getRequestHeaders().getFirst("Host"))) {
                send(ex, 403, "text/plain", "the dashboard answers 127.0.0.1 only\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String path = ex.getRequestURI().getPath();
            if ("/events".equals(path)) {
                events(ex);
                return;
            }
            String[] file = FILES.get(path);
            byte[] body = file == null ? null : resource(file[0]);
            if (body == null) {
                send(ex, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(ex, 200, file[1], "HEAD".equals(method) ? null : body);
        } finally {
            ex.close();
        }
    }

    /** Whether a Host header names this server's loopback address (DNS-rebinding guard). */
    private boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.trim();
        return h.equals(LOOPBACK + ":" + port()) || h.equals("localhost:" + port());
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        headers(ex, type);
        ex.sendResponseHeaders(status, body == null ? -1 : body.length);
        if (body != null) {
            ex.getResponseBody().write(body);
        }
    }

    private static void headers(HttpExchange ex, String type) {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        ex.getResponseHeaders()
                .set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    }

    /** Streams frames to one client until it goes away, is dropped, or the server closes. */
    private void events(HttpExchange ex) throws IOException {
        if (streams.incrementAndGet() > MAX_CLIENTS) {
            streams.decrementAndGet();
            send(ex, 503, "text/plain", "too many dashboard clients\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        Client c = new Client();
        try {
            headers(ex, "text/event-stream; charset=utf-8");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.write(KEEP_ALIVE);
            out.flush();
            clients.add(c);
            while (open) {
                byte[] frame = c.frames.poll(KEEP_ALIVE_S, TimeUnit.SECONDS);
                out.write(frame == null ? KEEP_ALIVE : frame);
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the browser went away
        } finally {
            clients.remove(c);
            streams.decrementAndGet();
        }
    }

    @Override
    public void close() {
        open = false;
        clients.forEach(c -> c.frames.offer(KEEP_ALIVE));
        http.stop(0);
        pool.shutdownNow();
    }

    /** One event-stream client: the frames waiting to be written to it. */
    private static final class Client {
        final BlockingQueue<byte[]> frames = new ArrayBlockingQueue<>(QUEUE_FRAMES);
    }
}
