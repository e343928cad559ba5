package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.DatasetInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@link DatasetInfo}: {@code dataset{name, classes, class_counts, train_size, length, fingerprint[, channels,
 * layout]}}. A multichannel model (C &gt; 1) writes its channel names and the layout of its input vector ({@link
 * #TIME_MAJOR}); a univariate model writes neither, so its file is byte for byte what it was before channels, and a
 * file without them loads as C = 1.
 */
final class DatasetCodec implements PartCodec<DatasetInfo> {
    /** The only layout: {@code length} = C·d values, channel c at time t at index t·C + c. */
    static final String TIME_MAJOR = "time-major: value t*C+c is channel c at time t (0-based), length = C*d";

    @Override
    public List<String> fields() {
        return List.of("dataset");
    }

    @Override
    public void write(DatasetInfo d, ObjectNode root) {
        ObjectNode ds = root.putObject("dataset");
        ds.put("name", d.name());
        ArrayNode classes = ds.putArray("classes");
        d.classNames().forEach(classes::add);
        ArrayNode counts = ds.putArray("class_counts");
        for (int c : d.classCounts()) {
            counts.add(c);
        }
        ds.put("train_size", d.trainSize());
        ds.put("length", d.length());
        ds.put("fingerprint", d.fingerprint());
        if (d.channels() > 1) {
            ArrayNode channels = ds.putArray("channels");
            d.channelNames().forEach(channels::add);
            ds.put("layout", TIME_MAJOR);
        }
    }

    @Override
    public DatasetInfo read(JsonNode root) {
        JsonNode ds = ModelJson.field(root, "dataset", "");
        ModelJson.requireObject(ds, "dataset");
        ModelJson.checkFields(
                ds,
                "dataset",
                Set.of("name", "classes", "class_counts", "train_size", "length", "fingerprint", "channels", "layout"));
        List<String> channels = DatasetInfo.UNIVARIATE;
        if (ds.has("channels")) {
            channels = strings(ModelJson.field(ds, "channels", "dataset"), "dataset.channels");
            String layout = ModelJson.textField(ds, "layout", "dataset");
            if (!layout.equals(TIME_MAJOR)) {
                throw new IllegalArgumentException(
                        "dataset.layout '" + layout + "' is not the one this build reads ('" + TIME_MAJOR + "')");
            }
        }
        List<String> classes = strings(ModelJson.field(ds, "classes", "dataset"), "dataset.classes");
        return new DatasetInfo(
                ModelJson.textField(ds, "name", "dataset"),
                classes,
                ModelJson.intArray(ds, "class_counts", "dataset"),
                ModelJson.intField(ds, "train_size", "dataset"),
                ModelJson.intField(ds, "length", "dataset"),
                ModelJson.textField(ds, "fingerprint", "dataset"),
                channels);
    }

    private static List<String> strings(JsonNode node, String path) {
        if (!node.isArray()) {
            throw new IllegalArgumentException(path + " must be an array");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode c = node.get(i);
            if (!c.isTextual()) {
                throw new IllegalArgumentException(path + "[" + i + "] must be a string, got " + c);
            }
            out.add(c.textValue());
        }
        return out;
    }
}
