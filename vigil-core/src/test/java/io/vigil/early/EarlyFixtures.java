package io.vigil.early;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;

/** Small trained models on generated data, shared by the early-decision tests (fixed LDG/QDA parameters keep it fast). */
public final class EarlyFixtures {
    private EarlyFixtures() {}

    /** CBF (d = 128, G = 3), 60 training and 60 test series, ℓ = 4, with both estimators and the SVM. */
    public static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 60, 60, 7L);

    public static final VigilModel CBF_MODEL = train(CBF, false);

    public static final VigilModel CBF_STANDARDIZED_MODEL = train(CBF, true);

    /**
     * CBF with 300 training series (≈ 100 per class) and ℓ = 12: large enough (n_g·ℓ ≥ 1,024) for local QDA's
     * neighbour cache to keep bounds, which the smaller fixtures are not.
     */
    static final TrainTest CBF_LARGE = SyntheticData.generate(SyntheticKind.CBF, 300, 60, 7L);

    static final VigilModel CBF_LARGE_MODEL = EarlyModelTrainer.addSections(
            Trainer.train(
                    CBF_LARGE.train(),
                    TrainParams.builder()
                            .gamma(0.3)
                            .dims(12)
                            .neighbors(8)
                            .qdaNeighbors(16)
                            .build(),
                    Instant.parse("2026-01-01T00:00:00Z"),
                    Progress.none()),
            CBF_LARGE.train(),
            EarlyModelTrainer.Params.defaults());

    /**
     * Generated CBF stretched to d = 2,500 (45 training, 24 test series, ℓ = 4): stride 3, the first length at which
     * the rule skips samples ({@link DecisionStride}). A holder, so only the tests that use it train it.
     */
    public static final class LongSeries {
        private LongSeries() {}

        public static final TrainTest DATA = SyntheticData.generate(SyntheticKind.CBF, 45, 24, 11L, false, 2500);

        public static final VigilModel MODEL = train(DATA, false);
    }

    /**
     * Generated multi-cbf (C = 3 channels × d = 128, G = 3), 60 training and 30 test series, ℓ = 4, standardised
     * per channel: for observation in any order. A holder, so only the tests that use it train it.
     */
    public static final class MultiChannel {
        private MultiChannel() {}

        public static final TrainTest DATA = SyntheticData.generate(SyntheticKind.MULTI_CBF, 60, 30, 21L);

        public static final VigilModel MODEL = train(DATA, false);
    }

    /**
     * Generated CBF with 300 training series per class and ℓ = 4: a class large enough, in a dimension low enough,
     * for local QDA's k-d trees ({@code TreeSearch}). A holder, so only the tests that use it train it.
     */
    static final class Trees {
        static final TrainTest DATA = SyntheticData.generate(SyntheticKind.CBF, 900, 40, 13L);
        static final VigilModel MODEL = train(DATA, false);

        private Trees() {}
    }

    public static VigilModel train(TrainTest data, boolean standardize) {
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(8)
                .qdaNeighbors(8)
                .standardize(standardize)
                .build();
        VigilModel m = Trainer.train(data.train(), p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        return EarlyModelTrainer.addSections(m, data.train(), EarlyModelTrainer.Params.defaults());
    }
}
