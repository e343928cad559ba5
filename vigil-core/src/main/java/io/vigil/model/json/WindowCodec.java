package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ModelShape;
import io.vigil.model.WindowLabelling;
import io.vigil.model.WindowSection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Codec of {@link WindowSection}, payload version 1: {@code {"stride": S, "background_label": "…", "rearm": "…"}}
 * plus {@code "sampling_rate_hz"} when the training recordings had a time base. Version 2 adds {@code "labelling":
 * {"near_events": "exclude"|"background", "event_offsets": K, "background_classes": [...]}}; a section with the
 * original labelling is still written as version 1, and a version-1 payload reads as the original labelling. Version 3
 * adds {@code "folds": "recording"} for a model whose cross-validation and calibration folds were grouped by recording;
 * other sections are still written as version 1 or 2, which read as folds not grouped.
 */
final class WindowCodec implements SectionCodec<WindowSection> {
    @Override
    public String name() {
        return WindowSection.NAME;
    }

    @Override
    public Class<WindowSection> type() {
        return WindowSection.class;
    }

    @Override
    public int version() {
        return 3;
    }

    @Override
    public int versionOf(WindowSection section) {
        if (section.foldsByRecording()) {
            return 3;
        }
        return section.labelling().original() ? 1 : 2;
    }

    @Override
    public void write(WindowSection s, ObjectNode out) {
        out.put("stride", s.stride());
        out.put("background_label", s.backgroundLabel());
        if (s.hasSamplingRate()) {
            out.put("sampling_rate_hz", s.samplingRateHz());
        }
        out.put("rearm", s.rearm());
        if (!s.labelling().original()) {
            ObjectNode l = out.putObject("labelling");
            l.put("near_events", s.labelling().excludeNear() ? "exclude" : "background");
            l.put("event_offsets", s.labelling().eventOffsets());
            var classes = l.putArray("background_classes");
            s.labelling().backgroundClasses().forEach(classes::add);
        }
        if (s.foldsByRecording()) {
            out.put("folds", "recording");
        }
    }

    @Override
    public WindowSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(
                payload,
                path,
                version >= 3
                        ? Set.of("stride", "background_label", "sampling_rate_hz", "rearm", "labelling", "folds")
                        : version == 2
                                ? Set.of("stride", "background_label", "sampling_rate_hz", "rearm", "labelling")
                                : Set.of("stride", "background_label", "sampling_rate_hz", "rearm"));
        int stride = ModelJson.intField(payload, "stride", path);
        String background = ModelJson.textField(payload, "background_label", path);
        double rate =
                payload.has("sampling_rate_hz") ? ModelJson.doubleField(payload, "sampling_rate_hz", path) : Double.NaN;
        String rearm = ModelJson.textField(payload, "rearm", path);
        boolean byRecording = false;
        if (payload.has("folds")) {
            String folds = ModelJson.textField(payload, "folds", path);
            if (!folds.equals("recording")) {
                throw new IllegalArgumentException(path + ".folds must be recording, got '" + folds + "'");
            }
            byRecording = true;
        }
        try {
            WindowLabelling labelling = payload.has("labelling")
                    ? labelling(payload.get("labelling"), path + ".labelling")
                    : WindowLabelling.ORIGINAL;
            return new WindowSection(stride, background, rate, rearm, labelling, byRecording);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static WindowLabelling labelling(JsonNode node, String path) {
        ModelJson.requireObject(node, path);
        ModelJson.checkFields(node, path, Set.of("near_events", "event_offsets", "background_classes"));
        String near = ModelJson.textField(node, "near_events", path);
        if (!near.equals("exclude") && !near.equals("background")) {
            throw new IllegalArgumentException(path + ".near_events must be exclude or background, got '" + near + "'");
        }
        int offsets = ModelJson.intField(node, "event_offsets", path);
        JsonNode classes = node.get("background_classes");
        if (classes == null || !classes.isArray()) {
            throw new IllegalArgumentException(path + ".background_classes must be an array of class labels");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode c : classes) {
            if (!c.isTextual()) {
                throw new IllegalArgumentException(path + ".background_classes holds a non-text entry: " + c);
            }
            names.add(c.asText());
        }
        return new WindowLabelling(near.equals("exclude"), offsets, names);
    }
}
