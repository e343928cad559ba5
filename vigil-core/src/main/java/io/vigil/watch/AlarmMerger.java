package io.vigil.watch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns one key's event-class window decisions into alarms, one per event (docs/watch.md). Decisions of one class
 * form <em>groups</em>: a decision whose window overlaps in time the span of a group's windows (earliest start to
 * latest end) joins it and raises nothing; a decision that overlaps none raises a new alarm and opens a group if the
 * key is armed for the class under the {@link RearmPolicy}, and otherwise joins the class's latest group (or, when none
 * is open, is dropped). A group stays open while a window that could still overlap it — open, or not yet opened, with
 * start ≤ the group's latest end — may decide; {@link #release(long)} closes the others. An alarm's event start is the
 * start of the window whose decision fired and its trigger that decision's sample.
 *
 * <p>Armed for class c means: {@link RearmPolicy#WINDOWS_CLOSED} — no group of c is open (every window that overlapped
 * the event has closed); {@link RearmPolicy#IMMEDIATE} — always; {@code refractory:N} — the decision's trigger is at
 * least N samples after the last alarm of c. Single-threaded; its state is bounded by ⌈D / S⌉ + 1 groups per class.
 */
public final class AlarmMerger {
    private final String key;
    private final RearmPolicy rearm;
    private final List<List<Group>> groups;
    private final long[] lastTrigger;
    private long merged;
    private long dropped;
    private long alarms;

    /** One group of overlapping decisions of a class. */
    private static final class Group {
        long firstStart;
        long lastEnd;
        int windows;

        Group(WindowDecision d) {
            this(d.windowStart(), d.windowEnd(), 1);
        }

        Group(long firstStart, long lastEnd, int windows) {
            this.firstStart = firstStart;
            this.lastEnd = lastEnd;
            this.windows = windows;
        }

        boolean overlaps(WindowDecision d) {
            return d.windowStart() <= lastEnd && firstStart <= d.windowEnd();
        }

        void join(WindowDecision d) {
            firstStart = Math.min(firstStart, d.windowStart());
            lastEnd = Math.max(lastEnd, d.windowEnd());
            windows++;
        }
    }

    /**
     * A merger for a key of a model with {@code classes} classes.
     *
     * @param key the stream key alarms name
     * @param classes the model's number of classes (decisions carry their class index)
     * @param rearm the re-arm policy
     */
    public AlarmMerger(String key, int classes, RearmPolicy rearm) {
        if (classes < 1) {
            throw new IllegalArgumentException("classes must be ≥ 1, got " + classes);
        }
        this.key = key;
        this.rearm = rearm;
        this.groups = new ArrayList<>(classes);
        for (int c = 0; c < classes; c++) {
            groups.add(new ArrayList<>(2));
        }
        this.lastTrigger = new long[classes];
        Arrays.fill(lastTrigger, Long.MIN_VALUE / 2);
    }

    /**
     * Offers an event-class window decision.
     *
     * @param d the decision (its {@link WindowDecision#event()} must be true)
     * @param delayMs the alarm's delay in ms if it fires (NaN when unknown)
     * @return the alarm the decision raises, or null when it is merged into an open alarm or dropped
     */
    public AlarmEvent offer(WindowDecision d, double delayMs) {
        if (!d.event()) {
            throw new IllegalArgumentException("only event-class decisions make alarms; got " + d.label());
        }
        List<Group> of = groups.get(d.classIndex());
        for (Group g : of) {
            if (g.overlaps(d)) {
                g.join(d);
                merged++;
                return null;
            }
        }
        boolean armed =
                switch (rearm.kind()) {
                    case WINDOWS_CLOSED -> of.isEmpty();
                    case IMMEDIATE -> true;
                    case REFRACTORY -> d.trigger() - lastTrigger[d.classIndex()] >= rearm.samples();
                };
        if (!armed) {
            if (of.isEmpty()) {
                dropped++;
            } else {
                of.get(of.size() - 1).join(d);
                merged++;
            }
            return null;
        }
        of.add(new Group(d));
        lastTrigger[d.classIndex()] = d.trigger();
        alarms++;
        return new AlarmEvent(
                key,
                d.label(),
                d.windowStart(),
                d.trigger(),
                d.trigger() - d.windowStart(),
                delayMs,
                d.windowStart(),
                d.windowLength(),
                d.certified(),
                d.guarantee(),
                d.target(),
                d.reliability());
    }

    /**
     * Closes the groups no window can overlap any more.
     *
     * @param oldestLive the smallest start of a window that is open or not yet opened: groups ending before it close
     */
    public void release(long oldestLive) {
        // Called for every value: indexed loops, so nothing is allocated (no iterator, no capturing lambda).
        for (int c = 0; c < groups.size(); c++) {
            List<Group> of = groups.get(c);
            for (int i = of.size() - 1; i >= 0; i--) {
                if (of.get(i).lastEnd < oldestLive) {
                    of.remove(i);
                }
            }
        }
    }

    /** Closes every group (the key's windows were discarded). */
    public void releaseAll() {
        for (List<Group> of : groups) {
            of.clear();
        }
    }

    /** Open groups over all classes: alarms whose events may still be extended by merged decisions. */
    public int openGroups() {
        int n = 0;
        for (List<Group> of : groups) {
            n += of.size();
        }
        return n;
    }

    /** Whether the key is armed for class {@code classIndex} at sample {@code sample} for a non-overlapping decision. */
    public boolean armed(int classIndex, long sample) {
        return switch (rearm.kind()) {
            case WINDOWS_CLOSED -> groups.get(classIndex).isEmpty();
            case IMMEDIATE -> true;
            case REFRACTORY -> sample - lastTrigger[classIndex] >= rearm.samples();
        };
    }

    /** Alarms raised so far. */
    public long alarms() {
        return alarms;
    }

    /** Decisions merged into an open alarm so far. */
    public long merged() {
        return merged;
    }

    /** Decisions dropped in a refractory period with no group open. */
    public long dropped() {
        return dropped;
    }

    /**
     * The merger's state as numbers, for a checkpoint: alarms, merged, dropped, the last trigger per class, then per
     * class the number of open groups and each group's first start, last end and windows.
     */
    long[] exportState() {
        int n = 3 + lastTrigger.length + groups.size() + 3 * openGroups();
        long[] out = new long[n];
        int k = 0;
        out[k++] = alarms;
        out[k++] = merged;
        out[k++] = dropped;
        for (long t : lastTrigger) {
            out[k++] = t;
        }
        for (List<Group> of : groups) {
            out[k++] = of.size();
            for (Group g : of) {
                out[k++] = g.firstStart;
                out[k++] = g.lastEnd;
                out[k++] = g.windows;
            }
        }
        return out;
    }

    /**
     * Restores {@link #exportState()}'s numbers.
     *
     * @throws IllegalArgumentException when they do not fit this merger's classes
     */
    void importState(long[] state) {
        try {
            int k = 0;
            alarms = state[k++];
            merged = state[k++];
            dropped = state[k++];
            for (int c = 0; c < lastTrigger.length; c++) {
                lastTrigger[c] = state[k++];
            }
            for (List<Group> of : groups) {
                of.clear();
                long count = state[k++];
                for (long i = 0; i < count; i++) {
                    Group g = new Group(state[k], state[k + 1], (int) state[k + 2]);
                    k += 3;
                    of.add(g);
                }
            }
            if (k != state.length) {
                throw new IllegalArgumentException("alarm state has " + (state.length - k) + " numbers too many");
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("alarm state is truncated for " + groups.size() + " classes", e);
        }
    }
}
