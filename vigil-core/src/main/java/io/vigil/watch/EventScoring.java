package io.vigil.watch;

import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.util.Percentiles;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Scores alarms against labelled events the way a monitoring team counts them (docs/recordings.md, event metrics): an
 * alarm is a <em>true detection</em> when its label equals an event's and its trigger lies in [start, end] and no
 * earlier alarm detected that event; a later such alarm is a <em>duplicate</em> (reported, neither true nor false);
 * every other alarm is a <em>false alarm</em>. Events whose label is not scored are background: alarms inside them are
 * false alarms. Per class: recall = detected / events, precision = detected / (detected + false alarms with that
 * label), F1 their harmonic mean (0/0 = 0); macro = the mean over the scored classes that have events.
 */
public final class EventScoring {
    private EventScoring() {}

    /**
     * One recording's events and the alarms raised on it.
     *
     * @param name the recording (its alarms' key)
     * @param events its labelled events, not overlapping
     * @param alarms alarms raised on it, in any order (scored in trigger order)
     * @param hours its duration in hours (for false alarms per hour)
     * @param samplingRateHz samples per second, NaN when unknown (then delays have no seconds)
     */
    public record ScoredRecording(
            String name, List<RecordingEvent> events, List<Alarm> alarms, double hours, double samplingRateHz) {
        public ScoredRecording {
            Objects.requireNonNull(name, "name");
            events = List.copyOf(events);
            alarms = List.copyOf(alarms);
            if (!(hours >= 0)) {
                throw new IllegalArgumentException("hours must be ≥ 0, got " + hours);
            }
        }
    }

    /** What one alarm was. */
    public enum Kind {
        /** The first alarm of the event's label inside the event. */
        TRUE_DETECTION,
        /** A later alarm of the event's label inside an already detected event. */
        DUPLICATE,
        /** Any other alarm. */
        FALSE_ALARM
    }

    /**
     * The verdict on one alarm.
     *
     * @param alarm the alarm
     * @param kind true detection, duplicate or false alarm
     * @param event the scored event its trigger lies in, or null
     */
    public record Outcome(Alarm alarm, Kind kind, RecordingEvent event) {}

    /**
     * The verdict on every alarm of one recording, in trigger order (ties keep the input order).
     *
     * @param scored labels of the event classes; events of other labels are background
     */
    public static List<Outcome> outcomes(List<RecordingEvent> events, List<Alarm> alarms, Set<String> scored) {
        List<RecordingEvent> ev = events.stream()
                .filter(e -> scored.contains(e.label()))
                .sorted(Comparator.comparingInt(RecordingEvent::start))
                .toList();
        List<Alarm> sorted = new ArrayList<>(alarms);
        sorted.sort(Comparator.comparingLong(Alarm::trigger));
        Set<RecordingEvent> detected = new HashSet<>();
        List<Outcome> out = new ArrayList<>(sorted.size());
        for (Alarm a : sorted) {
            RecordingEvent hit = containing(ev, a.trigger());
            Kind kind;
            if (hit == null || !hit.label().equals(a.label())) {
                kind = Kind.FALSE_ALARM;
            } else if (detected.add(hit)) {
                kind = Kind.TRUE_DETECTION;
            } else {
                kind = Kind.DUPLICATE;
            }
            out.add(new Outcome(a, kind, hit));
        }
        return out;
    }

