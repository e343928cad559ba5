package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ModelShape;
import io.vigil.model.WatchCertificateSection;
import java.util.Set;

/**
 * Codec of {@link WatchCertificateSection}, payload version 1: {@code {"recordings", "hours", "delta",
 * "extra_false_alarms_per_hour", "extra_false_alarms_per_hour_upper", "event_windows", "event_recordings",
 * "event_start_agreement", "event_start_agreement_lower"}}; a bound that could not be computed (too few recordings)
 * is absent.
 */
final class WatchCertificateCodec implements SectionCodec<WatchCertificateSection> {
    private static final Set<String> FIELDS = Set.of(
            "recordings",
            "hours",
            "delta",
            "extra_false_alarms_per_hour",
            "extra_false_alarms_per_hour_upper",
            "event_windows",
            "event_recordings",
            "event_start_agreement",
            "event_start_agreement_lower");

    @Override
    public String name() {
        return WatchCertificateSection.NAME;
    }

    @Override
    public Class<WatchCertificateSection> type() {
        return WatchCertificateSection.class;
    }

    @Override
    public int version() {
        return 1;
    }

    @Override
    public void write(WatchCertificateSection s, ObjectNode out) {
        out.put("recordings", s.recordings());
        out.put("hours", s.hours());
        out.put("delta", s.delta());
        putFinite(out, "extra_false_alarms_per_hour", s.extraFalseAlarmsPerHour());
        putFinite(out, "extra_false_alarms_per_hour_upper", s.extraFalseAlarmsPerHourUpper());
        out.put("event_windows", s.eventWindows());
        out.put("event_recordings", s.eventRecordings());
        putFinite(out, "event_start_agreement", s.eventStartAgreement());
        putFinite(out, "event_start_agreement_lower", s.eventStartAgreementLower());
    }

    private static void putFinite(ObjectNode out, String name, double v) {
        if (!Double.isNaN(v)) {
            out.put(name, v);
        }
    }

    private static double optional(JsonNode payload, String name, String path) {
        return payload.has(name) ? ModelJson.doubleField(payload, name, path) : Double.NaN;
    }

    @Override
    public WatchCertificateSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(payload, path, FIELDS);
        try {
            return new WatchCertificateSection(
                    ModelJson.intField(payload, "recordings", path),
                    ModelJson.doubleField(payload, "hours", path),
                    ModelJson.doubleField(payload, "delta", path),
                    optional(payload, "extra_false_alarms_per_hour", path),
                    optional(payload, "extra_false_alarms_per_hour_upper", path),
                    ModelJson.longField(payload, "event_windows", path),
                    ModelJson.intField(payload, "event_recordings", path),
                    optional(payload, "event_start_agreement", path),
                    optional(payload, "event_start_agreement_lower", path));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }
}
