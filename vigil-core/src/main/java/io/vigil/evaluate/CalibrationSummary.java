package io.vigil.evaluate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.early.TauSaturation;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a model's calibration section certifies, as {@code train --json} and {@code inspect --json} write it: folds, δ,
 * guarantee, selection correction and its K, inflation, coverage, operating point, the standard τ the main curve cannot
 * certify, the τ range that all use the least conservative threshold ({@code tau_saturated}, null when there is none),
 * and per standard τ the cross-fitted reliability a rule needs to be certified on this many series ({@link
 * CalibrationSection#requiredReliability}; null when τ cannot be certified on this many series at all, 1.0 means
 * "certifiable with no disagreement"), docs/guarantee.md.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CalibrationSummary(
        int folds,
        @JsonInclude(Include.NON_NULL) Double holdout,
        double delta,
        String guarantee,
        @JsonInclude(Include.NON_NULL) Double crcDraw,
        @JsonInclude(Include.NON_NULL) String crcDrawSource,
        String selection,
        int candidates,
        double[] inflation,
        Coverage coverage,
        Point operatingPoint,
        List<Double> uncertifiedTaus,
        Saturation tauSaturated,
        Map<String, Double> requiredReliability,
        double smallestCertifiableAlpha) {
    /** The τ values users ask for most; {@code train} warns about each it cannot certify. */
    public static final double[] STANDARD_TAUS = {0.5, 0.8, 0.9, 0.95, 0.99};

    /** The summary of {@code model}'s section {@code c}. */
    public static CalibrationSummary of(VigilModel model, CalibrationSection c) {
        int series = mainCurve(c).map(CalibrationSection.Curve::series).orElse(1);
        Map<String, Double> required = new LinkedHashMap<>();
        for (double tau : STANDARD_TAUS) {
            OptionalDouble r = c.requiredReliability(series, tau);
            required.put(String.valueOf(tau), r.isPresent() ? r.getAsDouble() : null);
        }
        boolean expected = c.guarantee() == Guarantee.EXPECTED;
        return new CalibrationSummary(
                c.folds(),
                c.isHoldout() ? c.holdout() : null,
                c.delta(),
                c.guarantee().cliName(),
                expected ? c.crcDraw() : null,
                expected ? c.crcDrawSource().cliName() : null,
                c.selection().cliName(),
                c.candidates(),
                c.inflation(),
                new Coverage(c.coverageTaus(), c.coverageBefore(), c.coverageAfter()),
                c.operatingPoint().map(Point::of).orElse(null),
                uncertified(c),
                saturation(c).map(Saturation::of).orElse(null),
                required,
                c.smallestCertifiableAlpha(series));
    }

    /** The curve of the operating point's rule (or the first replayed one). */
    public static Optional<CalibrationSection.Curve> mainCurve(CalibrationSection c) {
        return c.operatingPoint()
                .flatMap(p -> c.curve(p.rule(), p.classifier(), p.set(), p.estimator()))
                .or(() -> c.curves().stream().findFirst());
    }

    /**
     * The τ range of the main curve that all certify the grid's least conservative threshold ({@link TauSaturation}),
     * or empty.
     */
    public static Optional<TauSaturation> saturation(CalibrationSection c) {
        return mainCurve(c).flatMap(curve -> TauSaturation.of(c, curve));
    }

    /** The {@link #STANDARD_TAUS} the main curve cannot certify. */
    public static List<Double> uncertified(CalibrationSection c) {
        List<Double> out = new ArrayList<>();
        mainCurve(c).ifPresent(curve -> {
            for (double tau : STANDARD_TAUS) {
                if (!c.certify(curve, tau).certified()) {
                    out.add(tau);
                }
            }
        });
        return out;
    }

    /** {@code tau_saturated}: the τ range that all use the least conservative threshold, and its one line. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Saturation(
            double fromTau,
            double toTau,
            double threshold,
            double meanFraction,
            double disagreementRate,
            String message) {
        /** The JSON form of {@code t}. */
        public static Saturation of(TauSaturation t) {
            return new Saturation(
                    t.fromTau(), t.toTau(), t.threshold(), t.meanFraction(), t.disagreementRate(), t.message());
        }
    }

    /** {@code coverage}: the coverage at each τ before and after inflation. */
    public record Coverage(double[] taus, double[] before, double[] after) {}

    /** {@code operating_point}: the stored operating point; target reliability and delay cost when it has them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Point(
            double tau,
            String objective,
            String rule,
            String classifier,
            String set,
            String estimator,
            double harmonicMean,
            boolean certified,
            @JsonInclude(Include.NON_NULL) Double targetReliability,
            @JsonInclude(Include.NON_NULL) Double delayCost) {
        static Point of(CalibrationSection.OperatingPoint p) {
            return new Point(
                    p.tau(),
                    p.objective(),
                    p.rule().cliName(),
                    p.classifier().cliName(),
                    p.set().cliName(),
                    p.estimator().id(),
                    p.harmonicMean(),
                    p.certified(),
                    Double.isNaN(p.targetReliability()) ? null : p.targetReliability(),
                    Double.isNaN(p.delayCost()) ? null : p.delayCost());
        }
    }
}
