package io.vigil.cli;

import static io.vigil.cli.DashboardBrowserTest.await;
import static io.vigil.cli.DashboardBrowserTest.count;
import static io.vigil.cli.DashboardBrowserTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.recording.RecordingSet;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.RecordingReplay;
import io.vigil.util.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The dashboard of a watch job in a real browser: {@code vigil run --watch --dashboard 0} as an operator starts it (a
 * child JVM, the loopback broker of this JVM, an embedded MiniCluster) with a window model trained on a generated
 * event stream, the page opened in Debian's headless chromium (Selenium) while the test recordings are replayed as
 * keyed streams at a paced rate. The page switches to its watch form (no series drawn, no decisions table), lists
 * alarms as they are committed with their key, label, trigger and delay, counts keys and alarms, logs no console
 * error, and a screenshot is kept ({@code target/surefire-reports/dashboard-watch.png}). Skips when chromium or
 * chromedriver is absent.
 */
class DashboardWatchBrowserTest {
    private static final Path SCREENSHOT = Path.of("target", "surefire-reports", "dashboard-watch.png");

    /** Replay speed: the test recordings at 50 Hz × this, slow enough that alarms keep coming while the page is read. */
    private static final double SPEED = 4;

    @TempDir
    Path dir;

    @Test
    void pageListsAlarmsAsTheyFireWithTheWatchCounters() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(DashboardBrowserTest.CHROMIUM)
                        && Files.isExecutable(DashboardBrowserTest.CHROMEDRIVER),
                "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
        Path recordings = dir.resolve("rec");
        Path model = trainWindowModel(recordings);
        RecordingSet test = RecordingSet.read(recordings, Double.NaN).split("test");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            kafka.createTopic("values", 2);
            kafka.createTopic("alarms", 2);
            CliProcess run = CliProcess.start(
                    dir,
                    tmp,
                    List.of(
                            "run",
                            "--watch",
                            "--model",
                            model.toString(),
                            "--bootstrap",
                            kafka.bootstrapServers(),
                            "--input",
                            "values",
                            "--output",
                            "alarms",
                            "--dead-letter",
                            "dead-letters",
                            "--checkpoint-interval",
                            "1s",
                            "--dashboard",
                            "0"));
            WebDriver browser = null;
            Thread replay = null;
            try {
                run.awaitErr("dashboard at http://127.0.0.1:", DashboardBrowserTest.START_TIMEOUT_S);
                Matcher url = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+/)")
                        .matcher(run.err());
                assertTrue(url.find(), run.err());
                browser = DashboardBrowserTest.chromium(dir.resolve("chromium-profile"));
                browser.get(url.group(1));
                WebDriver page = browser;
                await("the event stream connects", () -> "live".equals(text(page, "connection")));
                await("the running job", () -> "job running".equals(text(page, "job")));
                assertFalse(page.findElement(By.id("decisions")).isDisplayed(), "no decisions table");
                assertTrue(page.findElement(By.id("alarms")).isDisplayed(), "the alarm list");
                assertFalse(page.findElement(By.id("chart-series")).isDisplayed(), "no series drawn");
                assertEquals("value → alarm", text(page, "c-latency-name").toLowerCase(java.util.Locale.ROOT));
                replay = replay(kafka, test);
                await("a first alarm listed", () -> rows(page) > 0);
                int first = rows(page);
                await("more alarms listed", () -> rows(page) > first);
                await(
                        "the keys counted",
                        () -> count(text(page, "c-keys")) == test.recordings().size());
                await("the alarms counted", () -> count(text(page, "c-alarms")) >= rows(page));
                // The table is redrawn four times a second: read one row's cells in one script call.
                @SuppressWarnings("unchecked")
                List<String> cells = (List<String>) ((JavascriptExecutor) page)
                        .executeScript("return Array.from(document.querySelectorAll("
                                + "'#alarms tbody tr:first-child td')).map(td => td.textContent)");
                assertTrue(cells.get(1).startsWith("rec-"), "the key: " + cells);
                assertTrue(List.of("cylinder", "bell", "funnel").contains(cells.get(2)), "the label: " + cells);
                long start = count(cells.get(3));
                long trigger = count(cells.get(4));
                assertTrue(trigger > start, "the trigger follows the event start: " + cells);
                assertTrue(
                        cells.get(5).startsWith((trigger - start) + " samples"),
                        "delay = trigger − event start: " + cells);
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
                if (replay != null) {
                    replay.interrupt();
                }
                run.process().destroy();
                assertTrue(run.process().waitFor(60, TimeUnit.SECONDS), "vigil run still running after SIGTERM");
                if (replay != null) {
                    replay.join(TimeUnit.MINUTES.toMillis(2));
                }
            }
        }
    }

    /** A window model trained in seconds on a generated event stream written to {@code recordings}. */
    private Path trainWindowModel(Path recordings) throws java.io.IOException {
        RecordingWriter.writeSet(EventStream.generate(6, 4000, 7), recordings, false);
        Path model = dir.resolve("w.json");
        Run.of(
                        "train",
                        "--recordings",
                        recordings.toString(),
                        "--max-background",
                        "150",
                        "--no-calibration",
                        "--out",
                        model.toString())
                .ok();
        return model;
    }

    /** Replays the test recordings as keyed streams at {@link #SPEED} × real time on a thread of its own. */
    private static Thread replay(LoopbackKafka kafka, RecordingSet test) {
        Map<String, Object> props = kafka.clientProperties();
        Thread t = new Thread(
                () -> RecordingReplay.run(test, new RecordingReplay.Settings("values", SPEED), props, Progress.none()),
                "dashboard-watch-test-replay");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int rows(WebDriver page) {
        return page.findElements(By.cssSelector("#alarms tbody tr")).size();
    }
}
