package io.vigil.cli;

import io.vigil.data.recording.RecordingSet;
import io.vigil.data.synthetic.EventStream;
import io.vigil.demo.StreamDemo;
import io.vigil.demo.Timeline;
import io.vigil.demo.WatchDemo;
import io.vigil.early.Certification;
import io.vigil.early.DecisionParams;
import io.vigil.flink.JobConfig;
import io.vigil.flink.WatchAlarm;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import io.vigil.util.Progress;
import io.vigil.watch.EventScoringResult;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import picocli.CommandLine;

/**
 * {@code vigil demo --kind watch}: the watch mode ({@code vigil run --watch}, docs/watch.md) on the demo's embedded
 * defaults. Generates an event stream ({@code vigil generate --kind event-stream}'s generator: {@link #RECORDINGS}
 * recordings of {@link #LENGTH} samples at 50 Hz), trains a window model on its training recordings (as {@code vigil
 * train --recordings DIR --selection given --cv 10 --max-background 300} would, with the demo's calibration), replays
 * the test recordings as keyed streams into the watch job ({@link WatchDemo}), prints each alarm as it is committed
 * (key, label, trigger, delay, true or false against the generated events) and ends with the event metrics of {@code
 * vigil evaluate --recordings}: macro F1, false alarms per hour and detection delay.
 */
final class DemoWatch {
    /** The {@code --kind} of the watch demo. */
    static final String KIND = "watch";

    /** Recordings generated ({@code generate --kind event-stream}'s default); about 30 % are the test keys. */
    static final int RECORDINGS = 10;

    /** Samples per recording (200 s at 50 Hz, {@code generate}'s default). */
    static final int LENGTH = 10_000;

    /** Background windows kept for training: enough for the background class, few enough to train in seconds. */
    static final int MAX_BACKGROUND = 300;

    /** Default replay rate over all keys (values/s): 20 × the recordings' real time for the three test keys. */
    static final int DEFAULT_RATE = 3_000;

    /** Options of the series demo that mean nothing here. */
    private static final List<String> SERIES_ONLY = List.of(
            "--data",
            "--dataset",
            "--train",
            "--test",
            "--interpolate-missing",
            "--length-policy",
            "--train-size",
            "--series",
            "--z-normalize",
            "--concurrency");

    private DemoWatch() {}

    static int run(DemoCommand d, Timeline timeline) throws Exception {
        CommandLine cl = d.spec.commandLine();
        CommandLine.ParseResult parsed = cl.getParseResult();
        check(d, cl);
        double rate = parsed.hasMatchedOption("--rate") ? d.rate : DEFAULT_RATE;
        int printRate = parsed.hasMatchedOption("--print") ? d.printRate : Integer.MAX_VALUE;
        var trainOptions = d.trainOptions();
        OptionalInt metricsPort = d.metricsPort.port(cl);
        OptionalInt dashboardPort = d.dashboard.port(cl);
        PrintWriter out = cl.getOut();
        PrintWriter live = d.json ? cl.getErr() : out;
        RecordingSet all = EventStream.generate(RECORDINGS, LENGTH, d.seed);
        RecordingSet train = all.split("train");
        RecordingSet test = all.split("test");
        timeline.mark("data ready");
        live.printf(
                Locale.ROOT,
                "vigil demo: watch: generated event stream (vigil generate --kind event-stream --seed %d): %d "
                        + "recordings of %,d samples at %.0f Hz, %d to train on, %d replayed as keys with %d events "
                        + "(%s)%n",
                d.seed,
                RECORDINGS,
                LENGTH,
                EventStream.SAMPLING_RATE_HZ,
                train.recordings().size(),
                test.recordings().size(),
                test.events().size(),
                String.join(", ", EventStream.LABELS));
        int slots = d.stream.parallelism > 0
                ? d.stream.parallelism
                : Runtime.getRuntime().availableProcessors();
        WatchDemo.Result r;
        DecisionParams params;
        try (StreamDemo.Infrastructure infra =
                StreamDemo.Infrastructure.start(d.partitions, slots, d.webUi.port(), metricsPort, timeline)) {
            long t0 = System.nanoTime();
            VigilModel model;
            try (Progress progress = Progress.bar("train window model", 1, !d.json)) {
                model = WatchDemo.train(train, trainOptions, MAX_BACKGROUND, d.seed, progress);
            }
            timeline.mark("trained");
            params = CommandLines.usage(d.spec, () -> d.decision.overrides(d.tau.tau))
                    .resolve(model);
            WindowSection w = WindowModels.requireWindowModel(model, "the demo's model");
            Certification certification = Certification.of(model, params);
            live.printf(
                    Locale.ROOT,
                    "trained a window model in %.1f s as vigil train --recordings DIR --selection %s --cv %s "
                            + "--max-background %d would: windows of %d samples every %d, %d training windows, "
                            + "classes %s; watching on loopback Kafka + Flink MiniCluster (%s, %s)%n",
                    (System.nanoTime() - t0) / 1e9,
                    d.selection,
                    d.cv,
                    MAX_BACKGROUND,
                    model.seriesLength(),
                    w.stride(),
                    model.trainSize(),
                    model.classNames(),
                    d.stream.delivery,
                    certification.describe());
            live.flush();
            JobConfig job = d.stream.apply(
                    cl,
                    JobConfig.builder("127.0.0.1:0", "watch-values", "alarms", "dead-letters", params)
                            .build());
            if (d.webUi.announcement() != null) {
                live.println(d.webUi.announcement());
            }
            if (d.metricsPort.announcement() != null) {
                live.println(d.metricsPort.announcement());
            }
            DemoCommand.LivePrinter printer = new DemoCommand.LivePrinter(live, printRate);
            r = WatchDemo.run(
                    new WatchDemo.Settings(
                            test, model, job, rate, d.partitions, StreamOptions.duration(cl, "--timeout", d.timeout)),
                    infra,
                    l -> printer.line(() -> line(l)),
                    !d.json,
                    dashboardPort,
                    url -> {
                        live.println("dashboard at " + url + " (the alarms listed as they fire)");
                        live.flush();
                    });
            printer.flushSkipped();
        }
        timeline.mark("stopped");
        if (d.json) {
            Map<String, Object> summary = summary(r, params, rate);
            summary.put("timeline_s", timeline.seconds());
            out.println(Json.line(summary));
        } else {
            out.println(text(r));
            out.println("seconds since start: " + timeline.line());
        }
        out.flush();
        return r.matchesEvaluate() ? 0 : VigilCli.EXIT_FAILURE;
    }

