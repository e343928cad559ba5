package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.early.DecisionParams;
import io.vigil.gauss.EstimatorType;
import org.junit.jupiter.api.Test;

/**
 * Loading a model for the job (at start and from the model topic) with the per-class mixture as estimator: it serves
 * prefixes and, through its any-order form, values in any order.
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
    void theMixtureServesPrefixesAndAnyOrderObservation() {
        SessionSettings prefixes = SessionSettings.defaults();
        StreamModel ok = StreamModel.load(StreamFixtures.MODEL_BYTES, GMM, prefixes, "m.json");
        assertEquals(EstimatorType.GMM, ok.tracker().classifier().params().estimator());
        StreamModel anyOrder = StreamModel.load(StreamFixtures.MODEL_BYTES, GMM, prefixes.withAnyOrder(true), "m.json");
        assertEquals(
                anyOrder.tracker().classifier().classNames().size(),
                anyOrder.tracker().classifier().subsetConditioner().components(),
                "the any-order path conditions on the per-class mixture, one Gaussian per class");
    }
}
