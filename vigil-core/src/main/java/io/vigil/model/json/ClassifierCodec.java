package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ClassifierParams;
import java.util.List;
import java.util.Set;

/** {@link ClassifierParams}: {@code training_points{classes, points}} and {@code local_qda{neighbors, priors}}. */
final class ClassifierCodec implements PartCodec<ClassifierParams> {
    @Override
    public List<String> fields() {
        return List.of("training_points", "local_qda");
    }

    @Override
    public void write(ClassifierParams c, ObjectNode root) {
        ObjectNode tp = root.putObject("training_points");
        ArrayNode tc = tp.putArray("classes");
        for (int k : c.classes()) {
            tc.add(k);
        }
        double[][] points = c.points();
        tp.set("points", ModelJson.matrix(points, points.length == 0 ? 0 : points[0].length));
        ObjectNode qda = root.putObject("local_qda");
        qda.put("neighbors", c.qdaNeighbors());
        ArrayNode priors = qda.putArray("priors");
        for (double p : c.priors()) {
            priors.add(p);
        }
    }

    @Override
    public ClassifierParams read(JsonNode root) {
        JsonNode tp = ModelJson.field(root, "training_points", "");
        ModelJson.requireObject(tp, "training_points");
        ModelJson.checkFields(tp, "training_points", Set.of("classes", "points"));
        int[] classes = ModelJson.intArray(tp, "classes", "training_points");
        double[][] points =
                ModelJson.readRows(ModelJson.field(tp, "points", "training_points"), "training_points.points");
        JsonNode qda = ModelJson.field(root, "local_qda", "");
        ModelJson.requireObject(qda, "local_qda");
        ModelJson.checkFields(qda, "local_qda", Set.of("neighbors", "priors"));
        return new ClassifierParams(
                points,
                classes,
                ModelJson.doubleArray(qda, "priors", "local_qda"),
                ModelJson.intField(qda, "neighbors", "local_qda"));
    }
}
