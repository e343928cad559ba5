package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.data.ObservationPattern;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.ModelShape;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Codec of {@link CalibrationSection}, payload version 1 (small arrays as plain JSON numbers, readable by any tool):
 * {@code {folds, seed, delta, inflation: [...], thresholds: [...], curves: [{rule, classifier, set, estimator, series,
 * disagreements, correct, fraction_sum[, monotone_disagreements]}], coverage: {taus, before, after}[, operating_point:
 * {tau, objective, target_reliability, rule, classifier, set, estimator, harmonic_mean, certified[, delay_cost]}][,
 * guarantee, selection, candidates][, nested: {disagreements, monotone_disagreements}]}}. The bracketed fields are
 * optional on read: a file without them certifies as it did when written ({@code pac}, no selection correction, no
 * monotonised counts); {@code nested} is present exactly when the selection is {@code nested}. A
 * section calibrated under an observation pattern adds {@code pattern: {missing, channel_lags, dropped_channels,
 * shuffled, seed}}; without it the replays saw every value in time order. An expected guarantee certified in the
 * randomised form adds {@code crc_draw} (U in (0, 1]; absent means 1, the non-randomised form); a Vigil that does not
 * know the field refuses the file rather than certify it with another U. Payload version 2 has the same fields and is
 * written only for a section whose curves were replayed with the {@code gmm} estimator: a Vigil that reads version 1
 * would certify such curves without their variance inflation, so it must refuse them; every other section is still
 * written as version 1.
 */
public final class CalibrationCodec implements SectionCodec<CalibrationSection> {
    private static final Set<String> FIELDS = Set.of(
            "folds",
            "seed",
            "delta",
            "inflation",
            "thresholds",
            "curves",
            "coverage",
            "operating_point",
            "guarantee",
            "selection",
            "candidates",
            "nested",
            "pattern",
            "crc_draw",
            "crc_draw_source",
            "holdout");
    private static final Set<String> CURVE_FIELDS = Set.of(
            "rule",
            "classifier",
            "set",
            "estimator",
            "series",
            "disagreements",
            "correct",
            "fraction_sum",
            "monotone_disagreements");
    private static final Set<String> POINT_FIELDS = Set.of(
            "tau",
            "objective",
            "target_reliability",
            "rule",
            "classifier",
            "set",
            "estimator",
            "harmonic_mean",
            "certified",
            "delay_cost");

    @Override
    public String name() {
        return CalibrationSection.NAME;
    }

    @Override
    public Class<CalibrationSection> type() {
        return CalibrationSection.class;
    }

    @Override
    public int version() {
        return 2;
    }

    @Override
    public int versionOf(CalibrationSection s) {
        return s.curves().stream().anyMatch(c -> c.estimator() != EstimatorType.JOINT) ? 2 : 1;
    }

    @Override
    public void write(CalibrationSection s, ObjectNode out) {
        out.put("folds", s.folds());
        out.put("seed", s.seed());
        out.put("delta", s.delta());
        doubles(out.putArray("inflation"), s.inflation());
        doubles(out.putArray("thresholds"), s.thresholds());
        ArrayNode curves = out.putArray("curves");
        for (CalibrationSection.Curve c : s.curves()) {
            ObjectNode o = curves.addObject();
            o.put("rule", c.rule().cliName());
            o.put("classifier", c.classifier().cliName());
            o.put("set", c.set().cliName());
            o.put("estimator", c.estimator().id());
            o.put("series", c.series());
            ints(o.putArray("disagreements"), c.disagreements());
            ints(o.putArray("correct"), c.correct());
            doubles(o.putArray("fraction_sum"), c.fractionSum());
            if (c.monotoneDisagreements().length > 0) {
                ints(o.putArray("monotone_disagreements"), c.monotoneDisagreements());
            }
        }
        ObjectNode cov = out.putObject("coverage");
        doubles(cov.putArray("taus"), s.coverageTaus());
        doubles(cov.putArray("before"), s.coverageBefore());
        doubles(cov.putArray("after"), s.coverageAfter());
        s.operatingPoint().ifPresent(p -> {
            ObjectNode o = out.putObject("operating_point");
            o.put("tau", p.tau());
            o.put("objective", p.objective());
            ModelJson.putDouble(o, "target_reliability", p.targetReliability());
            o.put("rule", p.rule().cliName());
            o.put("classifier", p.classifier().cliName());
            o.put("set", p.set().cliName());
            o.put("estimator", p.estimator().id());
            ModelJson.putDouble(o, "harmonic_mean", p.harmonicMean());
            o.put("certified", p.certified());
            if (!Double.isNaN(p.delayCost())) {
                o.put("delay_cost", p.delayCost());
            }
        });
        out.put("guarantee", s.guarantee().cliName());
        out.put("selection", s.selection().cliName());
        out.put("candidates", s.candidates());
        if (s.nestedDisagreements().length > 0) {
            ObjectNode nested = out.putObject("nested");
            ints(nested.putArray("disagreements"), s.nestedDisagreements());
            ints(nested.putArray("monotone_disagreements"), s.nestedMonotone());
        }
        if (!s.pattern().isComplete()) {
            writePattern(s.pattern(), out.putObject("pattern"));
        }
        if (s.crcDraw() != ConformalRiskControl.CONSERVATIVE) {
            out.put("crc_draw", s.crcDraw());
        }
        if (s.isHoldout()) {
            out.put("holdout", s.holdout());
        }
        if (s.crcDrawSource() != DrawSource.implied(s.crcDraw())) {
            out.put("crc_draw_source", s.crcDrawSource().cliName());
        }
    }

