package io.vigil.util;

import java.io.Closeable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress indicator for long work (cross-validation, replays): a terminal progress bar on stderr when
 * a console is attached and progress is enabled, silent otherwise so pipes, CI logs and {@code --json}
 * output stay clean. Algorithms take a {@link Progress} and call {@link #step()}; they never print.
 */
public final class Progress implements Closeable {
    private static final Progress NONE = new Progress(null);

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /** A progress that reports nothing. */
    public static Progress none() {
        return NONE;
    }

    /**
     * A bar titled {@code task} with {@code total} steps, shown only when stderr is a terminal and
     * {@code enabled}; otherwise {@link #none()}.
     */
    public static Progress bar(String task, long total, boolean enabled) {
        if (!enabled || System.console() == null || total <= 0) {
            return NONE;
        }
        ProgressBar bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .continuousUpdate()
                .build();
        return new Progress(bar);
    }

    /** Advances by one step. Thread-safe. */
    public void step() {
        if (bar != null) {
            bar.step();
        }
    }

    /** Advances by {@code n} steps. Thread-safe. */
    public void stepBy(long n) {
        if (bar != null) {
            bar.stepBy(n);
        }
    }

    /** Adds {@code n} steps to the expected total (for work whose size is known only as it runs). */
    public void extendBy(long n) {
        if (bar != null) {
            bar.maxHint(bar.getMax() + n);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
