package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.ldg.KernelFunction;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.LdgRefinement;
import io.vigil.ldg.SparseLdg;
import io.vigil.ldg.Standardizer;
import io.vigil.model.GridScores;
import io.vigil.model.Projection;
import io.vigil.model.SparseInfo;
import io.vigil.model.TransferSource;
import java.util.List;
import java.util.Set;

/**
 * {@link Projection}: {@code preprocessing{standardize[, means, scales]}} and {@code ldg{neighbors, gamma, dims,
 * eigenvalues, basis[, segments][, refinement{iterations, accepted, objective_before, objective_after}]}} — {@code
 * refinement} only for a basis refined by thesis Algorithm 1 and {@code segments} only for a basis constant within
 * that many time segments per channel ({@link io.vigil.ldg.TimeSegments}), so files of other models are unchanged. A kernel LDG model
 * (thesis §3.3.2) writes {@code ldg{reducer: "kernel-ldg", neighbors, gamma, dims, eigenvalues, kernel{type,
 * parameter[, scores]}, coefficients, training_rows}} instead of a basis; a transfer LDG model (thesis chapter 4)
 * writes the linear fields with {@code reducer: "transfer-ldg"} and {@code transfer{alpha[, alpha_scores],
 * target_series, source{dataset, series, fingerprint}}}; files without {@code reducer} are linear LDG.
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
        if (!p.isLinear()) {
            writeKernel(p, ldg);
            return;
        }
        p.transfer().ifPresent(t -> ldg.put("reducer", "transfer-ldg"));
        p.sparse().ifPresent(t -> ldg.put("reducer", "sparse-ldg"));
        ldg.put("neighbors", p.neighbors());
        ldg.put("gamma", p.gamma());
        ldg.put("dims", p.dims());
        ldg.set("eigenvalues", ModelJson.vector(p.eigenvalues()));
        ldg.set("basis", ModelJson.matrix(p.basis()));
        p.segments().ifPresent(v -> ldg.put("segments", v));
        p.transfer().ifPresent(t -> writeTransfer(t, ldg.putObject("transfer")));
        p.sparse().ifPresent(t -> writeSparse(t, ldg.putObject("sparse")));
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
        String reducer = ldg.has("reducer") ? ModelJson.textField(ldg, "reducer", "ldg") : "ldg";
        Set<String> linear = Set.of("neighbors", "gamma", "dims", "eigenvalues", "basis");
        Set<String> allowed = new java.util.HashSet<>(linear);
        switch (ldg.has("reducer") ? reducer : "") {
            case "" -> allowed.addAll(Set.of("refinement", "segments"));
            case "kernel-ldg" -> {
                return readKernel(ldg, standardizer);
            }
            case "transfer-ldg" -> allowed.addAll(Set.of("reducer", "transfer"));
            case "sparse-ldg" -> allowed.addAll(Set.of("reducer", "sparse"));
            default -> throw new IllegalArgumentException("ldg.reducer is '" + reducer + "'; this Vigil reads "
                    + "'kernel-ldg', 'transfer-ldg' or 'sparse-ldg' (or no reducer: linear LDG)");
        }
        ModelJson.checkFields(ldg, "ldg", allowed);
        int dims = ModelJson.intField(ldg, "dims", "ldg");
        var basis = ModelJson.readDMatrix(ModelJson.field(ldg, "basis", "ldg"), "ldg.basis");
        if (basis.numCols != dims) {
            throw new IllegalArgumentException("ldg.basis has " + basis.numCols + " columns but ldg.dims is " + dims);
        }
        Projection projection = new Projection(
                standardizer,
                ModelJson.intField(ldg, "neighbors", "ldg"),
                ModelJson.doubleField(ldg, "gamma", "ldg"),
                ModelJson.readVector(ModelJson.field(ldg, "eigenvalues", "ldg"), "ldg.eigenvalues"),
                basis,
                ldg.has("refinement") ? readRefinement(ldg.get("refinement")) : null,
                reducer.equals("transfer-ldg") ? readTransfer(ModelJson.field(ldg, "transfer", "ldg")) : null,
                reducer.equals("sparse-ldg") ? readSparse(ModelJson.field(ldg, "sparse", "ldg")) : null);
        return ldg.has("segments")
                ? projection.withSegments(positive(ModelJson.intField(ldg, "segments", "ldg"), "ldg.segments"))
                : projection;
    }

    private static int positive(int v, String field) {
        if (v < 1) {
            throw new IllegalArgumentException(field + " must be ≥ 1, got " + v);
        }
        return v;
    }

    private static void writeSparse(SparseInfo s, ObjectNode o) {
        o.put("sparsity", s.sparsity());
        o.put("deflation", s.deflation().name().toLowerCase(java.util.Locale.ROOT));
        var nz = o.putArray("non_zeros");
        for (int v : s.nonZeros()) {
            nz.add(v);
        }
        o.put("coherence_mean", s.meanCoherence());
        o.put("coherence_max", s.maxCoherence());
        o.put("converged", s.converged());
        if (s.sparsityScores() != null) {
            ProvenanceCodec.writeGrid(o.putObject("sparsity_scores"), s.sparsityScores());
        }
    }

    private static SparseInfo readSparse(JsonNode o) {
        String where = "ldg.sparse";
        ModelJson.requireObject(o, where);
        ModelJson.checkFields(
                o,
                where,
                Set.of(
                        "sparsity",
                        "deflation",
                        "non_zeros",
                        "coherence_mean",
                        "coherence_max",
                        "converged",
                        "sparsity_scores"));
        String deflation = ModelJson.textField(o, "deflation", where);
        SparseLdg.Deflation d;
        switch (deflation) {
            case "sparse" -> d = SparseLdg.Deflation.SPARSE;
            case "orthonormal" -> d = SparseLdg.Deflation.ORTHONORMAL;
            default -> throw new IllegalArgumentException(
                    where + ".deflation is '" + deflation + "'; expected 'sparse' or 'orthonormal'");
        }
        JsonNode nz = ModelJson.field(o, "non_zeros", where);
        if (!nz.isArray()) {
            throw new IllegalArgumentException(where + ".non_zeros must be an array of integers");
        }
        int[] nonZeros = new int[nz.size()];
        for (int i = 0; i < nonZeros.length; i++) {
            if (!nz.get(i).canConvertToInt() || !nz.get(i).isIntegralNumber()) {
                throw new IllegalArgumentException(where + ".non_zeros[" + i + "] must be an integer");
            }
            nonZeros[i] = nz.get(i).intValue();
        }
        return new SparseInfo(
                ModelJson.doubleField(o, "sparsity", where),
                d,
                nonZeros,
                ModelJson.doubleField(o, "coherence_mean", where),
                ModelJson.doubleField(o, "coherence_max", where),
                ModelJson.booleanField(o, "converged", where),
                o.has("sparsity_scores")
                        ? ProvenanceCodec.readGrid(o.get("sparsity_scores"), where + ".sparsity_scores", false)
                        : null);
    }

    private static void writeTransfer(TransferSource t, ObjectNode o) {
        o.put("alpha", t.alpha());
        if (t.alphaScores() != null) {
            ProvenanceCodec.writeGrid(o.putObject("alpha_scores"), t.alphaScores());
        }
        o.put("target_series", t.targetSize());
        ObjectNode src = o.putObject("source");
        src.put("dataset", t.dataset());
        src.put("series", t.size());
        src.put("fingerprint", t.fingerprint());
    }

    private static TransferSource readTransfer(JsonNode o) {
        String where = "ldg.transfer";
        ModelJson.requireObject(o, where);
        ModelJson.checkFields(o, where, Set.of("alpha", "alpha_scores", "target_series", "source"));
        JsonNode src = ModelJson.field(o, "source", where);
        ModelJson.requireObject(src, where + ".source");
        ModelJson.checkFields(src, where + ".source", Set.of("dataset", "series", "fingerprint"));
        GridScores scores = o.has("alpha_scores")
                ? ProvenanceCodec.readGrid(o.get("alpha_scores"), where + ".alpha_scores", false)
                : null;
        return new TransferSource(
                ModelJson.doubleField(o, "alpha", where),
                scores,
                ModelJson.textField(src, "dataset", where + ".source"),
                ModelJson.intField(src, "series", where + ".source"),
                ModelJson.textField(src, "fingerprint", where + ".source"),
                ModelJson.intField(o, "target_series", where));
    }

    private static void writeKernel(Projection p, ObjectNode ldg) {
        KernelLdgMap map = p.kernelMap().orElseThrow();
        ldg.put("reducer", "kernel-ldg");
        ldg.put("neighbors", p.neighbors());
        ldg.put("gamma", p.gamma());
        ldg.put("dims", p.dims());
        ldg.set("eigenvalues", ModelJson.vector(p.eigenvalues()));
        ObjectNode k = ldg.putObject("kernel");
        k.put("type", map.kernel().cliName());
        k.put("parameter", map.kernel().parameter());
        p.kernelScores().ifPresent(g -> ProvenanceCodec.writeGrid(k.putObject("scores"), g));
        ldg.set("coefficients", ModelJson.matrix(map.coefficients()));
        double[][] rows = map.rows();
        ldg.set("training_rows", ModelJson.matrix(rows, rows[0].length));
    }

    private static Projection readKernel(JsonNode ldg, Standardizer standardizer) {
        ModelJson.checkFields(
                ldg,
                "ldg",
                Set.of(
                        "reducer",
                        "neighbors",
                        "gamma",
                        "dims",
                        "eigenvalues",
                        "kernel",
                        "coefficients",
                        "training_rows"));
        JsonNode k = ModelJson.field(ldg, "kernel", "ldg");
        ModelJson.requireObject(k, "ldg.kernel");
        ModelJson.checkFields(k, "ldg.kernel", Set.of("type", "parameter", "scores"));
        KernelFunction kernel;
        try {
            kernel = KernelFunction.of(
                    ModelJson.textField(k, "type", "ldg.kernel"), ModelJson.doubleField(k, "parameter", "ldg.kernel"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ldg.kernel: " + e.getMessage(), e);
        }
        GridScores scores = k.has("scores")
                ? ProvenanceCodec.readGrid(
                        k.get("scores"), "ldg.kernel.scores", kernel instanceof KernelFunction.Polynomial)
                : null;
        int dims = ModelJson.intField(ldg, "dims", "ldg");
        var coefficients = ModelJson.readDMatrix(ModelJson.field(ldg, "coefficients", "ldg"), "ldg.coefficients");
        if (coefficients.numCols != dims) {
            throw new IllegalArgumentException(
                    "ldg.coefficients has " + coefficients.numCols + " columns but ldg.dims is " + dims);
        }
        var rows = ModelJson.readDMatrix(ModelJson.field(ldg, "training_rows", "ldg"), "ldg.training_rows");
        double[][] r = new double[rows.numRows][];
        for (int i = 0; i < rows.numRows; i++) {
            r[i] = java.util.Arrays.copyOfRange(rows.data, i * rows.numCols, (i + 1) * rows.numCols);
        }
        KernelLdgMap map;
        try {
            map = KernelLdgMap.of(
                    kernel,
                    r,
                    coefficients,
                    ModelJson.readVector(ModelJson.field(ldg, "eigenvalues", "ldg"), "ldg.eigenvalues"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ldg: " + e.getMessage(), e);
        }
        return Projection.kernel(
                standardizer,
                ModelJson.intField(ldg, "neighbors", "ldg"),
                ModelJson.doubleField(ldg, "gamma", "ldg"),
                map,
                scores);
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
