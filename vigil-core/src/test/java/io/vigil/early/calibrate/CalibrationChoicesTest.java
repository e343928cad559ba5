package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import org.junit.jupiter.api.Test;

/** {@link CalibrationChoices}: train's defaults give the default parameters; options without their partner fail. */
class CalibrationChoicesTest {
    private static CalibrationChoices choices(String objective, Double delayCost, String guarantee, String draw) {
        return new CalibrationChoices(objective, delayCost, guarantee, draw, null, "joint", null, "auto", 0.1);
    }

    @Test
    void trainsDefaultsAreTheDefaultParameters() {
        CalibrationParams p =
                choices("earliest-at-reliability", null, "pac", null).params(1);
        CalibrationParams d = CalibrationParams.defaults(1);
        assertEquals(d.folds(), p.folds());
        assertEquals(d.delta(), p.delta());
        assertEquals(d.objective(), p.objective());
        assertEquals(d.targetReliability(), p.targetReliability());
        assertEquals(d.guarantee(), p.guarantee());
        assertEquals(d.selection(), p.selection());
        assertEquals(d.estimator(), p.estimator());
        assertEquals(d.crcDraw(), p.crcDraw());
    }

    @Test
    void anOptionWithoutTheOneItNeedsIsRefusedNamingBoth() {
        String m = assertThrows(IllegalArgumentException.class, () -> choices("hm", 0.5, "pac", null)
                        .params(1))
                .getMessage();
        assertEquals("--delay-cost only applies to --objective cost", m);
        assertThrows(IllegalArgumentException.class, () -> choices("cost", null, "pac", null)
                .params(1));
        m = assertThrows(IllegalArgumentException.class, () -> choices("hm", null, "pac", "0.5")
                        .params(1))
                .getMessage();
        assertEquals("--crc-draw only applies to --guarantee expected", m);
    }

    @Test
    void theDrawIsDerivedUnlessGiven() {
        CalibrationChoices random = choices("hm", null, "expected", null);
        assertTrue(random.derivesDraw());
        CalibrationParams drawn = random.withDerivedDraw(random.params(1), 1, "sha256:00");
        assertEquals(DrawSource.DRAWN, drawn.crcDrawSource());
        assertEquals(ConformalRiskControl.derivedDraw(1, "sha256:00"), drawn.crcDraw());
        CalibrationChoices given = choices("hm", null, "expected", "0.25");
        assertFalse(given.derivesDraw());
        assertEquals(0.25, given.params(1).crcDraw());
        assertEquals(Guarantee.EXPECTED, given.params(1).guarantee());
    }

    @Test
    void foldsAndDrawsParseOrNameTheAcceptedForms() {
        assertEquals(CalibrationParams.AUTO_FOLDS, CalibrationChoices.parseFolds("auto"));
        assertEquals(7, CalibrationChoices.parseFolds(" 7"));
        assertThrows(IllegalArgumentException.class, () -> CalibrationChoices.parseFolds("1"));
        assertEquals(ConformalRiskControl.CONSERVATIVE, CalibrationChoices.parseDraw("conservative"));
        String m = assertThrows(IllegalArgumentException.class, () -> CalibrationChoices.parseDraw("2"))
                .getMessage();
        assertTrue(m.contains("random, conservative or a number in (0, 1]"), m);
    }
}
