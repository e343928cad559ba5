package io.vigil.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.recording.RecordingSet;
import io.vigil.flink.cli.CommandLines;
import io.vigil.kafka.KafkaClientProperties;
import io.vigil.kafka.RecordingReplay;
import io.vigil.util.Progress;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code vigil replay --recordings DIR}: the recording branch of {@link ReplayCommand}, publishing a split of a
 * recording directory as endless keyed streams ({@link RecordingReplay}) for {@code vigil run --watch}. Options of
 * series replays (data set, truth topic, interleaving, rate, observation pattern) are usage errors here.
 */
final class RecordingReplayRun {
    /** Options that only series replays take. */
    private static final List<String> SERIES_ONLY = List.of(
            "--data",
            "--dataset",
            "--train",
            "--test",
            "--interpolate-missing",
            "--length-policy",
            "--truth-topic",
            "--rate",
            "--concurrency",
            "--repeat",
            "--missing",
            "--channel-lag",
            "--drop-channel",
            "--shuffle",
            "--pattern-seed");

    private final ReplayCommand cmd;

    RecordingReplayRun(ReplayCommand cmd) {
        this.cmd = cmd;
    }

    Integer call() throws IOException {
        CommandLine cl = cmd.spec.commandLine();
        for (String o : SERIES_ONLY) {
            if (cl.getParseResult().hasMatchedOption(o)) {
                throw cmd.usage(o + " applies to data set replays, not to --recordings");
            }
        }
        double speed = speed();
        if (cmd.samplingRate != null && !(cmd.samplingRate > 0 && Double.isFinite(cmd.samplingRate))) {
            throw cmd.usage("--sampling-rate must be a positive number of samples per second, got " + cmd.samplingRate);
        }
        if (cmd.topic.isBlank()) {
            throw cmd.usage("--topic must not be blank");
        }
        Map<String, Object> user = cmd.userProperties();
        Duration timeout = cmd.timeout();
        Map<String, Object> config = cmd.producerConfig(user, timeout);
        RecordingSet all = RecordingSet.read(cmd.recordings, cmd.samplingRate == null ? Double.NaN : cmd.samplingRate);
        RecordingSet set;
        try {
            set = all.split(cmd.split.id());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(cmd.recordings + ": " + e.getMessage(), e);
        }
        if (set.recordings().isEmpty()) {
            throw new IllegalArgumentException(
                    cmd.recordings + ": no recording is in the " + cmd.split.id() + " split");
        }
        CommandLines.check(cmd.spec, cmd.recordings.toString(), () -> RecordingReplay.requireRates(set));
        cmd.preflight(user, timeout);
        RecordingReplay.Settings settings = new RecordingReplay.Settings(cmd.topic, speed);
        long total = RecordingReplay.values(set);
        RecordingReplay.Summary summary;
        String task = "replay " + cmd.recordings.getFileName() + "/" + cmd.split.id();
        try (Progress progress = Progress.bar(task, total, !cmd.json)) {
            summary = RecordingReplay.run(set, settings, config, progress);
        }
        String shownSpeed = Double.isInfinite(speed) ? "max" : cmd.speed == null ? "1" : cmd.speed;
        Result r = new Result(
                cmd.recordings.toString(),
                cmd.split.id(),
                cmd.bootstrap,
                cmd.topic,
                summary.recordings(),
                summary.values(),
                summary.missing(),
                Double.isInfinite(speed) ? "max" : speed,
                summary.recordedSeconds(),
                summary.elapsed().toNanos() / 1e9,
                summary.valuesPerSecond(),
                KafkaClientProperties.masked(user));
        return CommandOutput.print(
                cmd.spec,
                cmd.json,
                r,
                String.format(
                        Locale.ROOT,
                        "replayed %d recordings (%d values%s, %.1f s recorded) of %s/%s to %s at speed %s in %.2f s: %.0f"
                                + " values/s",
                        summary.recordings(),
                        summary.values(),
                        summary.missing() == 0 ? "" : ", " + summary.missing() + " missing not sent",
                        summary.recordedSeconds(),
                        cmd.recordings,
                        cmd.split.id(),
                        cmd.topic,
                        shownSpeed,
                        r.elapsedS(),
                        r.valuesPerS()));
    }

    /** {@code replay --recordings --json}'s object; {@code speed} is a factor or "max". */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Result(
            String recordingsDir,
            String split,
            String bootstrap,
            String topic,
            int recordings,
            long values,
            long missingValues,
            Object speed,
            double recordedS,
            double elapsedS,
            double valuesPerS,
            Map<String, String> kafkaProperties) {}

    /** {@code --speed}: a positive factor or {@code max}; 1 when absent. */
    private double speed() {
        if (cmd.speed == null) {
            return 1;
        }
        if (cmd.speed.equalsIgnoreCase("max")) {
            return RecordingReplay.MAX_SPEED;
        }
        double x;
        try {
            x = Double.parseDouble(cmd.speed);
        } catch (NumberFormatException e) {
            throw cmd.usage("--speed must be a positive factor or max, got '" + cmd.speed + "'");
        }
        if (!(x > 0) || Double.isInfinite(x)) {
            throw cmd.usage("--speed must be a positive factor or max, got '" + cmd.speed + "'");
        }
        return x;
    }
}
