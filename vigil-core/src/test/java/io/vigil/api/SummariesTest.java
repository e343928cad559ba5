package io.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionOverrides;
import io.vigil.evaluate.CalibrationSummary;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.EvaluationSummary;
import io.vigil.evaluate.PatternSummary;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The result records the {@code --json} outputs of {@code train}, {@code inspect} and {@code evaluate} are written from
 * ({@link TrainSummary}, {@link ModelSummary}, {@link CalibrationSummary}, {@link EvaluationSummary}, {@link
 * PatternSummary}): their fields, in the contract's order and snake case, carry the model's values.
 */
class SummariesTest {
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 40, 30, 5L);
    private static final VigilModel MODEL = VigilSessionTest.train(CBF, ObservationPattern.complete());

    @Test
    void trainSummaryStartsWithTheDocumentedFieldsAndCarriesTheCalibration() {
        JsonNode j = JSON.valueToTree(TrainSummary.of(MODEL, 1.5, "m.json"));
        assertEquals(
                List.of("dataset", "classes", "train_size", "length", "gamma", "neighbors", "dims", "cv_accuracy"),
                fields(j).subList(0, 8));
        assertEquals(40, j.get("train_size").asInt());
        assertEquals(1.5, j.get("fit_seconds").asDouble());
        assertEquals("m.json", j.get("model").asText());
        assertFalse(j.has("channels"), "single-channel models write no channels field");
        assertEquals(MODEL.fingerprint(), j.get("fingerprint").asText());
        assertTrue(j.get("calibration").has("operating_point"));
    }

    @Test
    void modelSummaryHasTheGridsAndPartSizes() {
        ModelSummary s = ModelSummary.of("m.json", MODEL, Map.of("ldg", 10L), 99);
        JsonNode j = JSON.valueToTree(s);
        assertEquals(
                List.of("file", "format", "format_version", "vigil_version"),
                fields(j).subList(0, 4));
        assertEquals(MODEL.dims(), j.get("dims").asInt());
        assertEquals(8, j.get("scores").get("ldg_neighbors").get("chosen").asInt());
        assertEquals("user", j.get("scores").get("gamma").get("source").asText());
        assertEquals(10, j.get("part_bytes").get("ldg").asLong());
        assertEquals(99, j.get("file_bytes").asLong());
        assertFalse(j.has("sparse"), "a linear LDG model has no sparse part");
    }

    @Test
    void calibrationSummaryListsEveryStandardTau() {
        CalibrationSection c = MODEL.section(CalibrationSection.class).orElseThrow();
        CalibrationSummary s = CalibrationSummary.of(MODEL, c);
        assertEquals(
                CalibrationSummary.STANDARD_TAUS.length, s.requiredReliability().size());
        assertEquals(c.folds(), s.folds());
        assertNull(s.holdout(), "cross-fitted, not a holdout");
        assertEquals(c.operatingPoint().orElseThrow().tau(), s.operatingPoint().tau());
        List<Double> uncertified = CalibrationSummary.uncertified(c);
        for (double tau : uncertified) {
            assertFalse(c.certify(CalibrationSummary.mainCurve(c).orElseThrow(), tau)
                    .certified());
        }
        assertTrue(JSON.valueToTree(s).has("smallest_certifiable_alpha"));
    }

    @Test
    void evaluationSummaryWritesOneEntryPerTauAndThePattern() {
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.2).seed(7).build();
        EarlyEvaluation.Result r = EarlyEvaluation.run(
                "CBF",
                MODEL,
                null,
                CBF.test(),
                List.of(0.8, 0.9),
                DecisionOverrides.none().resolve(MODEL),
                pattern,
                Progress.none());
        JsonNode j = JSON.valueToTree(EvaluationSummary.of(r, MODEL, pattern, "m.json", null));
        assertEquals(2, j.get("taus").size());
        assertEquals(0.8, j.get("taus").get(0).get("tau").asDouble());
        assertEquals("vigil", j.get("method").asText());
        assertEquals(0.2, j.get("pattern").get("missing").asDouble());
        assertEquals(7, j.get("pattern").get("seed").asLong());
        assertTrue(j.has("rule"), "the vigil fields are unwrapped into the object");
        assertFalse(j.has("report"), "no report directory");
        assertEquals(JSON.valueToTree(PatternSummary.of(pattern)), j.get("pattern"), "the pattern as PatternSummary");
    }

    private static List<String> fields(JsonNode j) {
        List<String> names = new ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
