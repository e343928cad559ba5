package io.vigil.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The thesis's Table 5.4 (Parrish 2012, §5.6.4): per dataset, the series length d, the number ℓ of LDG features
 * (chosen by cross-validation on the training data) and the average test time per test series, in milliseconds, of
 * reliable local-QDA classification with the naive-Bayes quadratic set and the jointly Gaussian estimator at t = 1,
 * without LDG (in the d-dimensional sample space) and with LDG, on the thesis's hardware. Transcribed from the thesis
 * text in its row order; dataset names mapped to the UCR archive's, matched in any case, with the older archive
 * spellings accepted too (e.g. {@code synthetic_control}, {@code Two_Patterns}, {@code NonInvasiveFatalECG_Thorax1}).
 */
public final class ThesisTable54 {
    /**
     * One row.
     *
     * @param thesisName the name as printed in the thesis
     * @param archiveName the UCR archive (2018) folder name
     * @param length d
     * @param ldgDims ℓ
     * @param rawMillis test time at t = 1 without LDG, ms
     * @param ldgMillis test time at t = 1 with LDG, ms
     */
    public record Row(String thesisName, String archiveName, int length, int ldgDims, int rawMillis, int ldgMillis) {
        /** The thesis's speed-up of LDG at t = 1: raw time over LDG time. */
        public double speedUp() {
            return rawMillis / (double) ldgMillis;
        }
    }

    private static final Map<String, Row> ROWS = rows();

    /** Older archive spellings (UCR 2015 and before), lower-cased, to the 2018 folder name. */
    private static final Map<String, String> ALIASES = Map.of(
            "synthetic_control", "SyntheticControl",
            "two_patterns", "TwoPatterns",
            "noninvasivefatalecg_thorax1", "NonInvasiveFetalECGThorax1",
            "noninvasivefatalecg_thorax2", "NonInvasiveFetalECGThorax2",
            "uwavegesturelibrary_x", "UWaveGestureLibraryX",
            "uwavegesturelibrary_y", "UWaveGestureLibraryY",
            "uwavegesturelibrary_z", "UWaveGestureLibraryZ");

    private ThesisTable54() {}

    private static Map<String, Row> rows() {
        Map<String, Row> m = new LinkedHashMap<>();
        put(m, "Chlorine Concentration", "ChlorineConcentration", 166, 42, 76, 4);
        put(m, "Italy Power Demand", "ItalyPowerDemand", 24, 2, 2, 1);
        put(m, "Face (All)", "FaceAll", 131, 30, 40, 2);
        put(m, "Medical Images", "MedicalImages", 99, 11, 18, 2);
        put(m, "Non-Invasive Fetal ECG 1", "NonInvasiveFetalECGThorax1", 750, 30, 6107, 4);
        put(m, "Non-Invasive Fetal ECG 2", "NonInvasiveFetalECGThorax2", 750, 23, 5789, 3);
        put(m, "Starlight Curves", "StarLightCurves", 1024, 26, 15697, 2);
        put(m, "Swedish Leaf", "SwedishLeaf", 128, 20, 35, 2);
        put(m, "Synthetic Control", "SyntheticControl", 60, 7, 9, 1);
        put(m, "Two Patterns", "TwoPatterns", 128, 22, 31, 2);
        put(m, "U Wave Gesture Library X", "UWaveGestureLibraryX", 315, 12, 418, 2);
        put(m, "U Wave Gesture Library Y", "UWaveGestureLibraryY", 315, 6, 382, 1);
        put(m, "U Wave Gesture Library Z", "UWaveGestureLibraryZ", 315, 10, 393, 2);
        put(m, "Wafer", "Wafer", 152, 17, 55, 2);
        put(m, "Yoga", "Yoga", 426, 26, 945, 2);
        return m;
    }

    private static void put(Map<String, Row> m, String thesisName, String archiveName, int d, int l, int raw, int ldg) {
        m.put(archiveName, new Row(thesisName, archiveName, d, l, raw, ldg));
    }

    /** The archive names of the thesis's datasets, in its row order. */
    public static List<String> datasets() {
        return List.copyOf(ROWS.keySet());
    }

    /**
     * The thesis's row for an archive folder name, if the table has it: the 2018 spelling (any case) or an older one.
     */
    public static Optional<Row> row(String archiveName) {
        String key = archiveName.toLowerCase(Locale.ROOT);
        String alias = ALIASES.get(key);
        if (alias != null) {
            return Optional.of(ROWS.get(alias));
        }
        return ROWS.values().stream()
                .filter(r -> r.archiveName().toLowerCase(Locale.ROOT).equals(key))
                .findFirst();
    }
}
