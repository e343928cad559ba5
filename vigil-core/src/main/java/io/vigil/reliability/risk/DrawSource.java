package io.vigil.reliability.risk;

import java.util.Locale;

/**
 * Where the conformal draw U of a model came from, stored beside it so that {@code inspect} can say whether the
 * randomised guarantee applies: only a draw that was {@link #DRAWN} independently of the calibration losses keeps
 * it ({@link ConformalRiskControl#derivedDraw}); a {@link #GIVEN} U reproduces a model but certifies nothing beyond
 * the one it reproduces.
 */
public enum DrawSource {
    /** Derived from {@code --seed} and the training data's fingerprint ({@link ConformalRiskControl#derivedDraw}). */
    DRAWN,
    /** Passed as {@code --crc-draw U}. */
    GIVEN,
    /** U = 1, the non-randomised form (and every pac model). */
    CONSERVATIVE,
    /** Written before the provenance was stored. */
    UNRECORDED;

    /** The name in model files and output. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@link #cliName()}. */
    public static DrawSource fromCliName(String name) {
        for (DrawSource s : values()) {
            if (s.cliName().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "crc_draw_source must be drawn, given, conservative or unrecorded, got '" + name + "'");
    }

    /** The source a draw carries when nothing else is known: conservative for U = 1, else unrecorded. */
    public static DrawSource implied(double draw) {
        return draw == ConformalRiskControl.CONSERVATIVE ? CONSERVATIVE : UNRECORDED;
    }
}
