package io.vigil.watch;

import io.vigil.classify.qda.LocalQda;
import io.vigil.model.VigilModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The complete-window reference a monitoring team builds first: every window on the stride grid is labelled only once
 * it is complete, by the model's classifier on the whole window (local QDA in LDG space, thesis §3.5), and event-class
 * labels become alarms through the same {@link AlarmMerger} as the early rule's. It is also the label the early rule
 * is certified against, so {@link #labels} serves the window certificate. A window holding a missing value has no
 * complete label and is skipped.
 */
public final class CompleteWindows {
    /** The complete-window label (class index) of each window, −1 when it holds a missing value. */
    public record Labels(long[] starts, int[] classes) {}

    private CompleteWindows() {}

    /**
     * The complete-window labels of one recording.
     *
     * @param values {@code values[channel][sample − 1]}
     */
    public static Labels labels(VigilModel model, WindowSpec spec, double[][] values) {
        int n = values[0].length;
        int d = spec.length();
        int count = n < d ? 0 : (n - d) / spec.stride() + 1;
        long[] starts = new long[count];
        int[] classes = new int[count];
        LocalQda qda = model.localQda();
        LocalQda.Workspace ws = qda.newWorkspace();
        double[] q = new double[model.dims()];
        for (int w = 0; w < count; w++) {
            int from = w * spec.stride();
            starts[w] = from + 1L;
            double[] x = WindowExamples.window(values, from, d);
            boolean missing = false;
            for (double v : x) {
                missing |= Double.isNaN(v);
            }
            if (missing) {
                classes[w] = -1;
                continue;
            }
            model.project(x, q);
            classes[w] = qda.predict(q, ws);
        }
        return new Labels(starts, classes);
    }

    /** The alarms of one recording when each window is decided only at its end. */
    public static List<AlarmEvent> alarms(VigilModel model, WindowSpec spec, String key, double[][] values) {
        return alarms(model, spec, key, labels(model, spec, values));
    }

    /** The alarms of one recording from its complete-window {@code labels} (computed once, shared). */
    public static List<AlarmEvent> alarms(VigilModel model, WindowSpec spec, String key, Labels labels) {
        return alarms(model.classNames(), spec, key, labels, spec.length());
    }

    /**
     * The alarms of windows each labelled once, {@code observed} samples after its start (D for complete windows, the
     * prefix length for a fixed-delay decision), merged by the same {@link AlarmMerger}. Windows are decided in start
     * order, so when window w decides, no window starting before it can decide any more.
     *
     * @param classes the class names {@code labels} index
     * @param observed samples of the window seen when it is labelled, 1..D: its trigger is start + observed − 1
     */
    static List<AlarmEvent> alarms(List<String> classes, WindowSpec spec, String key, Labels labels, int observed) {
        AlarmMerger merger = new AlarmMerger(key, classes.size(), spec.rearm());
        List<AlarmEvent> out = new ArrayList<>();
        for (int w = 0; w < labels.starts().length; w++) {
            long start = labels.starts()[w];
            // When window w is labelled, it and every later window are still to decide: older groups can close.
            merger.release(start);
            int c = labels.classes()[w];
            if (c < 0 || !spec.eventLabels().contains(classes.get(c))) {
                continue;
            }
            long trigger = start + observed - 1;
            WindowDecision d = new WindowDecision(
                    key,
                    classes.get(c),
                    c,
                    true,
                    start,
                    spec.length(),
                    trigger,
                    observed,
                    observed < spec.length(),
                    true,
                    Double.NaN,
                    Double.NaN,
                    false,
                    "none");
            double delayMs =
                    spec.samplingRateHz() > 0 ? (trigger - start) * 1000.0 / spec.samplingRateHz() : Double.NaN;
            AlarmEvent a = merger.offer(d, delayMs);
            if (a != null) {
                out.add(a);
            }
        }
        return out;
    }
}
