package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.gauss.FitInfo;
import io.vigil.gauss.JointGaussian;
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
 * Codec of {@link CompleteSeriesSection}, payload version 1:
 *
 * <pre>{@code
 * {"shrinkage": {"method": "ledoit-wolf", "intensity": null},
 *  "joint": GAUSSIAN,                                   // optional
 *  "gmm": {"weights": [w_1..w_G], "components": [GAUSSIAN × G]}}   // optional
 * GAUSSIAN = {"mean": VECTOR d, "innovation_variances": VECTOR d, "strict_lower": VECTOR d(d−1)/2,
 *             "fit": {"method", "target", "target_scale", "intensity", "sample_count", "ridge", "note"}}
 * }</pre>
 *
 * The Gaussian is stored as its LDLᵀ factors (Σ = L D Lᵀ, {@link JointGaussian}) so loading needs no
 * factorisation and reproduces the trained numbers bit for bit.
 */
public final class CompleteSeriesCodec implements SectionCodec<CompleteSeriesSection> {
    private static final Set<String> FIELDS = Set.of("shrinkage", "joint", "gmm");
    private static final Set<String> GAUSSIAN_FIELDS = Set.of("mean", "innovation_variances", "strict_lower", "fit");
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
        return 1;
    }

    @Override
    public void write(CompleteSeriesSection s, ObjectNode out) {
        ObjectNode sh = out.putObject("shrinkage");
        sh.put("method", s.shrinkage().method().id());
        ModelJson.putDouble(sh, "intensity", s.shrinkage().intensity());
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
            for (JointGaussian g : s.mixture()) {
                writeGaussian(g, comps.addObject());
            }
        }
    }

    private static void writeGaussian(JointGaussian g, ObjectNode out) {
        out.set("mean", ModelJson.vector(g.mean()));
        out.set("innovation_variances", ModelJson.vector(g.innovationVariances()));
        out.set("strict_lower", ModelJson.vector(g.strictLowerPacked()));
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
        ModelJson.checkFields(payload, path, FIELDS);
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
        JointGaussian joint =
                payload.has("joint") ? readGaussian(payload.get("joint"), ModelJson.join(path, "joint")) : null;
        double[] weights = null;
        List<JointGaussian> mixture = null;
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
                mixture.add(readGaussian(comps.get(g), gPath + ".components[" + g + "]"));
            }
        }
        try {
            return new CompleteSeriesSection(params, joint, weights, mixture);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static JointGaussian readGaussian(JsonNode node, String path) {
        ModelJson.requireObject(node, path);
        ModelJson.checkFields(node, path, GAUSSIAN_FIELDS);
        double[] mean = ModelJson.readVector(ModelJson.field(node, "mean", path), ModelJson.join(path, "mean"));
        double[] diag = ModelJson.readVector(
                ModelJson.field(node, "innovation_variances", path), ModelJson.join(path, "innovation_variances"));
        double[] lower =
                ModelJson.readVector(ModelJson.field(node, "strict_lower", path), ModelJson.join(path, "strict_lower"));
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
            FitInfo info = new FitInfo(
                    sh, ModelJson.doubleField(fit, "ridge", fPath), ModelJson.textField(fit, "note", fPath));
            return JointGaussian.fromPackedFactors(mean, lower, diag, info);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }
}
