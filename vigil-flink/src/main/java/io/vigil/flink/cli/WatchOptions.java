package io.vigil.flink.cli;

import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.VigilJob;
import io.vigil.flink.WatchJob;
import io.vigil.flink.WatchSettings;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.util.Failures;
import io.vigil.watch.RearmPolicy;
import java.io.PrintWriter;
import java.util.Locale;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code vigil run --watch} and its options (docs/watch.md): a window model watching endless keyed streams, alarms
 * instead of decisions. Keeps the two modes apart: a series model is refused with {@code --watch}, a window model
 * without it, each message naming the other mode.
 */
public final class WatchOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--watch",
            description = "Watch endless keyed streams with a window model (vigil train --recordings): input "
                    + "{\"key\":K,\"value\":X} (optional \"channel\" name or index, \"ts\" epoch ms, \"i\" 1-based "
                    + "sample index; else arrival order per key and channel), one alarm record per event to --output "
                    + "(docs/watch.md). A key silent for --idle-timeout has its open windows closed.")
    boolean enabled;

    @Option(
            names = "--rearm",
            paramLabel = "POLICY",
            description = "With --watch: when a key re-arms after an alarm: windows-closed (when the event's windows "
                    + "have closed), immediate or refractory:N (N samples after the trigger); default: the model's.")
    String rearm;

    @Option(
            names = "--max-alarms-per-minute",
            paramLabel = "N",
            description = "With --watch: flood guard, at most N alarms per key per minute of stream time; the excess "
                    + "is dead-lettered as alarm_flood and counted (default: "
                    + WatchSettings.DEFAULT_MAX_ALARMS_PER_MINUTE + "; 0 = no guard).")
    Integer maxAlarmsPerMinute;

    /** Whether the run watches streams. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Refuses a model of the other mode and the options that do not apply to this one.
     *
     * @param model the job's model
     * @param source what to call the model in messages
     * @param modelTopic the run's --model-topic, or null
     * @param truthTopic the run's --truth-topic, or null
     * @throws WrongModeException for a model of the other mode (exit 1, one line)
     */
    void requireMode(VigilModel model, String source, String modelTopic, String truthTopic) {
        CommandLine cl = spec.commandLine();
        if (!enabled) {
            if (rearm != null || maxAlarmsPerMinute != null) {
                throw new CommandLine.ParameterException(cl, "--rearm and --max-alarms-per-minute need --watch");
            }
            try {
                WindowModels.requireSeriesModel(model, source);
            } catch (IllegalArgumentException e) {
                throw new WrongModeException(e.getMessage());
            }
            return;
        }
        if (modelTopic != null || truthTopic != null) {
            throw new CommandLine.ParameterException(
                    cl, "--model-topic and --truth-topic are for classifying series; --watch runs one window model");
        }
        CommandLines.check(cl.getCommandSpec(), () -> settings(io.vigil.stream.SessionSettings.DEFAULT_IDLE_TIMEOUT));
        try {
            WindowModels.requireWindowModel(model, source);
        } catch (IllegalArgumentException e) {
            throw new WrongModeException(e.getMessage() + "; or run it without --watch to classify series");
        }
    }

    /** Adds the job of this mode to {@code env}: the watch job, or the series job. */
    void attach(StreamExecutionEnvironment env, JobConfig cfg, byte[] model) {
        if (enabled) {
            WatchJob.attach(env, cfg, model, settings(cfg.session().idleTimeout()));
        } else {
            VigilJob.attach(env, cfg, model);
        }
    }

    private WatchSettings settings(java.time.Duration idleTimeout) {
        if (rearm != null) {
            RearmPolicy.parse(rearm);
        }
        return new WatchSettings(
                rearm,
                idleTimeout,
                maxAlarmsPerMinute == null ? WatchSettings.DEFAULT_MAX_ALARMS_PER_MINUTE : maxAlarmsPerMinute);
    }

    /** The watch mode's counts after the run's summary line (nothing in the series mode). */
    void summary(PrintWriter err, JobMetrics.Snapshot s) {
        if (!enabled) {
            return;
        }
        err.println(String.format(
                Locale.ROOT,
                "vigil run: watch: alarms %,d (held back by the flood guard %,d), windows decided %,d, windows closed"
                        + " by silence %,d",
                s.get(JobMetrics.WATCH_ALARMS),
                s.get(JobMetrics.WATCH_ALARMS_SUPPRESSED),
                s.get(JobMetrics.WATCH_WINDOWS_DECIDED),
                s.get(JobMetrics.WATCH_TIMEOUTS)));
        err.flush();
    }

    /** A model of the other mode; the message names the mode to use. */
    static final class WrongModeException extends IllegalArgumentException implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        WrongModeException(String message) {
            super(message);
        }
    }
}
