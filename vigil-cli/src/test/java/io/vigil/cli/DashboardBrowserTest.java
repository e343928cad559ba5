package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.stream.StreamFixtures;
import io.vigil.util.Progress;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The live dashboard in a real browser: {@code vigil run --dashboard 0} as a user starts it (a child JVM, the
 * loopback broker of this JVM, an embedded MiniCluster), the page opened in Debian's headless chromium driven by
 * Selenium while samples and their true labels are replayed at a paced rate. The page connects, its counters move
 * while decisions arrive, the decisions table fills to its 50 rows, a series is drawn, the agreement with the true
 * labels shows, the browser logs no console error, and a screenshot is kept with the test report ({@code target/surefire-reports/dashboard.png}). Skips when chromium or chromedriver is absent.
 */
class DashboardBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOT = Path.of("target", "surefire-reports", "dashboard.png");

    /** A cold JVM starting a MiniCluster on a loaded 2-core machine can take tens of seconds; generous but bounded. */
    static final long START_TIMEOUT_S = 180;

    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(120);

    /** Replay pace: slow enough that decisions keep arriving while the page is watched. */
    private static final double SAMPLES_PER_S = 2_000;

    @TempDir
    Path dir;

    @Test
    void pageShowsTheRunLiveWithoutConsoleErrors() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
        Path model = dir.resolve("cbf.model.json");
        Files.write(model, StreamFixtures.MODEL_BYTES);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            kafka.createTopic("samples", 2);
            kafka.createTopic("decisions", 2);
            kafka.createTopic("truth", 1);
            CliProcess run = CliProcess.start(
                    dir,
                    tmp,
                    List.of(
                            "run",
                            "--model",
                            model.toString(),
                            "--bootstrap",
                            kafka.bootstrapServers(),
                            "--input",
                            "samples",
                            "--output",
                            "decisions",
                            "--dead-letter",
                            "dead-letters",
                            "--truth-topic",
                            "truth",
                            "--dashboard",
                            "0"));
            WebDriver browser = null;
            Thread replay = null;
            try {
                run.awaitErr("dashboard at http://127.0.0.1:", START_TIMEOUT_S);
                Matcher url = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+/)")
                        .matcher(run.err());
                assertTrue(url.find(), run.err());
                browser = chromium(dir.resolve("chromium-profile"));
                browser.get(url.group(1));
                WebDriver page = browser;
                await("the event stream connects", () -> "live".equals(text(page, "connection")));
                await("the running job", () -> "job running".equals(text(page, "job")));
                replay = replay(kafka, "samples");
                await("a first decision", () -> decided(page) > 0);
                long first = decided(page);
                long samples = count(text(page, "c-samples"));
                await("more decisions", () -> decided(page) > first);
                // The page refreshes 4 times a second and decisions reach it in batches (one per exactly-once
                // commit), so a new decision can arrive in the same frame as the count read above: wait for the
                // next frames rather than compare this one. The replay lasts about 19 s (38,400 samples), so a counter
                // that moves at all moves again well within the timeout.
                await("samples counted while decisions arrive", () -> count(text(page, "c-samples")) > samples);
                await("the table's 50 rows", () -> rows(page) == 50);
                await("a drawn series", () -> !text(page, "series-caption").startsWith("waiting"));
                await("agreement with the true labels", () -> text(page, "c-agreement")
                        .endsWith("%"));
                System.out.println("dashboard: " + text(page, "lag"));
                Files.createDirectories(SCREENSHOT.getParent());
                Files.write(SCREENSHOT, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
                List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                        .toList();
                assertEquals(List.of(), errors, "console errors");
            } finally {
                if (browser != null) {
                    browser.quit();
                }
                run.process().destroy();
                assertTrue(run.process().waitFor(60, TimeUnit.SECONDS), "vigil run still running after SIGTERM");
                if (replay != null) {
                    replay.join(TimeUnit.MINUTES.toMillis(2));
                }
            }
        }
    }

    /** Headless chromium with a fresh profile directory, logging the page's console. */
    static WebDriver chromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1440,2200",
                "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /**
     * Replays the fixture's test series five times over at {@link #SAMPLES_PER_S} with their true labels, on a
     * thread of its own.
     */
    private static Thread replay(LoopbackKafka kafka, String topic) {
        Map<String, Object> props = kafka.clientProperties();
        Thread t = new Thread(
                () -> Replay.run(
                        StreamFixtures.TEST,
                        Replay.Split.TEST,
                        new Replay.Settings(topic, "truth", SAMPLES_PER_S, 20, 5),
                        props,
                        Progress.none()),
                "dashboard-test-replay");
        t.setDaemon(true);
        t.start();
        return t;
    }

    static String text(WebDriver page, String id) {
        return page.findElement(By.id(id)).getText();
    }

    static long count(String shown) {
        return Long.parseLong(shown.replace(",", ""));
    }

    private static long decided(WebDriver page) {
        return count(text(page, "c-early")) + count(text(page, "c-complete"));
    }

    private static int rows(WebDriver page) {
        return page.findElements(By.cssSelector("#decisions tbody tr")).size();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PAGE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        fail("no " + what + " on the page within " + PAGE_TIMEOUT.toSeconds() + " s");
    }
}