    /** {@code {missing, channel_lags: {"C": K}, dropped_channels: [C], shuffled, seed}}. */
    private static void writePattern(ObservationPattern p, ObjectNode o) {
        o.put("missing", p.missing());
        ObjectNode lags = o.putObject("channel_lags");
        p.lags().forEach((c, k) -> lags.put(String.valueOf(c), k));
        ArrayNode dropped = o.putArray("dropped_channels");
        p.dropped().forEach(dropped::add);
        o.put("shuffled", p.shuffled());
        o.put("seed", p.seed());
    }

    private static ObservationPattern readPattern(JsonNode o, String path) {
        ModelJson.requireObject(o, path);
        ModelJson.checkFields(o, path, Set.of("missing", "channel_lags", "dropped_channels", "shuffled", "seed"));
        ObservationPattern.Builder b = ObservationPattern.builder()
                .missing(ModelJson.doubleField(o, "missing", path))
                .shuffled(ModelJson.booleanField(o, "shuffled", path))
                .seed(ModelJson.longField(o, "seed", path));
        JsonNode lags = ModelJson.field(o, "channel_lags", path);
        ModelJson.requireObject(lags, ModelJson.join(path, "channel_lags"));
        lags.fields().forEachRemaining(e -> {
            try {
                b.lag(Integer.parseInt(e.getKey()), ModelJson.intField(lags, e.getKey(), path + ".channel_lags"));
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(
                        path + ".channel_lags: '" + e.getKey() + "' is not a channel index", ex);
            }
        });
        for (int c : ModelJson.intArray(o, "dropped_channels", path)) {
            b.drop(c);
        }
        return b.build();
    }

