package io.vigil.watch;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The event metrics of {@link EventScoring} as the JSON object {@code vigil evaluate --json} prints under {@code
 * "events"}: macro and per-class recall/precision/F1, false alarms per hour, duplicates, detection delays and the
 * confusion of events. Field names are a contract; undefined values (no detections, no hours) are null.
 *
 * @param macro mean over the scored classes that have at least one event of their recall, precision and F1
 * @param perClass metrics per class (every scored class and every alarmed label)
 * @param falseAlarmsPerHour false alarms / recorded hours (null when the hours are 0)
 * @param duplicates alarms of an event's class inside an event that an earlier alarm had already detected
 * @param delay detection delays of the true detections
 * @param eventCount events of the scored classes
 * @param detected events detected (a true detection)
 * @param falseAlarms alarms that are neither a true detection nor a duplicate
 * @param alarms all alarms scored
 * @param hours recorded hours scored
 * @param confusion per true class of the scored events, how many were detected (own label), else first alarmed
 *     inside the event with another label, else {@code missed}
 */
@JsonPropertyOrder({
    "macro",
    "per_class",
    "false_alarms_per_hour",
    "duplicates",
    "delay",
    "event_count",
    "detected",
    "false_alarms",
    "alarms",
    "hours",
    "confusion"
})
public record EventScoringResult(
        @JsonProperty("macro") Metrics macro,
        @JsonProperty("per_class") Map<String, ClassMetrics> perClass,
        @JsonProperty("false_alarms_per_hour") Double falseAlarmsPerHour,
        @JsonProperty("duplicates") long duplicates,
        @JsonProperty("delay") Delay delay,
        @JsonProperty("event_count") long eventCount,
        @JsonProperty("detected") long detected,
        @JsonProperty("false_alarms") long falseAlarms,
        @JsonProperty("alarms") long alarms,
        @JsonProperty("hours") double hours,
        @JsonProperty("confusion") Map<String, Map<String, Long>> confusion) {

    /** The confusion column of events no alarm fell into. */
    public static final String MISSED = "missed";

    public EventScoringResult {
        perClass = Collections.unmodifiableMap(new TreeMap<>(perClass));
        TreeMap<String, Map<String, Long>> c = new TreeMap<>();
        confusion.forEach((k, v) -> c.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
        confusion = Collections.unmodifiableMap(c);
    }

    /** The object under {@code "events"}, as the top level of an evaluation report nests it. */
    public Map<String, Object> asReportEntry() {
        return Map.of("events", this);
    }

    /**
     * Recall, precision and F1 (0 when their denominator is 0).
     *
     * @param f1 harmonic mean of precision and recall
     * @param precision true detections / (true detections + false alarms)
     * @param recall detected events / events
     */
    @JsonPropertyOrder({"f1", "precision", "recall"})
    public record Metrics(
            @JsonProperty("f1") double f1,
            @JsonProperty("precision") double precision,
            @JsonProperty("recall") double recall) {}

    /**
     * One class's metrics and the counts they come from.
     *
     * @param f1 harmonic mean of precision and recall (0 when both are 0)
     * @param precision detected / (detected + false alarms of this label); 0 without alarms
     * @param recall detected / events; 0 without events
     * @param events events of this class
     * @param detected events of this class with a true detection
     * @param falseAlarms false alarms carrying this label
     * @param duplicates duplicate alarms on events of this class
     */
    @JsonPropertyOrder({"f1", "precision", "recall", "events", "detected", "false_alarms", "duplicates"})
    public record ClassMetrics(
            @JsonProperty("f1") double f1,
            @JsonProperty("precision") double precision,
            @JsonProperty("recall") double recall,
            @JsonProperty("events") long events,
            @JsonProperty("detected") long detected,
            @JsonProperty("false_alarms") long falseAlarms,
            @JsonProperty("duplicates") long duplicates) {}

    /**
     * Detection delays (trigger − event start) of the true detections, nearest-rank median and 90th percentile (an
     * observed delay each); null without detections (seconds also without a sampling rate).
     *
     * @param medianSamples median delay in samples
     * @param p90Samples 90th percentile delay in samples
     * @param medianFraction median of delay / event length (length = end − start + 1)
     * @param p90Fraction 90th percentile of delay / event length
     * @param medianSeconds median delay in seconds, when every detected event's recording has a sampling rate
     * @param p90Seconds 90th percentile delay in seconds, likewise
     */
    @JsonPropertyOrder({
        "median_samples",
        "p90_samples",
        "median_fraction",
        "p90_fraction",
        "median_seconds",
        "p90_seconds"
    })
    public record Delay(
            @JsonProperty("median_samples") Double medianSamples,
            @JsonProperty("p90_samples") Double p90Samples,
            @JsonProperty("median_fraction") Double medianFraction,
            @JsonProperty("p90_fraction") Double p90Fraction,
            @JsonProperty("median_seconds") Double medianSeconds,
            @JsonProperty("p90_seconds") Double p90Seconds) {}
}
