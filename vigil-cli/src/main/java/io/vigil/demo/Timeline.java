package io.vigil.demo;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * Named moments of a demo run in seconds since the process started (the JVM's start time, so the JVM's own start-up
 * counts), printed at the end so that a user sees where the time went. The first mark of a name wins; marks may come
 * from any thread.
 */
public final class Timeline {
    private final long originMs;
    private final LongSupplier clock;
    private final Map<String, Long> marks = new LinkedHashMap<>();

    Timeline(long originMs, LongSupplier clock) {
        this.originMs = originMs;
        this.clock = clock;
    }

    /** A timeline measured from this JVM's start on the wall clock. */
    public static Timeline sinceProcessStart() {
        return new Timeline(ManagementFactory.getRuntimeMXBean().getStartTime(), System::currentTimeMillis);
    }

    /** Records {@code moment} now, unless it was recorded before. */
    public void mark(String moment) {
        mark(moment, clock.getAsLong());
    }

    /** Records {@code moment} at {@code epochMillis} on the wall clock, unless it was recorded before. */
    public void mark(String moment, long epochMillis) {
        synchronized (marks) {
            marks.putIfAbsent(moment, epochMillis);
        }
    }

    /** The moments in the order they were first recorded, in seconds since the process started. */
    public Map<String, Double> seconds() {
        Map<String, Double> s = new LinkedHashMap<>();
        synchronized (marks) {
            marks.forEach((k, v) -> s.put(k, (v - originMs) / 1e3));
        }
        return s;
    }

    /** One line, e.g. {@code "broker ready 2.1 s, trained 5.0 s, first decision 7.9 s"}. */
    public String line() {
        StringJoiner j = new StringJoiner(", ");
        seconds().forEach((k, v) -> j.add(String.format(Locale.ROOT, "%s %.1f s", k, v)));
        return j.toString();
    }
}
