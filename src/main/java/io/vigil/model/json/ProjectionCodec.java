package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.ldg.LdgRefinement;
import io.vigil.ldg.Standardizer;
import io.vigil.model.Projection;
import java.util.List;
import java.util.Set;

/**
 * {@link Projection}: {@code preprocessing{standardize[, means, scales]}} and {@code ldg{neighbors, gamma, dims,
 * eigenvalues, basis[, refinement{iterations, accepted, objective_before, objective_after}]}} — {@code refinement}
 * only for a basis refined by thesis Algorithm 1, so files of unrefined models are unchanged.
 */
final class ProjectionCodec implements PartCodec<Projection> {
    @Override
    public List<String> fields() {
        return List.of("preprocessing", "ldg");
    }

    @Override
    public void write(Projection p, ObjectNode root) {
        ObjectNode pre = root.putObject("preprocessing");
        pre.put("standardize", p.standardizer().isPresent());
        p.standardizer().ifPresent(s -> {
            pre.set("means", ModelJson.vector(s.means()));
            pre.set("scales", ModelJson.vector(s.scales()));
        });
        ObjectNode ldg = root.putObject("ldg");
        ldg.put("neighbors", p.neighbors());
        ldg.put("gamma", p.gamma());
        ldg.put("dims", p.dims());
        ldg.set("eigenvalues", ModelJson.vector(p.eigenvalues()));
        ldg.set("basis", ModelJson.matrix(p.basis()));
        p.refinement().ifPresent(r -> {
            ObjectNode o = ldg.putObject("refinement");
            o.put("iterations", r.iterations());
            o.put("accepted", r.accepted());
            o.put("objective_before", r.objectiveBefore());
            o.put("objective_after", r.objectiveAfter());
        });
    }

    @Override
    public Projection read(JsonNode root) {
        JsonNode pre = ModelJson.field(root, "preprocessing", "");
        ModelJson.requireObject(pre, "preprocessing");
        Standardizer standardizer = null;
        if (ModelJson.booleanField(pre, "standardize", "preprocessing")) {
            ModelJson.checkFields(pre, "preprocessing", Set.of("standardize", "means", "scales"));
            double[] means =
                    ModelJson.readVector(ModelJson.field(pre, "means", "preprocessing"), "preprocessing.means");
            double[] scales =
                    ModelJson.readVector(ModelJson.field(pre, "scales", "preprocessing"), "preprocessing.scales");
            if (means.length != scales.length) {
                throw new IllegalArgumentException("preprocessing.means has " + means.length
                        + " values but preprocessing.scales has " + scales.length);
            }
            try {
                standardizer = Standardizer.of(means, scales);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("preprocessing: " + e.getMessage(), e);
            }
        } else {
            ModelJson.checkFields(pre, "preprocessing", Set.of("standardize"));
        }
        JsonNode ldg = ModelJson.field(root, "ldg", "");
        ModelJson.requireObject(ldg, "ldg");
        ModelJson.checkFields(ldg, "ldg", Set.of("neighbors", "gamma", "dims", "eigenvalues", "basis", "refinement"));
        int dims = ModelJson.intField(ldg, "dims", "ldg");
        var basis = ModelJson.readDMatrix(ModelJson.field(ldg, "basis", "ldg"), "ldg.basis");
        if (basis.numCols != dims) {
            throw new IllegalArgumentException("ldg.basis has " + basis.numCols + " columns but ldg.dims is " + dims);
        }
        return new Projection(
                standardizer,
                ModelJson.intField(ldg, "neighbors", "ldg"),
                ModelJson.doubleField(ldg, "gamma", "ldg"),
                ModelJson.readVector(ModelJson.field(ldg, "eigenvalues", "ldg"), "ldg.eigenvalues"),
                basis,
                ldg.has("refinement") ? readRefinement(ldg.get("refinement")) : null);
    }

    private static LdgRefinement readRefinement(JsonNode r) {
        String where = "ldg.refinement";
        ModelJson.requireObject(r, where);
        ModelJson.checkFields(r, where, Set.of("iterations", "accepted", "objective_before", "objective_after"));
        try {
            return new LdgRefinement(
                    ModelJson.intField(r, "iterations", where),
                    ModelJson.intField(r, "accepted", where),
                    ModelJson.doubleField(r, "objective_before", where),
                    ModelJson.doubleField(r, "objective_after", where));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
