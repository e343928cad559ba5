package io.vigil.cli;

import io.vigil.model.VigilModel;
import io.vigil.model.WatchCertificateSection;
import java.util.Locale;
import java.util.Optional;

/**
 * How {@code train}, {@code inspect} and {@code evaluate --recordings} print a window model's certificate in operator
 * units ({@link WatchCertificateSection}; docs/watch.md, "What the certificate covers in this mode").
 */
final class WatchCertificateReport {
    private WatchCertificateReport() {}

    static Optional<WatchCertificateSection> section(VigilModel m) {
        return m.section(WatchCertificateSection.class);
    }

    /** One line: both quantities with their bounds and what they were calibrated on. */
    static String line(WatchCertificateSection s) {
        return String.format(
                Locale.ROOT,
                "extra false alarms %s/h (%.0f %% upper bound %s/h), agreement at event starts %s (%.0f %% lower "
                        + "bound %s, %d windows); cross-fitted over %d training recordings (%.2f h), folds grouped by "
                        + "recording",
                fmt(s.extraFalseAlarmsPerHour()),
                100 * (1 - s.delta()),
                fmt(s.extraFalseAlarmsPerHourUpper()),
                fmt(s.eventStartAgreement()),
                100 * (1 - s.delta()),
                fmt(s.eventStartAgreementLower()),
                s.eventWindows(),
                s.recordings(),
                s.hours());
    }

    static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.3f", v);
    }
}
