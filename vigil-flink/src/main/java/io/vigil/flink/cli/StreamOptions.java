package io.vigil.flink.cli;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.flink.Delivery;
import io.vigil.flink.JobConfig;
import io.vigil.stream.SessionSettings;
import java.time.Duration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The stream-job options {@code vigil run} and {@code vigil demo} share ({@code @Mixin StreamOptions stream;}):
 * delivery guarantee, checkpointing, parallelism and how series arrive. Durations use Flink's syntax ({@code
 * 500ms}, {@code 2s}, {@code 10min}, {@code 1h}).
 */
public final class StreamOptions {
    /** Default of {@code --any-order-cache} ({@code vigil run}, {@code vigil demo}, {@code vigil bench stream}). */
    public static final String ANY_ORDER_CACHE_DEFAULT = "64m";

    /** Help text of {@code --any-order-cache}. */
    public static final String ANY_ORDER_CACHE_HELP =
            "Memory per subtask for the conditioned state of undecided multichannel "
                    + "(any-order) series, e.g. 256m; with --state-backend rocksdb a record of a series not held here rebuilds "
                    + "it from all the series' values so far (decisions are the same); 0 = none (default: ${DEFAULT-VALUE}).";

    @Option(
            names = "--delivery",
            paramLabel = "exactly-once|at-least-once",
            defaultValue = "exactly-once",
            description = "Delivery guarantee of the decisions and dead letters: Kafka transactions committed per "
                    + "checkpoint, or flush per checkpoint without transactions (default: ${DEFAULT-VALUE}).")
    public String delivery;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "Checkpoint interval; exactly-once decisions become visible at checkpoints "
                    + "(default: ${DEFAULT-VALUE}).")
    public String checkpointInterval;

    @Option(
            names = "--parallelism",
            paramLabel = "N",
            defaultValue = "0",
            description = "Job parallelism; 0 = the environment's default (the cores of an embedded cluster).")
    public int parallelism;

    @Option(
            names = "--idle-timeout",
            paramLabel = "DURATION",
            defaultValue = "10min",
            description = "A series that receives nothing this long expires: 'abandoned' record if undecided, "
                    + "buffered samples dead-lettered, state cleared (default: ${DEFAULT-VALUE}).")
    String idleTimeout;

    @Option(
            names = "--reorder-window",
            paramLabel = "N",
            defaultValue = "" + SessionSettings.DEFAULT_REORDER_WINDOW,
            description = "Samples may arrive up to N ahead of the next expected t and are reordered; further "
                    + "ahead they are dead-lettered (1.." + SessionSettings.MAX_REORDER_WINDOW
                    + ", default: ${DEFAULT-VALUE}).")
    int reorderWindow;

    @Option(
            names = "--range-guard",
            paramLabel = "K|off",
            defaultValue = "8",
            description = "Mark a record \"out_of_range\":true when a sample it rests on lies beyond ±K standard "
                    + "deviations of the training series at its t (counted in metric outOfRange; --out-of-range says "
                    + "what the classifier sees of it); off = no check (default: ${DEFAULT-VALUE}).")
    String rangeGuard;

    @Option(
            names = "--out-of-range",
            paramLabel = "reject|clip|keep",
            defaultValue = "reject",
            description = "What a sample beyond the range guard does: reject = dead-lettered as out_of_range, the "
                    + "series goes on with that value missing (observed in any order from then on); clip = used at the "
                    + "nearer bound, mean ± K·sd; keep = used as it is. The record counts such samples in "
                    + "out_of_range_samples (default: ${DEFAULT-VALUE}).")
    String outOfRange;

    @Option(
            names = "--any-order",
            description = "Observe univariate series in any order too, as multichannel series always are: no reorder "
                    + "window, a sample that never comes is never conditioned on, a series ends on all its samples, "
                    + "its end record or its idle timeout (default: in t order, as a prefix).")
    boolean anyOrder;

    @Option(
            names = "--any-order-cache",
            paramLabel = "SIZE",
            defaultValue = ANY_ORDER_CACHE_DEFAULT,
            description = ANY_ORDER_CACHE_HELP)
    String anyOrderCache;

    @Option(
            names = "--dead-letter-max-bytes",
            paramLabel = "N",
            defaultValue = "65536",
            description = "Bytes of a rejected record's value copied into its dead letter (0..262144; the whole value "
                    + "is still identified by its size and SHA-256), so one huge bad record cannot block the job "
                    + "(default: ${DEFAULT-VALUE}).")
    int deadLetterMaxBytes;

    /** The delivery guarantee. */
    Delivery delivery(CommandLine cl) {
        try {
            return Delivery.fromCliName(delivery);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--delivery: " + e.getMessage());
        }
    }

    /** The session settings. */
    SessionSettings session(CommandLine cl) {
        try {
            return new SessionSettings(
                    reorderWindow,
                    duration(cl, "--idle-timeout", idleTimeout),
                    rangeGuard(cl, rangeGuard),
                    anyOrder,
                    size(cl, "--any-order-cache", anyOrderCache),
                    outOfRangePolicy(cl, outOfRange));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
    }

    /** Applies delivery, session, parallelism and checkpointing to a configuration. */
    public JobConfig apply(CommandLine cl, JobConfig cfg) {
        if (parallelism < 0) {
            throw new CommandLine.ParameterException(cl, "--parallelism must be >= 0, got " + parallelism);
        }
        Duration interval = duration(cl, "--checkpoint-interval", checkpointInterval);
        if (interval.toMillis() < 10) {
            throw new CommandLine.ParameterException(cl, "--checkpoint-interval must be at least 10ms");
        }
        return cfg.toBuilder()
                .delivery(delivery(cl))
                .session(session(cl))
                .parallelism(parallelism)
                .checkpointInterval(interval)
                .deadLetterValueBytes(deadLetterMaxBytes)
                .build();
    }

    /** {@code --out-of-range}, a usage error naming the valid values when unknown. */
    public static OutOfRangePolicy outOfRangePolicy(CommandLine cl, String text) {
        try {
            return OutOfRangePolicy.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--out-of-range: " + e.getMessage());
        }
    }

    /** K of {@code --range-guard}, or {@link SessionSettings#RANGE_GUARD_OFF} for {@code off}. */
    public static double rangeGuard(CommandLine cl, String text) {
        if ("off".equals(text)) {
            return SessionSettings.RANGE_GUARD_OFF;
        }
        double k;
        try {
            k = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            k = Double.NaN;
        }
        if (!(k > 0.0) || !Double.isFinite(k)) {
            throw new CommandLine.ParameterException(
                    cl, "--range-guard: '" + text + "' is neither a positive number of standard deviations nor 'off'");
        }
        return k;
    }

    /** Bytes of a size such as {@code 64m} or {@code 0}. */
    public static long size(CommandLine cl, String option, String text) {
        try {
            return MemorySize.parse(text).getBytes();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CommandLine.ParameterException(
                    cl, option + ": expected a size such as 64m or 1g (or 0), got '" + text + "'");
        }
    }

    public static Duration duration(CommandLine cl, String option, String text) {
        try {
            return TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CommandLine.ParameterException(
                    cl, option + ": '" + text + "' is not a duration (e.g. 500ms, 2s, 10min, 1h)");
        }
    }
}
