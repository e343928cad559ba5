package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import io.vigil.gauss.EstimatorType;
import org.junit.jupiter.api.Test;

/**
 * Loading a model for the job (at start and from the model topic): a model the job's decision parameters cannot serve
 * is refused with one line, before any series reaches it.
 */
class StreamModelTest {
    private static final DecisionParams GMM = new DecisionParams(
            0.9,
            StreamFixtures.PARAMS.set(),
            EstimatorType.GMM,
            StreamFixtures.PARAMS.classifier(),
            null,
            StreamFixtures.PARAMS.rule());

    @Test
    void theMixtureServesPrefixesAndIsRefusedForAnyOrderObservation() {
        SessionSettings prefixes = SessionSettings.defaults();
        StreamModel ok = StreamModel.load(StreamFixtures.MODEL_BYTES, GMM, prefixes, "m.json");
        assertEquals(EstimatorType.GMM, ok.tracker().classifier().params().estimator());
        StreamModel.Unusable e = assertThrows(
                StreamModel.Unusable.class,
                () -> StreamModel.load(StreamFixtures.MODEL_BYTES, GMM, prefixes.withAnyOrder(true), "m.json"));
        assertTrue(
                e.getMessage().startsWith("m.json: ")
                        && e.getMessage().contains("--any-order")
                        && e.getMessage().contains("--estimator joint"),
                e.getMessage());
        StreamModel joint = StreamModel.load(
                StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, prefixes.withAnyOrder(true), "m.json");
        assertEquals(EstimatorType.JOINT, joint.tracker().classifier().params().estimator());
    }
}
