package io.vigil.watch;

import io.vigil.api.TrainOptions;
import io.vigil.api.Vigil;
import io.vigil.api.VigilSession;
import io.vigil.api.VigilTrainer;
import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

/**
 * Small window models for the watch tests: generated CBF (D = 128) and three-channel CBF, trained once per JVM with
 * fixed LDG/QDA parameters, class "1" (cylinder) playing the background; and streams made by concatenating test
 * series.
 */
final class WatchFixtures {
    static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 40, 60, 3L);
    static final TrainTest MULTI = SyntheticData.generate(SyntheticKind.MULTI_CBF, 40, 30, 4L);

    private static Vigil cbf;
    private static Vigil multi;

    private WatchFixtures() {}

    static synchronized Vigil cbf() {
        if (cbf == null) {
            cbf = Vigil.of(train(CBF));
        }
        return cbf;
    }

    static synchronized Vigil multi() {
        if (multi == null) {
            multi = Vigil.of(train(MULTI));
        }
        return multi;
    }

    /** Generated CBF, 300 training series per class: local QDA's classes large enough for its k-d trees. */
    static final TrainTest LARGE = SyntheticData.generate(SyntheticKind.CBF, 900, 30, 5L);

    private static Vigil large;

    /** A model of {@link #LARGE} (not calibrated, to train in seconds), whose searches are k-d trees. */
    static synchronized Vigil large() {
        if (large == null) {
            TrainOptions o = TrainOptions.builder()
                    .selection(TrainParams.builder()
                            .gamma(0.3)
                            .dims(3)
                            .neighbors(8)
                            .qdaNeighbors(4)
                            .build())
                    .noCalibration()
                    .created(Instant.EPOCH)
                    .build();
            large = Vigil.of(VigilTrainer.train(LARGE.train(), o, Progress.none()));
        }
        return large;
    }

    private static io.vigil.model.VigilModel train(TrainTest data) {
        TrainOptions o = TrainOptions.builder()
                .selection(TrainParams.builder()
                        .gamma(0.3)
                        .dims(4)
                        .neighbors(8)
                        .qdaNeighbors(8)
                        .build())
                .calibration(TrainOptions.defaultCalibration(1).withPattern(ObservationPattern.complete()))
                .created(Instant.EPOCH)
                .build();
        return VigilTrainer.train(data.train(), o, Progress.none());
    }

    /**
     * A stream {@code [channel][sample − 1]} of the test series {@code order} back to back, each starting at a
     * 1-based sample {@code 1 + k·d}.
     */
    static double[][] concat(Dataset test, int... order) {
        int c = test.channels();
        int d = test.seriesLength();
        double[][] x = new double[c][order.length * d];
        for (int k = 0; k < order.length; k++) {
            for (int ch = 0; ch < c; ch++) {
                for (int t = 1; t <= d; t++) {
                    x[ch][k * d + t - 1] = test.value(order[k], ch, t - 1);
                }
            }
        }
        return x;
    }

    /** Indices of test series of class index {@code label}, in order. */
    static int[] ofClass(Dataset test, int label, int count) {
        int[] out = new int[count];
        int n = 0;
        for (int i = 0; i < test.size() && n < count; i++) {
            if (test.classOf(i) == label) {
                out[n++] = i;
            }
        }
        if (n < count) {
            throw new IllegalStateException("only " + n + " test series of class " + label);
        }
        return out;
    }

    /** A random order of {@code n} test series. */
    static int[] shuffled(Dataset test, int n, long seed) {
        Random r = new Random(seed);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextInt(test.size());
        }
        return out;
    }

    /**
     * The brute-force decision of the window starting at {@code start}: a fresh session fed the window's values
     * time-major, or empty when the stream ends inside the window before the rule decides.
     */
    static Optional<io.vigil.api.EarlyDecision> fresh(Vigil vigil, double[][] x, long start) {
        int d = vigil.seriesLength();
        int available = (int) Math.min(d, x[0].length - start + 1);
        VigilSession s = vigil.newSession();
        for (int t = 1; t <= available; t++) {
            for (int c = 0; c < x.length; c++) {
                Optional<io.vigil.api.EarlyDecision> e = s.observe(c, t, x[c][(int) (start - 2 + t)]);
                if (e.isPresent()) {
                    return e;
                }
            }
        }
        if (available == d) {
            throw new AssertionError("a complete window always gets a decision");
        }
        return Optional.empty();
    }
}
