package io.vigil.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
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

    /** {@code watch_certificate} in JSON: the section's fields; a bound that could not be computed is null. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Json(
            int recordings,
            double hours,
            double delta,
            Double extraFalseAlarmsPerHour,
            Double extraFalseAlarmsPerHourUpper,
            long eventWindows,
            int eventRecordings,
            Double eventStartAgreement,
            Double eventStartAgreementLower) {
        static Json of(WatchCertificateSection s) {
            return new Json(
                    s.recordings(),
                    s.hours(),
                    s.delta(),
                    orNull(s.extraFalseAlarmsPerHour()),
                    orNull(s.extraFalseAlarmsPerHourUpper()),
                    s.eventWindows(),
                    s.eventRecordings(),
                    orNull(s.eventStartAgreement()),
                    orNull(s.eventStartAgreementLower()));
        }
    }

    /** The model's section as JSON, or null when it has none. */
    static Json json(VigilModel m) {
        return section(m).map(Json::of).orElse(null);
    }

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

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