    /** Usage errors (exit 2) before anything starts: series-only options, τ, partitions, rate. */
    private static void check(DemoCommand d, CommandLine cl) {
        CommandLine.ParseResult parsed = cl.getParseResult();
        for (String option : SERIES_ONLY) {
            if (parsed.hasMatchedOption(option)) {
                throw new CommandLine.ParameterException(
                        cl, option + " is for the series demo; --kind watch generates its own event stream");
            }
        }
        if (d.tau.tau != null && !(d.tau.tau > 0 && d.tau.tau < 1)) {
            throw new CommandLine.ParameterException(cl, "--tau must lie strictly between 0 and 1, got " + d.tau.tau);
        }
        if (d.partitions < 1 || d.rate < 0) {
            throw new CommandLine.ParameterException(cl, "--partitions must be >= 1 and --rate >= 0");
        }
    }

    /** One live alarm line: key, label, trigger, delay, what it is certified at, true or false. */
    static String line(WatchDemo.Line l) {
        WatchAlarm a = l.alarm();
        return String.format(
                Locale.ROOT,
                "  %-8s %-9s trigger %,7d  delay %3d samples%s  %-22s  %s",
                a.key,
                a.label,
                a.trigger,
                a.delaySamples,
                Double.isFinite(a.delayMs) ? String.format(Locale.ROOT, " (%.2f s)", a.delayMs / 1e3) : "",
                a.certified
                        ? String.format(Locale.ROOT, "certified at %.2f, %s", a.target, a.guarantee)
                        : "not " + "certified",
                l.verdict());
    }

    /** The closing summary in words. */
    static String text(WatchDemo.Result r) {
        EventScoringResult e = r.events();
        EventScoringResult.Delay delay = e.delay();
        return String.format(
                Locale.ROOT,
                "%d keys, %,d values: %d alarms for %d events, %d true, %d false, %d duplicate; macro F1 %.3f "
                        + "(precision %.3f, recall %.3f), %s false alarms/h over %.2f h, delay median %s; flood "
                        + "guard held back %d; %d dead letters; %.0f values/s; %s",
                r.keys(),
                r.values(),
                e.alarms(),
                e.eventCount(),
                e.detected(),
                e.falseAlarms(),
                e.duplicates(),
                e.macro().f1(),
                e.macro().precision(),
                e.macro().recall(),
                e.falseAlarmsPerHour() == null ? "–" : String.format(Locale.ROOT, "%.1f", e.falseAlarmsPerHour()),
                e.hours(),
                delay.medianSamples() == null
                        ? "– (nothing detected)"
                        : String.format(
                                Locale.ROOT,
                                "%.0f samples (%.2f s, %.2f of the event), p90 %.0f",
                                delay.medianSamples(),
                                delay.medianSeconds() == null ? Double.NaN : delay.medianSeconds(),
                                delay.medianFraction(),
                                delay.p90Samples()),
                r.suppressed(),
                r.deadLetters(),
                r.valuesPerSecond(),
                r.matchesEvaluate()
                        ? "every alarm equals vigil evaluate --recordings'"
                        : "MISMATCH with vigil evaluate --recordings: " + r.mismatches());
    }

    /** The {@code --json} object. */
    static Map<String, Object> summary(WatchDemo.Result r, DecisionParams p, double rate) {
        EventScoringResult e = r.events();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", KIND);
        m.put("keys", r.keys());
        m.put("values", r.values());
        m.put("alarms", e.alarms());
        m.put("events", e.eventCount());
        m.put("detected", e.detected());
        m.put("false_alarms", e.falseAlarms());
        m.put("duplicates", e.duplicates());
        m.put("f1", e.macro().f1());
        m.put("precision", e.macro().precision());
        m.put("recall", e.macro().recall());
        m.put("false_alarms_per_hour", e.falseAlarmsPerHour());
        m.put("hours", e.hours());
        m.put("delay", e.delay());
        m.put("suppressed", r.suppressed());
        m.put("dead_letters", r.deadLetters());
        m.put("matches_evaluate", r.matchesEvaluate());
        m.put("mismatches", r.mismatches());
        m.put("values_per_s", r.valuesPerSecond());
        m.put("elapsed_s", r.elapsed().toMillis() / 1e3);
        m.put("rate", rate);
        m.put("tau", p.tau());
        return m;
    }
}
