package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.ModelShape;
import java.util.Set;

/**
 * Codec of {@link LinearSvmSection}, payload version 1: {@code {"cost": C, "weights": MATRIX G×ℓ, "biases":
 * VECTOR G}} with the exact {@link ModelJson} array encodings.
 */
final class LinearSvmCodec implements SectionCodec<LinearSvmSection> {
    @Override
    public String name() {
        return LinearSvmSection.NAME;
    }

    @Override
    public Class<LinearSvmSection> type() {
        return LinearSvmSection.class;
    }

    @Override
    public int version() {
        return 1;
    }

    @Override
    public void write(LinearSvmSection s, ObjectNode out) {
        out.put("cost", s.cost());
        double[][] w = s.weights();
        out.set("weights", ModelJson.matrix(w, w.length == 0 ? 0 : w[0].length));
        out.set("biases", ModelJson.vector(s.biases()));
    }

    @Override
    public LinearSvmSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(payload, path, Set.of("cost", "weights", "biases"));
        double cost = ModelJson.doubleField(payload, "cost", path);
        double[][] w = ModelJson.readRows(ModelJson.field(payload, "weights", path), ModelJson.join(path, "weights"));
        double[] b = ModelJson.readVector(ModelJson.field(payload, "biases", path), ModelJson.join(path, "biases"));
        try {
            return new LinearSvmSection(cost, w, b);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }
}
