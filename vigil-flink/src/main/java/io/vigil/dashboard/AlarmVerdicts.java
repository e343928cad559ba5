package io.vigil.dashboard;

import io.vigil.data.recording.RecordingEvent;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Judges alarms one at a time, as they arrive, against the known events of their keys, the way docs/recordings.md
 * scores them: {@link #TRUE} for the first alarm of an event's label whose trigger lies inside that event, {@link
 * #DUPLICATE} for a later one, {@link #FALSE} for any other. It gives the verdicts {@code vigil evaluate --recordings}
 * would when each key's alarms arrive in trigger order (a key's alarms do, in a keyed stream). For the watch demo's
 * live lines and the dashboard's alarm list. Not thread-safe.
 */
public final class AlarmVerdicts {
    /** The first alarm of an event's label inside that event. */
    public static final String TRUE = "true";

    /** A later alarm of an already detected event's label inside it. */
    public static final String DUPLICATE = "duplicate";

    /** Any other alarm. */
    public static final String FALSE = "false";

    private final Map<String, List<RecordingEvent>> events;
    private final Set<RecordingEvent> detected = new HashSet<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();

    /** @param events the true events per key (recording name); a key without any has only false alarms */
    public AlarmVerdicts(Map<String, List<RecordingEvent>> events) {
        this.events = Map.copyOf(events);
        counts.put(TRUE, 0L);
        counts.put(DUPLICATE, 0L);
        counts.put(FALSE, 0L);
    }

    /** The verdict on an alarm of {@code key} for {@code label} triggered at sample {@code trigger} (1-based). */
    public String judge(String key, String label, long trigger) {
        RecordingEvent hit = null;
        for (RecordingEvent e : events.getOrDefault(key, List.of())) {
            if (e.contains(trigger)) {
                hit = e;
                break;
            }
        }
        String verdict = hit == null || !hit.label().equals(label) ? FALSE : detected.add(hit) ? TRUE : DUPLICATE;
        counts.merge(verdict, 1L, Long::sum);
        return verdict;
    }

    /** How many alarms got each verdict so far ({@code true}, {@code duplicate}, {@code false}). */
    public Map<String, Long> counts() {
        return new LinkedHashMap<>(counts);
    }
}
