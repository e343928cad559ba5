package io.vigil.api;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.model.VigilModel;
import io.vigil.model.WatchCertificateSection;

/**
 * {@code watch_certificate} in the JSON of {@code train} and {@code inspect}: a window model's certificate in operator
 * units ({@link WatchCertificateSection}; docs/watch.md, "What the certificate covers in this mode"); a bound that
 * could not be computed (too few recordings) is null.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record WatchCertificateSummary(
        int recordings,
        double hours,
        double delta,
        Double extraFalseAlarmsPerHour,
        Double extraFalseAlarmsPerHourUpper,
        long eventWindows,
        int eventRecordings,
        Double eventStartAgreement,
        Double eventStartAgreementLower) {
    /** The summary of section {@code s}. */
    public static WatchCertificateSummary of(WatchCertificateSection s) {
        return new WatchCertificateSummary(
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

    /** The model's certificate, or null when it has none. */
    public static WatchCertificateSummary of(VigilModel m) {
        return m.section(WatchCertificateSection.class)
                .map(WatchCertificateSummary::of)
                .orElse(null);
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
