package io.vigil.cli;

import io.vigil.util.ProgressDisplay;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** The CLI's terminal progress bar (progressbar, ASCII style, four updates a second) for {@code io.vigil.util.Progress}. */
public final class TerminalProgress implements ProgressDisplay {
    @Override
    public Bar open(String task, long total) {
        ProgressBar bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .continuousUpdate()
                .build();
        return new Bar() {
            @Override
            public void stepBy(long n) {
                bar.stepBy(n);
            }

            @Override
            public void extendBy(long n) {
                bar.maxHint(bar.getMax() + n);
            }

            @Override
            public void close() {
                bar.close();
            }
        };
    }
}
