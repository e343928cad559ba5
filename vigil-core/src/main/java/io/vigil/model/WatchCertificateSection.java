package io.vigil.model;

/**
 * What a window model certifies in units an operator reads (section {@code watch_certificate}; docs/watch.md, "What
 * the certificate covers in this mode"), calibrated on recordings — the exchangeable units — never on overlapping
 * windows: each training recording replayed value by value through the watch logic under the fold model that saw
 * none of its recording (folds grouped by recording), at the model's operating point. Optional: a Vigil that does
 * not know it decides the same. Immutable.
 *
 * @param recordings the training recordings replayed (n)
 * @param hours their recorded hours
 * @param delta the certificate's δ: each bound holds with probability ≥ 1 − δ over the draw of the recordings
 * @param extraFalseAlarmsPerHour the mean over recordings of their extra false alarms per hour: early alarms that
 *     the complete-window decisions of the same (fold) model would not raise (NaN when no recording has hours)
 * @param extraFalseAlarmsPerHourUpper its one-sided (1 − δ) upper bound; NaN with fewer than 2 recordings
 * @param eventWindows windows that start at an event (the labelled event examples of the replays)
 * @param eventRecordings recordings holding at least one such window
 * @param eventStartAgreement the mean over those recordings of the fraction of such windows whose early label
 *     equals their complete-window label
 * @param eventStartAgreementLower its one-sided (1 − δ) lower bound; NaN with fewer than 2 such recordings
 */
public record WatchCertificateSection(
        int recordings,
        double hours,
        double delta,
        double extraFalseAlarmsPerHour,
        double extraFalseAlarmsPerHourUpper,
        long eventWindows,
        int eventRecordings,
        double eventStartAgreement,
        double eventStartAgreementLower)
        implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "watch_certificate";

    /** Validates. */
    public WatchCertificateSection {
        if (recordings < 1) {
            throw new IllegalArgumentException("watch_certificate.recordings must be ≥ 1, got " + recordings);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("watch_certificate.delta must lie in (0, 1), got " + delta);
        }
        if (!(hours >= 0) || extraFalseAlarmsPerHour < 0 || eventWindows < 0 || eventRecordings < 0) {
            throw new IllegalArgumentException("watch_certificate: hours, rates and counts must be ≥ 0");
        }
    }

    @Override
    public String sectionName() {
        return NAME;
    }

    @Override
    public boolean required() {
        return false;
    }

    @Override
    public void checkShape(ModelShape shape) {}
}
