package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.FitInfo;
import io.vigil.gauss.JointGaussian;
import io.vigil.gauss.LowRankGaussian;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.Shrinkage;
import io.vigil.gauss.ShrinkageMethod;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.gauss.ShrinkageTarget;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.ModelShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Codec of {@link CompleteSeriesSection}, payload version 2:
 *
 * <pre>{@code
 * {"shrinkage": {"method": "ledoit-wolf", "intensity": null},
 *  "covariance": "auto",                                // the form asked for: dense | low-rank | auto
 *  "joint": GAUSSIAN,                                   // optional
 *  "gmm": {"weights": [w_1..w_G], "components": [GAUSSIAN × G]}}   // optional
 * GAUSSIAN = {"form": "dense", "mean": VECTOR d, "innovation_variances": VECTOR d,
 *             "strict_lower": VECTOR d(d−1)/2, "fit": FIT}
 *          | {"form": "low-rank", "mean": VECTOR d, "identity_scale": a, "factor": MATRIX d×r, "fit": FIT}
 * FIT = {"method", "target", "target_scale", "intensity", "sample_count", "ridge", "note"}
 * }</pre>
 *
 * A dense Gaussian is stored as its LDLᵀ factors (Σ = L D Lᵀ, {@link JointGaussian}) so loading needs no
 * factorisation; a low-rank one as Σ = a·I + U Uᵀ ({@link LowRankGaussian}: d·r values, r ≤ n, never a d×d
 * matrix), whose semiseparable LDLᵀ is recomputed deterministically on load (O(d·r²)). Either way loading
 * reproduces the trained numbers bit for bit. Version 1 (written before the low-rank form) has no {@code
 * covariance} and no {@code form} fields and holds dense Gaussians only; it still loads.
 */
final class CompleteSeriesCodec implements SectionCodec<CompleteSeriesSection> {
    private static final Set<String> FIELDS_V1 = Set.of("shrinkage", "joint", "gmm");
    private static final Set<String> FIELDS = Set.of("shrinkage", "covariance", "joint", "gmm");
    private static final Set<String> DENSE_FIELDS_V1 = Set.of("mean", "innovation_variances", "strict_lower", "fit");
    private static final Set<String> DENSE_FIELDS =
            Set.of("form", "mean", "innovation_variances", "strict_lower", "fit");
    private static final Set<String> LOW_RANK_FIELDS = Set.of("form", "mean", "identity_scale", "factor", "fit");
    private static final Set<String> FIT_FIELDS =
            Set.of("method", "target", "target_scale", "intensity", "sample_count", "ridge", "note");

    @Override
    public String name() {
        return CompleteSeriesSection.NAME;
    }

    @Override
    public Class<CompleteSeriesSection> type() {
        return CompleteSeriesSection.class;
    }

    @Override
    public int version() {
        return 2;
    }

    @Override
    public void write(CompleteSeriesSection s, ObjectNode out) {
        ObjectNode sh = out.putObject("shrinkage");
        sh.put("method", s.shrinkage().method().id());
        ModelJson.putDouble(sh, "intensity", s.shrinkage().intensity());
        out.put("covariance", s.covariance().id());
        if (s.joint() != null) {
            writeGaussian(s.joint(), out.putObject("joint"));
        }
        if (s.mixture() != null) {
            ObjectNode gmm = out.putObject("gmm");
            ArrayNode w = gmm.putArray("weights");
            for (double v : s.mixtureWeights()) {
                w.add(v);
            }
            ArrayNode comps = gmm.putArray("components");
            for (SeriesGaussian g : s.mixture()) {
                writeGaussian(g, comps.addObject());
            }
        }
    }

    private static void writeGaussian(SeriesGaussian g, ObjectNode out) {
        out.put("form", g.form().id());
        out.set("mean", ModelJson.vector(g.mean()));
        if (g instanceof JointGaussian dense) {
            out.set("innovation_variances", ModelJson.vector(dense.innovationVariances()));
            out.set("strict_lower", ModelJson.vector(dense.strictLowerPacked()));
        } else {
            LowRankGaussian lr = (LowRankGaussian) g;
            out.put("identity_scale", lr.identityScale());
            out.set("factor", ModelJson.matrix(lr.factor()));
        }
        FitInfo info = g.fitInfo();
        Shrinkage sh = info.shrinkage();
        ObjectNode fit = out.putObject("fit");
        fit.put("method", sh.method().id());
        fit.put("target", sh.target().id());
        fit.put("target_scale", sh.targetScale());
        fit.put("intensity", sh.intensity());
        fit.put("sample_count", sh.sampleCount());
        fit.put("ridge", info.ridge());
        fit.put("note", info.note());
    }

