package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.DatasetInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@link DatasetInfo}: {@code dataset{name, classes, class_counts, train_size, length, fingerprint}}. */
final class DatasetCodec implements PartCodec<DatasetInfo> {
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
    }

    @Override
    public DatasetInfo read(JsonNode root) {
        JsonNode ds = ModelJson.field(root, "dataset", "");
        ModelJson.requireObject(ds, "dataset");
        ModelJson.checkFields(
                ds, "dataset", Set.of("name", "classes", "class_counts", "train_size", "length", "fingerprint"));
        JsonNode classesNode = ModelJson.field(ds, "classes", "dataset");
        if (!classesNode.isArray()) {
            throw new IllegalArgumentException("dataset.classes must be an array");
        }
        List<String> classes = new ArrayList<>();
        for (int i = 0; i < classesNode.size(); i++) {
            JsonNode c = classesNode.get(i);
            if (!c.isTextual()) {
                throw new IllegalArgumentException("dataset.classes[" + i + "] must be a string, got " + c);
            }
            classes.add(c.textValue());
        }
        return new DatasetInfo(
                ModelJson.textField(ds, "name", "dataset"),
                classes,
                ModelJson.intArray(ds, "class_counts", "dataset"),
                ModelJson.intField(ds, "train_size", "dataset"),
                ModelJson.intField(ds, "length", "dataset"),
                ModelJson.textField(ds, "fingerprint", "dataset"));
    }
}
