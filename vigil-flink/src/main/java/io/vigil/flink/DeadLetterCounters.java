package io.vigil.flink;

import io.vigil.stream.DeadLetterReason;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * One Flink counter per dead-letter reason ({@code deadLetters_<code>}), registered up front so every reason
 * shows as 0 until it happens; shared by the decode stage and the keyed stage.
 */
final class DeadLetterCounters {
    private final Map<String, Counter> byCode = new HashMap<>();

    DeadLetterCounters(MetricGroup metrics) {
        for (DeadLetterReason r : DeadLetterReason.values()) {
            byCode.put(r.code(), metrics.counter("deadLetters_" + r.code()));
        }
    }

    /** Counts one dead letter with this {@link DeadLetterReason#code()}. */
    void inc(String code) {
        Counter c = byCode.get(code);
        if (c == null) {
            throw new IllegalArgumentException("unknown dead-letter reason code '" + code + "'");
        }
        c.inc();
    }
}