    @Override
    public CompleteSeriesSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(payload, path, version == 1 ? FIELDS_V1 : FIELDS);
        String shPath = ModelJson.join(path, "shrinkage");
        JsonNode sh = ModelJson.field(payload, "shrinkage", path);
        ModelJson.requireObject(sh, shPath);
        ModelJson.checkFields(sh, shPath, Set.of("method", "intensity"));
        ShrinkageParams params;
        try {
            ShrinkageMethod method = ShrinkageMethod.fromId(ModelJson.textField(sh, "method", shPath));
            double intensity = ModelJson.doubleField(sh, "intensity", shPath);
            params = new ShrinkageParams(method, intensity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(shPath + ": " + e.getMessage(), e);
        }
        CovarianceForm covariance = CovarianceForm.DENSE;
        if (version >= 2) {
            String cPath = ModelJson.join(path, "covariance");
            try {
                covariance = CovarianceForm.fromId(ModelJson.textField(payload, "covariance", path));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(cPath + ": " + e.getMessage(), e);
            }
        }
        SeriesGaussian joint = payload.has("joint")
                ? readGaussian(payload.get("joint"), version, shape, ModelJson.join(path, "joint"))
                : null;
        double[] weights = null;
        List<SeriesGaussian> mixture = null;
        if (payload.has("gmm")) {
            String gPath = ModelJson.join(path, "gmm");
            JsonNode gmm = payload.get("gmm");
            ModelJson.requireObject(gmm, gPath);
            ModelJson.checkFields(gmm, gPath, Set.of("weights", "components"));
            weights = ModelJson.doubleArray(gmm, "weights", gPath);
            JsonNode comps = ModelJson.field(gmm, "components", gPath);
            if (!comps.isArray()) {
                throw new IllegalArgumentException(gPath + ".components must be an array");
            }
            mixture = new ArrayList<>();
            for (int g = 0; g < comps.size(); g++) {
                mixture.add(readGaussian(comps.get(g), version, shape, gPath + ".components[" + g + "]"));
            }
        }
        try {
            return new CompleteSeriesSection(params, covariance, joint, weights, mixture);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static SeriesGaussian readGaussian(JsonNode node, int version, ModelShape shape, String path) {
        ModelJson.requireObject(node, path);
        CovarianceForm form = CovarianceForm.DENSE;
        if (version >= 2) {
            String f = ModelJson.textField(node, "form", path);
            try {
                form = CovarianceForm.fromId(f);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(ModelJson.join(path, "form") + ": " + e.getMessage(), e);
            }
            if (form == CovarianceForm.AUTO) {
                throw new IllegalArgumentException(
                        ModelJson.join(path, "form") + " must be dense or low-rank, not " + f);
            }
        }
        boolean dense = form == CovarianceForm.DENSE;
        ModelJson.checkFields(node, path, dense ? (version == 1 ? DENSE_FIELDS_V1 : DENSE_FIELDS) : LOW_RANK_FIELDS);
        double[] mean = ModelJson.readVector(ModelJson.field(node, "mean", path), ModelJson.join(path, "mean"));
        if (mean.length != shape.length()) {
            throw new IllegalArgumentException(ModelJson.join(path, "mean") + " has length " + mean.length
                    + " but the model's series length is " + shape.length());
        }
        FitInfo info = readFit(node, path);
        try {
            if (dense) {
                double[] diag = ModelJson.readVector(
                        ModelJson.field(node, "innovation_variances", path),
                        ModelJson.join(path, "innovation_variances"));
                double[] lower = ModelJson.readVector(
                        ModelJson.field(node, "strict_lower", path), ModelJson.join(path, "strict_lower"));
                return JointGaussian.fromPackedFactors(mean, lower, diag, info);
            }
            double a = ModelJson.doubleField(node, "identity_scale", path);
            return LowRankGaussian.fromFactors(
                    mean,
                    a,
                    ModelJson.readDMatrix(ModelJson.field(node, "factor", path), ModelJson.join(path, "factor")),
                    info);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static FitInfo readFit(JsonNode node, String path) {
        String fPath = ModelJson.join(path, "fit");
        JsonNode fit = ModelJson.field(node, "fit", path);
        ModelJson.requireObject(fit, fPath);
        ModelJson.checkFields(fit, fPath, FIT_FIELDS);
        try {
            Shrinkage sh = new Shrinkage(
                    ShrinkageMethod.fromId(ModelJson.textField(fit, "method", fPath)),
                    ShrinkageTarget.fromId(ModelJson.textField(fit, "target", fPath)),
                    ModelJson.doubleField(fit, "target_scale", fPath),
                    ModelJson.doubleField(fit, "intensity", fPath),
                    ModelJson.intField(fit, "sample_count", fPath));
            return new FitInfo(sh, ModelJson.doubleField(fit, "ridge", fPath), ModelJson.textField(fit, "note", fPath));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(fPath + ": " + e.getMessage(), e);
        }
    }
}
