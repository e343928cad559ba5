package io.vigil.watch;

import io.vigil.api.Vigil;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a recording through a {@link KeyWatcher} offline, value by value in time-major order (sample 1 channels
 * 0..C−1, then sample 2, …; NaN = missing), and closes it at the end as a silent key is closed: the same code the
 * stream job runs per key, so the alarms are those the stream raises for the same values.
 */
public final class WatchReplay {
    private WatchReplay() {}

    /** What a replay produced, in order. */
    public record Result(List<WindowDecision> windows, List<AlarmEvent> alarms, int maxOpenWindows) {
        /** Copies the lists. */
        public Result {
            windows = List.copyOf(windows);
            alarms = List.copyOf(alarms);
        }
    }

    /** The alarms of one recording, {@code values[channel][sample − 1]}, under the key {@code "replay"}. */
    public static List<AlarmEvent> replay(Vigil vigil, WindowSpec spec, double[][] values) {
        return run(vigil, spec, "replay", values).alarms();
    }

    /**
     * Replays one recording under {@code key}.
     *
     * @param values {@code values[channel][sample − 1]}, one row per channel of the model, all of one length
     * @throws IllegalArgumentException when the channels do not match the model or a value is infinite
     */
    public static Result run(Vigil vigil, WindowSpec spec, String key, double[][] values) {
        if (values.length != vigil.channels()) {
            throw new IllegalArgumentException(
                    "the model has " + vigil.channels() + " channels, the recording " + values.length);
        }
        int n = values.length == 0 ? 0 : values[0].length;
        for (int c = 1; c < values.length; c++) {
            if (values[c].length != n) {
                throw new IllegalArgumentException(
                        "channel " + c + " has " + values[c].length + " samples, channel 0 has " + n);
            }
        }
        List<WindowDecision> windows = new ArrayList<>();
        List<AlarmEvent> alarms = new ArrayList<>();
        KeyWatcher w = new KeyWatcher(vigil, spec, key, new WatchListener() {
            @Override
            public void window(WindowDecision decision) {
                windows.add(decision);
            }

            @Override
            public void alarm(AlarmEvent alarm) {
                alarms.add(alarm);
            }
        });
        int maxOpen = 0;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < values.length; c++) {
                w.observe(c, i + 1L, KeyWatcher.NO_TIME, values[c][i]);
                maxOpen = Math.max(maxOpen, w.openWindows());
            }
        }
        w.close();
        return new Result(windows, alarms, maxOpen);
    }
}
