package io.vigil.stream;

import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.model.json.ModelFile;
import java.util.ArrayList;
import java.util.List;

/** The generated CBF model of the early-decision tests as a model file, and helpers to feed its series. */
public final class StreamFixtures {
    private StreamFixtures() {}

    /** The model file bytes. */
    public static final byte[] MODEL_BYTES = ModelFile.standard().toBytes(EarlyFixtures.CBF_MODEL);

    /** The test split (60 series, d = 128). */
    public static final Dataset TEST = EarlyFixtures.CBF.test();

    /** Default decision parameters (τ = 0.9). */
    public static final DecisionParams PARAMS = DecisionParams.defaults();

    /** The classifier of {@link #MODEL_BYTES} with {@link #PARAMS}. */
    public static EarlyClassifier classifier() {
        return EarlyClassifier.of(EarlyFixtures.CBF_MODEL, PARAMS);
    }

    /** The offline decisions ({@code vigil evaluate}'s) for the test split. */
    public static List<SeriesDecision> offlineDecisions() {
        return EarlyReplay.replay(classifier(), TEST);
    }

    /** The series id used for test series i. */
    public static String id(int i) {
        return "CBF/test/" + i;
    }

    /** Accepted sample events for series i, t = 1..d, partition 0, offsets from {@code firstOffset}. */
    public static List<SampleEvent> events(int i, long firstOffset) {
        double[] x = TEST.series(i);
        List<SampleEvent> out = new ArrayList<>(x.length);
        for (int t = 1; t <= x.length; t++) {
            out.add(event(id(i), t, x[t - 1], firstOffset + t - 1));
        }
        return out;
    }

    /** One accepted event with the JSON bytes a producer would send (series ids here need no JSON escaping). */
    public static SampleEvent event(String series, int t, double value, long offset) {
        byte[] raw = ("{\"series\":\"" + series + "\",\"t\":" + t + ",\"value\":" + value + "}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return SampleEvent.accepted(series, t, value, 1_000L + offset, 0, offset, raw);
    }
}
