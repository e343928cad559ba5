package io.vigil.stream;

import java.util.Objects;

/**
 * Which model decides a series while models are swapped under a running job (one instance per parallel instance of
 * the keyed stage). Every new series starts under the <b>current</b> model; a series keeps the model it started
 * under, so a swap from A to B leaves A <b>live</b> as the <b>previous</b> model while series of A are in flight,
 * and A is dropped when its last series ends (decided at t = d, or expired). At most {@value #MAX_LIVE} models are
 * live: when a third model C arrives while A still has series, A is dropped at once and its series are handed to
 * C, whose tracker replays their stored prefix ({@link SeriesTracker} rule 2), so each still gets exactly one
 * decision (from C if A had not decided yet). The same holds for a session whose model is not live at all (state
 * restored from a savepoint of another model).
 *
 * <p>Series are counted per live model with {@link #started} and {@link #ended}; the caller reports every session
 * that appears or disappears (and a session that changes model as one of each). Pure bookkeeping: it knows
 * nothing of Flink or of what a model is.
 *
 * @param <M> the model (the keyed stage keeps a tracker and its workspace)
 */
public final class LiveModels<M> {
    /** Most models deciding at once: the current one and the one series in flight started under. */
    public static final int MAX_LIVE = 2;

    private M current;
    private long currentTag;
    private long currentSeries;
    private M previous;
    private long previousTag;
    private long previousSeries;

    /** Live models with {@code initial} as the current model and no series yet. */
    public LiveModels(M initial, long tag) {
        this.current = Objects.requireNonNull(initial, "initial");
        this.currentTag = tag;
    }

    /** What a swap changed. */
    public record Swap<M>(boolean changed, M kept, M dropped, long droppedSeries) {
        /** No change: the offered model is the current one already. */
        static <M> Swap<M> none() {
            return new Swap<>(false, null, null, 0);
        }
    }

    /** The model new series start under. */
    public M current() {
        return current;
    }

    /** The tag of the current model. */
    public long currentTag() {
        return currentTag;
    }

    /** The previous model, or null when only the current one is live. */
    public M previous() {
        return previous;
    }

    /** The tag of the previous model (meaningless when {@link #previous} is null). */
    public long previousTag() {
        return previousTag;
    }

    /** Models live now (1 or 2). */
    public int liveCount() {
        return previous == null ? 1 : 2;
    }

    /** Series in flight under the model with this tag (0 when it is not live). */
    public long series(long tag) {
        if (tag == currentTag) {
            return currentSeries;
        }
        return previous != null && tag == previousTag ? previousSeries : 0;
    }

    /**
     * The model that handles a session stamped with {@code tag}: its own model while live, else the current one
     * (which replays the session's prefix).
     */
    public M forTag(long tag) {
        return previous != null && tag == previousTag ? previous : current;
    }

    /** A session of the model with this tag appeared (a new series, or one handed to this model). */
    public void started(long tag) {
        if (tag == currentTag) {
            currentSeries++;
        } else if (previous != null && tag == previousTag) {
            previousSeries++;
        }
    }

    /**
     * A session of the model with this tag ended (or was handed to another model).
     *
     * @return true when that was the last series of the previous model, which is now dropped
     */
    public boolean ended(long tag) {
        if (tag == currentTag) {
            currentSeries = Math.max(0, currentSeries - 1);
            return false;
        }
        if (previous != null && tag == previousTag) {
            previousSeries = Math.max(0, previousSeries - 1);
            if (previousSeries == 0) {
                previous = null;
                return true;
            }
        }
        return false;
    }

    /**
     * Makes {@code next} the current model. The current model becomes the previous one while it has series in
     * flight; an older previous model that still has series is dropped (at most {@value #MAX_LIVE} live) and its
     * series go to {@code next} on their next sample or expiry. Offering the current model again changes nothing;
     * offering the previous one makes it current again (its series keep it).
     *
     * @return what changed: the model kept as previous (or null) and the model dropped with its series (or null)
     */
    public Swap<M> swapTo(M next, long tag) {
        Objects.requireNonNull(next, "next");
        if (tag == currentTag) {
            return Swap.none();
        }
        M dropped = null;
        long droppedSeries = 0;
        long nextSeries = 0;
        if (previous != null && tag == previousTag) {
            nextSeries = previousSeries; // back to the previous model: its series stay with it
        } else if (previous != null) {
            dropped = previous;
            droppedSeries = previousSeries;
        }
        if (currentSeries > 0) {
            previous = current;
            previousTag = currentTag;
            previousSeries = currentSeries;
        } else {
            previous = null;
            previousSeries = 0;
        }
        current = next;
        currentTag = tag;
        currentSeries = nextSeries;
        return new Swap<>(true, previous, dropped, droppedSeries);
    }

    /** Live models of restored state: {@code current} and, when {@code previousSeries} > 0, {@code previous}. */
    public static <M> LiveModels<M> restored(
            M current, long currentTag, long currentSeries, M previous, long previousTag, long previousSeries) {
        LiveModels<M> m = new LiveModels<>(current, currentTag);
        m.currentSeries = currentSeries;
        if (previous != null && previousSeries > 0 && previousTag != currentTag) {
            m.previous = previous;
            m.previousTag = previousTag;
            m.previousSeries = previousSeries;
        }
        return m;
    }
}
