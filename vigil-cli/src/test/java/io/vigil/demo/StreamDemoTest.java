package io.vigil.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When the demo may call its latency processing latency: a paced replay that neither it nor the job fell behind. */
class StreamDemoTest {
    private static final Duration CHECKPOINTS = Duration.ofSeconds(2);

    @Test
    void pacedReplayOnTimeWithAPromptLastDecisionKeptPace() {
        // 128,000 samples at 20,000/s: 6.4 s planned.
        assertTrue(StreamDemo.keptPace(20_000, 128_000, 6_500, 2_500, CHECKPOINTS));
        assertTrue(StreamDemo.keptPace(20_000, 128_000, 8_040, 5_000, CHECKPOINTS));
    }

    @Test
    void anUnpacedReplayNeverKeepsPace() {
        assertFalse(StreamDemo.keptPace(0, 128_000, 1_000, 100, CHECKPOINTS));
    }

    @Test
    void aReplayOrAJobThatFellBehindDidNotKeepPace() {
        assertFalse(StreamDemo.keptPace(20_000, 128_000, 8_100, 1_000, CHECKPOINTS), "the replay was slow");
        assertFalse(StreamDemo.keptPace(20_000, 128_000, 6_400, 5_100, CHECKPOINTS), "the job drained a backlog");
    }
}
