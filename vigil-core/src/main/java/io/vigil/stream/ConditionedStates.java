package io.vigil.stream;

import java.util.HashMap;
import java.util.Map;

/**
 * A bounded cache of the conditioned states of series observed in any order, for one thread (one keyed-stage
 * subtask), in front of a session store that keeps only their values. A session read back from a serialising store
 * (RocksDB; the heap backend, which hands out a copy while a checkpoint of it is being written) has its values but
 * not their conditioned state, which the tracker would otherwise rebuild from all of them at every record. The store
 * stays the source of truth: an entry is used only for a session holding exactly the values it was built from — the
 * same model tag and the same (index, value) pairs in the same arrival order, compared in full, bit for bit — so no
 * entry can be stale: a series id reused after its session ended, a restore or rollback to earlier state, or a model
 * upgrade all miss and rebuild, and decisions are those of a rebuild.
 *
 * <p>Bounded by an estimate of the bytes of its entries ({@link SeriesTracker#conditionedStateBytes}). While full, a
 * series not yet in it is not admitted and is rebuilt per record as without a cache: series arriving round-robin (as
 * sensors report) would make a least-recently-used cache miss on every record once they outnumber it, whereas this
 * way the series it holds keep hitting. Entries leave when their series decides, ends or expires ({@link #keep} with
 * no session to keep).
 */
public final class ConditionedStates {
    /** Default budget per subtask ({@code --any-order-cache}): 64 MiB, over 1,000 series of 3 × 315 values. */
    public static final long DEFAULT_BUDGET_BYTES = 64L << 20;

    /** What {@link #attach} did for a session. */
    public enum Lookup {
        /** The session's conditioned state was attached from the cache. */
        HIT,
        /** The session has values but no state here: the tracker rebuilds it from them. */
        REBUILD,
        /** Nothing to do: no session, a prefix series, a decided one, no values yet, or its state is already held. */
        NONE
    }

    private record Entry(long tag, ObservedValues values, long bytes) {}

    private final long budget;
    private final Map<String, Entry> entries = new HashMap<>();
    private long bytes;

    /**
     * An empty cache.
     *
     * @param budgetBytes the estimated bytes its entries may take, ≥ 0 (0: nothing is cached)
     */
    public ConditionedStates(long budgetBytes) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("cache budget must be ≥ 0 bytes, got " + budgetBytes);
        }
        this.budget = budgetBytes;
    }

    /**
     * Before a record of {@code series} is processed: gives the session read from the store the conditioned state
     * cached for exactly its values. The series' entry leaves the cache either way (its state changes with the record;
     * {@link #keep} puts it back), so a failure in between leaves nothing behind.
     */
    public Lookup attach(String series, SeriesSession session) {
        Entry e = remove(series);
        if (session == null || !session.isAnyOrder() || session.phase() != SeriesSession.Phase.COLLECTING) {
            return Lookup.NONE;
        }
        ObservedValues v = session.observed();
        if (v.subset() != null || v.arrivals() == 0) {
            return Lookup.NONE; // the store handed back the object it was given (heap backend), or nothing to build
        }
        if (e != null && e.tag() == session.modelTag() && e.values().sameArrivals(v)) {
            v.subset(e.values().subset());
            return Lookup.HIT;
        }
        return Lookup.REBUILD;
    }

    /**
     * After the record: keeps the conditioned state of a session still collecting in any order, if it fits; otherwise
     * (null: the series ended and its state is cleared; decided; a prefix series) forgets the series.
     *
     * @param tracker the tracker that processed the record (estimates the entry's bytes)
     */
    public void keep(String series, SeriesSession session, SeriesTracker tracker) {
        remove(series);
        if (session == null
                || !session.isAnyOrder()
                || session.phase() != SeriesSession.Phase.COLLECTING
                || session.observed().subset() == null) {
            return;
        }
        long size = tracker.conditionedStateBytes();
        if (bytes + size > budget) {
            return;
        }
        entries.put(series, new Entry(session.modelTag(), session.observed(), size));
        bytes += size;
    }

    /** Series held. */
    public int size() {
        return entries.size();
    }

    /** Estimated bytes of the entries held. */
    public long bytes() {
        return bytes;
    }

    private Entry remove(String series) {
        Entry e = entries.remove(series);
        if (e != null) {
            bytes -= e.bytes();
        }
        return e;
    }
}
