package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.CvScheme;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.Provenance;
import io.vigil.model.SelectionReport;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;

/**
 * {@link Provenance}: {@code vigil_version}, {@code created}, {@code seed} and {@code selection{cv, neighbor_method,
 * neighbor_cv, gamma_dims, cv_accuracy, scores{ldg_neighbors, gamma, dims, qda_neighbors}}}.
 */
final class ProvenanceCodec implements PartCodec<Provenance> {
    private static final String[] SCORE_NAMES = {"ldg_neighbors", "gamma", "dims", "qda_neighbors"};

    @Override
    public List<String> fields() {
        return List.of("vigil_version", "created", "seed", "selection");
    }

    @Override
    public void write(Provenance p, ObjectNode root) {
        root.put("vigil_version", p.vigilVersion());
        root.put("created", p.created().toString());
        root.put("seed", p.seed());
        SelectionReport s = p.selection();
        ObjectNode sel = root.putObject("selection");
        sel.put("cv", s.cv().toString());
        sel.put("neighbor_method", s.neighborMethod());
        sel.put("neighbor_cv", s.neighborCv().toString());
        sel.put("gamma_dims", s.gammaDims());
        ModelJson.putDouble(sel, "cv_accuracy", s.cvAccuracy());
        ObjectNode scores = sel.putObject("scores");
        GridScores[] grids = {s.ldgNeighbors(), s.gamma(), s.dims(), s.qdaNeighbors()};
        for (int i = 0; i < grids.length; i++) {
            writeGrid(scores.putObject(SCORE_NAMES[i]), grids[i]);
        }
        if (s.protocol() != null) {
            ObjectNode ps = sel.putObject("protocol_scores");
            ArrayNode cand = ps.putArray("candidates");
            s.protocol().candidates().forEach(cand::add);
            ArrayNode acc = ps.putArray("accuracy");
            for (double a : s.protocol().accuracy()) {
                acc.add(a);
            }
            if (s.protocol().fresh3nn() != null) {
                putArray(ps.putArray("fresh_3nn"), s.protocol().fresh3nn());
                putArray(ps.putArray("fresh_local_qda"), s.protocol().freshLocalQda());
            }
            ps.put("chosen", s.protocol().chosen());
        }
    }

    /** Reals in order, NaN as JSON {@code null} (as {@link ModelJson#putDouble}). */
    private static void putArray(ArrayNode out, double[] values) {
        for (double v : values) {
            if (Double.isNaN(v)) {
                out.addNull();
            } else {
                out.add(v);
            }
        }
    }

    private static ProtocolScores readProtocol(JsonNode p) {
        String where = "selection.protocol_scores";
        ModelJson.requireObject(p, where);
        ModelJson.checkFields(p, where, Set.of("candidates", "accuracy", "fresh_3nn", "fresh_local_qda", "chosen"));
        JsonNode cand = ModelJson.field(p, "candidates", where);
        JsonNode acc = ModelJson.field(p, "accuracy", where);
        if (!cand.isArray() || !acc.isArray()) {
            throw new IllegalArgumentException(where + ".candidates and .accuracy must be arrays");
        }
        java.util.List<String> names = new java.util.ArrayList<>();
        for (JsonNode c : cand) {
            if (!c.isTextual()) {
                throw new IllegalArgumentException(where + ".candidates must hold strings");
            }
            names.add(c.asText());
        }
        double[] a = new double[acc.size()];
        for (int i = 0; i < a.length; i++) {
            if (!acc.get(i).isNumber()) {
                throw new IllegalArgumentException(where + ".accuracy[" + i + "] must be a number");
            }
            a[i] = acc.get(i).asDouble();
        }
        double[] fresh3nn = p.has("fresh_3nn") ? ModelJson.doubleArray(p, "fresh_3nn", where) : null;
        double[] freshQda = p.has("fresh_local_qda") ? ModelJson.doubleArray(p, "fresh_local_qda", where) : null;
        return new ProtocolScores(names, a, fresh3nn, freshQda, ModelJson.textField(p, "chosen", where));
    }

    @Override
    public Provenance read(JsonNode root) {
        String version = ModelJson.textField(root, "vigil_version", "");
        Instant created = parseInstant(ModelJson.textField(root, "created", ""));
        long seed = ModelJson.longField(root, "seed", "");
        return new Provenance(version, created, seed, readSelection(ModelJson.field(root, "selection", "")));
    }

    static void writeGrid(ObjectNode out, GridScores g) {
        out.put("source", g.source());
        ArrayNode cand = out.putArray("candidates");
        for (double c : g.candidates()) {
            if (g.integral()) {
                cand.add((long) c);
            } else {
                cand.add(c);
            }
        }
        ArrayNode acc = out.putArray("accuracy");
        for (double a : g.accuracy()) {
            if (Double.isNaN(a)) {
                acc.addNull();
            } else {
                acc.add(a);
            }
        }
        if (g.integral()) {
            out.put("chosen", (long) g.chosen());
        } else {
            out.put("chosen", g.chosen());
        }
    }

    private static SelectionReport readSelection(JsonNode sel) {
        ModelJson.requireObject(sel, "selection");
        ModelJson.checkFields(
                sel,
                "selection",
                Set.of(
                        "cv",
                        "neighbor_method",
                        "neighbor_cv",
                        "gamma_dims",
                        "cv_accuracy",
                        "scores",
                        "protocol_scores"));
        JsonNode scores = ModelJson.field(sel, "scores", "selection");
        ModelJson.requireObject(scores, "selection.scores");
        ModelJson.checkFields(scores, "selection.scores", Set.of(SCORE_NAMES));
        GridScores[] grids = new GridScores[SCORE_NAMES.length];
        for (int i = 0; i < SCORE_NAMES.length; i++) {
            grids[i] = readGrid(ModelJson.field(scores, SCORE_NAMES[i], "selection.scores"), SCORE_NAMES[i]);
        }
        return new SelectionReport(
                parseScheme(ModelJson.textField(sel, "cv", "selection"), "selection.cv"),
                ModelJson.textField(sel, "neighbor_method", "selection"),
                parseScheme(ModelJson.textField(sel, "neighbor_cv", "selection"), "selection.neighbor_cv"),
                ModelJson.intField(sel, "gamma_dims", "selection"),
                grids[0],
                grids[1],
                grids[2],
                grids[3],
                ModelJson.doubleField(sel, "cv_accuracy", "selection"),
                sel.has("protocol_scores") ? readProtocol(sel.get("protocol_scores")) : null);
    }

    private static GridScores readGrid(JsonNode g, String name) {
        return readGrid(g, "selection.scores." + name, !name.equals("gamma"));
    }

    /** A {@link GridScores} written by {@link #writeGrid} at {@code path}. */
    static GridScores readGrid(JsonNode g, String path, boolean integral) {
        ModelJson.requireObject(g, path);
        ModelJson.checkFields(g, path, Set.of("source", "candidates", "accuracy", "chosen"));
        double[] cand = ModelJson.doubleArray(g, "candidates", path);
        double[] acc = ModelJson.doubleArray(g, "accuracy", path);
        if (cand.length != acc.length) {
            throw new IllegalArgumentException(
                    path + ".candidates has " + cand.length + " values but " + path + ".accuracy has " + acc.length);
        }
        return new GridScores(
                ModelJson.textField(g, "source", path), integral, cand, acc, ModelJson.doubleField(g, "chosen", path));
    }

    private static CvScheme parseScheme(String text, String path) {
        try {
            return CvScheme.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static Instant parseInstant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("created is not an ISO-8601 UTC instant: '" + text + "'", e);
        }
    }
}
