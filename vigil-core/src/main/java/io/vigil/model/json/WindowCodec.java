package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ModelShape;
import io.vigil.model.WindowSection;
import java.util.Set;

/**
 * Codec of {@link WindowSection}, payload version 1: {@code {"stride": S, "background_label": "…", "rearm": "…"}}
 * plus {@code "sampling_rate_hz"} when the training recordings had a time base.
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
        return 1;
    }

    @Override
    public void write(WindowSection s, ObjectNode out) {
        out.put("stride", s.stride());
        out.put("background_label", s.backgroundLabel());
        if (s.hasSamplingRate()) {
            out.put("sampling_rate_hz", s.samplingRateHz());
        }
        out.put("rearm", s.rearm());
    }

    @Override
    public WindowSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(payload, path, Set.of("stride", "background_label", "sampling_rate_hz", "rearm"));
        int stride = ModelJson.intField(payload, "stride", path);
        String background = ModelJson.textField(payload, "background_label", path);
        double rate =
                payload.has("sampling_rate_hz") ? ModelJson.doubleField(payload, "sampling_rate_hz", path) : Double.NaN;
        String rearm = ModelJson.textField(payload, "rearm", path);
        try {
            return new WindowSection(stride, background, rate, rearm);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }
}