    /** The event (sorted by start, not overlapping) containing sample {@code i}, or null. */
    private static RecordingEvent containing(List<RecordingEvent> sorted, long i) {
        int lo = 0;
        int hi = sorted.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            RecordingEvent e = sorted.get(mid);
            if (i < e.start()) {
                hi = mid - 1;
            } else if (i > e.end()) {
                lo = mid + 1;
            } else {
                return e;
            }
        }
        return null;
    }

    /**
     * Scores every recording together.
     *
     * @param classes the event classes to score; null or empty scores every label that has an event
     */
    public static EventScoringResult score(List<ScoredRecording> recordings, Collection<String> classes) {
        Set<String> scored = new TreeSet<>();
        if (classes == null || classes.isEmpty()) {
            recordings.forEach(r -> r.events().forEach(e -> scored.add(e.label())));
        } else {
            scored.addAll(classes);
        }
        Map<String, long[]> counts = new TreeMap<>(); // label -> {events, detected, falseAlarms, duplicates}
        scored.forEach(l -> counts.put(l, new long[4]));
        Map<String, Map<String, Long>> confusion = new TreeMap<>();
        List<Double> delays = new ArrayList<>();
        List<Double> fractions = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        boolean allRates = true;
        long duplicates = 0;
        long falseAlarms = 0;
        long alarms = 0;
        double hours = 0;
        for (ScoredRecording r : recordings) {
            hours += r.hours();
            alarms += r.alarms().size();
            Map<RecordingEvent, String> firstLabel = new HashMap<>();
            for (Outcome o : outcomes(r.events(), r.alarms(), scored)) {
                Alarm a = o.alarm();
                if (o.kind() == Kind.TRUE_DETECTION) {
                    firstLabel.put(o.event(), a.label());
                } else if (o.event() != null) {
                    firstLabel.putIfAbsent(o.event(), a.label());
                }
                long[] c = counts.computeIfAbsent(a.label(), l -> new long[4]);
                switch (o.kind()) {
                    case TRUE_DETECTION -> {
                        c[1]++;
                        long delay = a.trigger() - o.event().start();
                        delays.add((double) delay);
                        fractions.add((double) delay / o.event().length());
                        if (Double.isNaN(r.samplingRateHz())) {
                            allRates = false;
                        } else {
                            seconds.add(delay / r.samplingRateHz());
                        }
                    }
                    case DUPLICATE -> {
                        c[3]++;
                        duplicates++;
                    }
                    case FALSE_ALARM -> {
                        c[2]++;
                        falseAlarms++;
                    }
                    default -> throw new IllegalStateException(o.kind().toString());
                }
            }
            for (RecordingEvent e : r.events()) {
                if (scored.contains(e.label())) {
                    counts.get(e.label())[0]++;
                    confusion
                            .computeIfAbsent(e.label(), l -> new TreeMap<>())
                            .merge(firstLabel.getOrDefault(e, EventScoringResult.MISSED), 1L, Long::sum);
                }
            }
        }
        Map<String, EventScoringResult.ClassMetrics> perClass = perClass(counts);
        EventScoringResult.Metrics macro = macro(perClass, scored);
        long eventCount = 0;
        long detected = 0;
        for (String l : scored) {
            eventCount += perClass.get(l).events();
            detected += perClass.get(l).detected();
        }
        EventScoringResult.Delay delay = new EventScoringResult.Delay(
                quantile(delays, 0.5),
                quantile(delays, 0.9),
                quantile(fractions, 0.5),
                quantile(fractions, 0.9),
                allRates ? quantile(seconds, 0.5) : null,
                allRates ? quantile(seconds, 0.9) : null);
        Double faPerHour = hours > 0 ? falseAlarms / hours : null;
        return new EventScoringResult(
                macro,
                perClass,
                faPerHour,
                duplicates,
                delay,
                eventCount,
                detected,
                falseAlarms,
                alarms,
                hours,
                confusion);
    }

    /**
     * Scores the alarms raised on each recording of {@code set} (by recording name = alarm key; a recording without
     * alarms has none), taking hours and sampling rates from the recordings (0 hours when a rate is unknown).
     *
     * @throws IllegalArgumentException when alarms name a recording that is not in the set
     */
    public static EventScoringResult score(
            RecordingSet set, Map<String, List<Alarm>> alarmsByRecording, Collection<String> classes) {
        for (String key : alarmsByRecording.keySet()) {
            if (set.recording(key).isEmpty()) {
                throw new IllegalArgumentException("alarms for " + key + ", which is not a recording of the set");
            }
        }
        List<ScoredRecording> rs = new ArrayList<>();
        for (Recording r : set.recordings()) {
            rs.add(new ScoredRecording(
                    r.name(),
                    set.events(r.name()),
                    alarmsByRecording.getOrDefault(r.name(), List.of()),
                    r.hours().orElse(0),
                    r.samplingRateHz().orElse(Double.NaN)));
        }
        return score(rs, classes);
    }

    /** The labels of a collection of events, in first-seen order (a convenience for callers). */
    public static Set<String> labels(Collection<RecordingEvent> events) {
        Set<String> out = new LinkedHashSet<>();
        events.forEach(e -> out.add(e.label()));
        return out;
    }

    /** Per-class metrics from {events, detected, falseAlarms, duplicates} counts. */
    private static Map<String, EventScoringResult.ClassMetrics> perClass(Map<String, long[]> counts) {
        Map<String, EventScoringResult.ClassMetrics> perClass = new TreeMap<>();
        for (Map.Entry<String, long[]> en : counts.entrySet()) {
            long[] c = en.getValue();
            double recall = ratio(c[1], c[0]);
            double precision = ratio(c[1], c[1] + c[2]);
            double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
            perClass.put(
                    en.getKey(), new EventScoringResult.ClassMetrics(f1, precision, recall, c[0], c[1], c[2], c[3]));
        }
        return perClass;
    }

    /** Mean recall, precision and F1 over the scored classes that have events (zeros when none has). */
    private static EventScoringResult.Metrics macro(
            Map<String, EventScoringResult.ClassMetrics> perClass, Set<String> scored) {
        double sumF1 = 0;
        double sumP = 0;
        double sumR = 0;
        int n = 0;
        for (String l : scored) {
            EventScoringResult.ClassMetrics m = perClass.get(l);
            if (m.events() > 0) {
                n++;
                sumF1 += m.f1();
                sumP += m.precision();
                sumR += m.recall();
            }
        }
        return n == 0
                ? new EventScoringResult.Metrics(0, 0, 0)
                : new EventScoringResult.Metrics(sumF1 / n, sumP / n, sumR / n);
    }

    private static double ratio(long num, long den) {
        return den == 0 ? 0 : (double) num / den;
    }

    private static Double quantile(List<Double> values, double p) {
        return values.isEmpty() ? null : Percentiles.nearestRank(values, p);
    }
}
