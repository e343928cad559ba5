package io.vigil.util;

import java.io.Closeable;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress indicator for long work (cross-validation, calibration, replays): a terminal progress bar on stderr
 * when a console is attached and progress is enabled. Without a console (pipes, CI logs, {@code nohup}) work that
 * runs longer than {@link #PLAIN_INTERVAL} reports one plain line per interval on stderr ("… 40% (12/30), 2 min
 * elapsed"), so a ten-minute training is never silent while short runs and stdout stay clean. Algorithms take a
 * {@link Progress} and call {@link #step()}; they never print. The terminal bar itself is a {@link ProgressDisplay}
 * found through {@link ServiceLoader} (the CLI provides one); without one, plain lines are used on a console too.
 */
public final class Progress implements Closeable {
    /** Least time between two plain progress lines (and before the first). */
    static final Duration PLAIN_INTERVAL = Duration.ofSeconds(30);

    private static final Progress NONE = new Progress(null, null, null, 0);

    private static final ProgressDisplay DISPLAY =
            ServiceLoader.load(ProgressDisplay.class).findFirst().orElse(null);

    private final ProgressDisplay.Bar bar;
    private final String task;
    private final PrintStream plain;
    private final AtomicLong total;
    private final AtomicLong done = new AtomicLong();
    private final long start = System.nanoTime();
    private volatile long nextPrint = start + PLAIN_INTERVAL.toNanos();

    private Progress(ProgressDisplay.Bar bar, String task, PrintStream plain, long total) {
        this.bar = bar;
        this.task = task;
        this.plain = plain;
        this.total = new AtomicLong(total);
    }

    /** A progress that reports nothing. */
    public static Progress none() {
        return NONE;
    }

    /**
     * Progress titled {@code task} with {@code total} steps when {@code enabled}: a bar when stderr is a terminal,
     * else plain lines every {@link #PLAIN_INTERVAL}; {@link #none()} when not enabled.
     */
    public static Progress bar(String task, long total, boolean enabled) {
        if (!enabled || total <= 0) {
            return NONE;
        }
        if (System.console() == null || DISPLAY == null) {
            return plain(task, total, System.err);
        }
        return new Progress(DISPLAY.open(task, total), task, null, total);
    }

    /** Plain-line progress to {@code out} (what {@link #bar} gives without a console). */
    static Progress plain(String task, long total, PrintStream out) {
        return new Progress(null, task, out, total);
    }

    /** Advances by one step. Thread-safe. */
    public void step() {
        stepBy(1);
    }

    /** Advances by {@code n} steps. Thread-safe. */
    public void stepBy(long n) {
        if (bar != null) {
            bar.stepBy(n);
        } else if (plain != null) {
            done.addAndGet(n);
            long now = System.nanoTime();
            if (now >= nextPrint) { // cheap check first: replays step once per sample
                maybePrint(now);
            }
        }
    }

    /** Adds {@code n} steps to the expected total (for work whose size is known only as it runs). */
    public void extendBy(long n) {
        if (bar != null) {
            bar.extendBy(n);
        } else {
            total.addAndGet(n);
        }
    }

    /** Prints a plain line when the interval has passed since the last one (package-private for tests). */
    synchronized boolean maybePrint(long now) {
        if (now < nextPrint) {
            return false;
        }
        nextPrint = now + PLAIN_INTERVAL.toNanos();
        long d = done.get();
        long t = Math.max(total.get(), d);
        long seconds = Duration.ofNanos(now - start).toSeconds();
        plain.printf(
                Locale.ROOT,
                "vigil: %s %d%% (%d/%d), %d min %02d s elapsed%n",
                task,
                t == 0 ? 0 : 100 * d / t,
                d,
                t,
                seconds / 60,
                seconds % 60);
        plain.flush();
        return true;
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
