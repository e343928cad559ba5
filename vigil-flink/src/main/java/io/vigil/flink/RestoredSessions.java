package io.vigil.flink;

import io.vigil.stream.SeriesSession;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;

/**
 * One pass over the series sessions of restored keyed state, for the keyed stage's operators: counts the sessions
 * of the live models (the current one and, with hot swap, the previous one), keeps the undecided sessions of any
 * other model to be replayed under the current model, and discards those that cannot be replayed (format 1, no
 * prefix).
 *
 * @param current sessions of the current model
 * @param previous sessions of the previous model (0 without one)
 * @param toReplay undecided sessions of another model, kept to be replayed
 * @param discarded undecided sessions of another model without a prefix, cleared
 * @param otherMarkers decided markers of another model (kept; the current model adopts them)
 */
record RestoredSessions(long current, long previous, long toReplay, long discarded, long otherMarkers) {
    /** Sessions kept (all but the discarded ones). */
    long held() {
        return current + previous + toReplay + otherMarkers;
    }

    /**
     * Counts (and prunes) the sessions in {@code backend}.
     *
     * @param hasPrevious whether {@code previousTag} names a live previous model
     */
    static RestoredSessions count(
            KeyedStateBackend<String> backend, long currentTag, boolean hasPrevious, long previousTag)
            throws Exception {
        long[] n = new long[5];
        backend.applyToAllKeys(
                VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE,
                EarlyDecisionFunction.stateDescriptor(),
                (String key, ValueState<SeriesSession> state) -> {
                    SeriesSession s = state.value();
                    if (s == null) {
                        return;
                    }
                    if (s.modelTag() == currentTag) {
                        n[0]++;
                    } else if (hasPrevious && s.modelTag() == previousTag) {
                        n[1]++;
                    } else if (s.phase() != SeriesSession.Phase.COLLECTING) {
                        n[4]++;
                    } else if (s.hasPrefix()) {
                        n[2]++;
                    } else {
                        state.clear();
                        n[3]++;
                    }
                });
        return new RestoredSessions(n[0], n[1], n[2], n[3], n[4]);
    }
}
