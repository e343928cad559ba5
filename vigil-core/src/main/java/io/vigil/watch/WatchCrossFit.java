package io.vigil.watch;

import io.vigil.api.Vigil;
import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.WatchCertificateSection;
import io.vigil.model.WindowSection;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.List;

/**
 * The watch certificate of a window model (docs/watch.md, "What the certificate covers in this mode"): every training
 * recording replayed value by value through the per-key watch logic ({@link WatchReplay}, {@link KeyWatcher}) under a
 * fold model that saw none of its windows — folds grouped by recording ({@link Folds#groupedKFold}), each fold model
 * refitted with the model's selection fixed and deciding at the model's operating point (its calibration carried over,
 * as series mode carries the fold models' certificate to the deployed model) — then {@link OperatorUnits#bounds} over
 * the recordings.
 */
public final class WatchCrossFit {
    private WatchCrossFit() {}

    /**
     * The section for {@code model}.
     *
     * @param model the trained window model with its calibration and window sections
     * @param train the training recordings, in the order {@code windows} was cut from (its groups index them)
     * @param windows the training windows, grouped by recording
     * @param sections how the complete-series sections were fitted
     * @param p the calibration parameters (fold count and seed)
     * @param progress one step per fold
     * @param threads fold models replayed at a time, &ge; 1
     * @throws IllegalArgumentException when the model has no calibration or the windows no recording groups
     */
    public static WatchCertificateSection certify(
            VigilModel model,
            RecordingSet train,
            Dataset windows,
            EarlyModelTrainer.Params sections,
            CalibrationParams p,
            Progress progress,
            int threads) {
        CalibrationSection calibration = model.section(CalibrationSection.class)
                .orElseThrow(() -> new IllegalArgumentException("the watch certificate needs a calibrated model"));
        WindowSection window = model.section(WindowSection.class)
                .orElseThrow(() -> new IllegalArgumentException("the watch certificate needs a window model"));
        if (!windows.hasGroups()) {
            throw new IllegalArgumentException("the watch certificate needs windows grouped by recording");
        }
        int[] groups = windows.groups();
        int n = windows.size();
        int k = Math.max(2, p.foldsFor(n, windows.length()));
        int[][] folds = Folds.groupedKFold(windows.classIndices(), windows.numClasses(), groups, k, p.seed());
        progress.extendBy(folds.length);
        List<int[]> parts = List.of(folds);
        List<List<OperatorUnits.Measure>> perFold = Parallel.map(parts, threads, "watch certificate", fold -> {
            VigilModel m =
                    CrossFitCalibrator.refitFold(model, windows.subset(Folds.complement(fold, n)), sections, p)
                            .toBuilder()
                            // The deployed calibration decides for the fold model (its thresholds and κ, as series
                            // mode carries the fold models' certificate to the deployed model); its replays are not
                            // among this fold's training windows, which the holdout marking says (the transient fold
                            // model is never written).
                            .section(calibration.withHoldout((double) fold.length / n))
                            .section(window)
                            .build();
            Vigil vigil = Vigil.of(m);
            WindowSpec spec = WatchEvaluation.specOf(vigil, null);
            boolean[] held = new boolean[train.recordings().size()];
            for (int i : fold) {
                held[groups[i]] = true;
            }
            List<OperatorUnits.Measure> out = new ArrayList<>();
            for (int r = 0; r < held.length; r++) {
                if (held[r]) {
                    Recording rec = train.recordings().get(r);
                    out.add(OperatorUnits.measure(vigil, spec, train, rec));
                }
            }
            progress.step();
            return out;
        });
        List<OperatorUnits.Measure> all = new ArrayList<>();
        perFold.forEach(all::addAll);
        double delta = calibration.delta();
        OperatorUnits.Bounds b = OperatorUnits.bounds(all, delta);
        return new WatchCertificateSection(
                b.recordings(),
                b.hours(),
                delta,
                b.extraPerHour(),
                b.extraPerHourUpper(),
                b.eventWindows(),
                b.eventRecordings(),
                b.agreement(),
                b.agreementLower());
    }
}
