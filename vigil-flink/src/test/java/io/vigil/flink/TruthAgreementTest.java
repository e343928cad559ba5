package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rolling window behind {@code truthAgreement}: a fraction of the last N outcomes, the oldest dropped first. */
class TruthAgreementTest {
    @Test
    void agreementIsTheFractionOfTheLastOutcomes() {
        TruthAgreement.Window w = new TruthAgreement.Window(4);
        assertTrue(Double.isNaN(w.agreement()), "nothing compared yet");
        w.add(true);
        w.add(false);
        assertEquals(0.5, w.agreement());
        w.add(true);
        w.add(true);
        assertEquals(0.75, w.agreement());
        w.add(false); // drops the first (true)
        assertEquals(0.5, w.agreement());
        w.add(true); // drops false
        w.add(true); // drops true
        w.add(true); // drops true
        assertEquals(0.75, w.agreement(), "false, true, true, true");
        for (int i = 0; i < 4; i++) {
            w.add(false);
        }
        assertEquals(0.0, w.agreement());
    }
}