    @Override
    public CalibrationSection read(JsonNode payload, int version, ModelShape shape, String path) {
        ModelJson.requireObject(payload, path);
        ModelJson.checkFields(payload, path, FIELDS);
        try {
            JsonNode curvesNode = ModelJson.field(payload, "curves", path);
            if (!curvesNode.isArray()) {
                throw new IllegalArgumentException(ModelJson.join(path, "curves") + " must be an array");
            }
            List<CalibrationSection.Curve> curves = new ArrayList<>();
            for (int i = 0; i < curvesNode.size(); i++) {
                curves.add(readCurve(curvesNode.get(i), path + ".curves[" + i + "]"));
            }
            JsonNode cov = ModelJson.field(payload, "coverage", path);
            String covPath = ModelJson.join(path, "coverage");
            ModelJson.requireObject(cov, covPath);
            ModelJson.checkFields(cov, covPath, Set.of("taus", "before", "after"));
            Optional<CalibrationSection.OperatingPoint> point = payload.has("operating_point")
                    ? Optional.of(readPoint(payload.get("operating_point"), ModelJson.join(path, "operating_point")))
                    : Optional.empty();
            int[] nestedRaw = new int[0];
            int[] nestedMonotone = new int[0];
            if (payload.has("nested")) {
                JsonNode nested = payload.get("nested");
                String nestedPath = ModelJson.join(path, "nested");
                ModelJson.requireObject(nested, nestedPath);
                ModelJson.checkFields(nested, nestedPath, Set.of("disagreements", "monotone_disagreements"));
                nestedRaw = ModelJson.intArray(nested, "disagreements", nestedPath);
                nestedMonotone = ModelJson.intArray(nested, "monotone_disagreements", nestedPath);
            }
            double draw = payload.has("crc_draw")
                    ? ModelJson.doubleField(payload, "crc_draw", path)
                    : ConformalRiskControl.CONSERVATIVE;
            return new CalibrationSection(
                    ModelJson.intField(payload, "folds", path),
                    ModelJson.longField(payload, "seed", path),
                    ModelJson.doubleField(payload, "delta", path),
                    ModelJson.doubleArray(payload, "inflation", path),
                    ModelJson.doubleArray(payload, "thresholds", path),
                    curves,
                    ModelJson.doubleArray(cov, "taus", covPath),
                    ModelJson.doubleArray(cov, "before", covPath),
                    ModelJson.doubleArray(cov, "after", covPath),
                    point,
                    payload.has("guarantee")
                            ? Guarantee.fromCliName(ModelJson.textField(payload, "guarantee", path))
                            : Guarantee.PAC,
                    payload.has("selection")
                            ? Selection.fromCliName(ModelJson.textField(payload, "selection", path))
                            : Selection.NONE,
                    payload.has("candidates") ? ModelJson.intField(payload, "candidates", path) : 1,
                    nestedRaw,
                    nestedMonotone,
                    payload.has("pattern")
                            ? readPattern(payload.get("pattern"), ModelJson.join(path, "pattern"))
                            : ObservationPattern.complete(),
                    draw,
                    payload.has("crc_draw_source")
                            ? DrawSource.fromCliName(ModelJson.textField(payload, "crc_draw_source", path))
                            : DrawSource.implied(draw),
                    payload.has("holdout") ? ModelJson.doubleField(payload, "holdout", path) : 0);
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(path)
                    ? e
                    : new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static CalibrationSection.Curve readCurve(JsonNode o, String path) {
        ModelJson.requireObject(o, path);
        ModelJson.checkFields(o, path, CURVE_FIELDS);
        return new CalibrationSection.Curve(
                DecisionRule.fromCliName(ModelJson.textField(o, "rule", path)),
                ClassifierKind.fromCliName(ModelJson.textField(o, "classifier", path)),
                SetKind.fromCliName(ModelJson.textField(o, "set", path)),
                EstimatorType.fromId(ModelJson.textField(o, "estimator", path)),
                ModelJson.intField(o, "series", path),
                ModelJson.intArray(o, "disagreements", path),
                ModelJson.intArray(o, "correct", path),
                ModelJson.doubleArray(o, "fraction_sum", path),
                o.has("monotone_disagreements") ? ModelJson.intArray(o, "monotone_disagreements", path) : new int[0]);
    }

    private static CalibrationSection.OperatingPoint readPoint(JsonNode o, String path) {
        ModelJson.requireObject(o, path);
        ModelJson.checkFields(o, path, POINT_FIELDS);
        return new CalibrationSection.OperatingPoint(
                ModelJson.doubleField(o, "tau", path),
                ModelJson.textField(o, "objective", path),
                ModelJson.doubleField(o, "target_reliability", path),
                DecisionRule.fromCliName(ModelJson.textField(o, "rule", path)),
                ClassifierKind.fromCliName(ModelJson.textField(o, "classifier", path)),
                SetKind.fromCliName(ModelJson.textField(o, "set", path)),
                EstimatorType.fromId(ModelJson.textField(o, "estimator", path)),
                ModelJson.doubleField(o, "harmonic_mean", path),
                ModelJson.booleanField(o, "certified", path),
                o.has("delay_cost") ? ModelJson.doubleField(o, "delay_cost", path) : Double.NaN);
    }

    private static void doubles(ArrayNode a, double[] values) {
        for (double v : values) {
            a.add(v);
        }
    }

    private static void ints(ArrayNode a, int[] values) {
        for (int v : values) {
            a.add(v);
        }
    }
}
