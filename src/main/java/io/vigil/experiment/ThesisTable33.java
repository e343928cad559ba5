package io.vigil.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thesis's own figures for the small-sample experiments (Parrish 2012, §3.5.2): mean 3-NN test accuracy
 * (percent) over ten random re-splits, for LDG and regularised FDA, from Table 3.3 (ℓ = G − 1) and Table
 * 3.4 (ℓ chosen by cross-validation; Reg. FDA stays at G − 1 there). Transcribed from the thesis text;
 * dataset names mapped to the UCR archive's (e.g. "Gun Point" → GunPoint, "Sony" →
 * SonyAIBORobotSurface1, "Sony II" → SonyAIBORobotSurface2, "Diatom" → DiatomSizeReduction), in the
 * thesis's row order.
 */
public final class ThesisTable33 {
    /**
     * One row.
     *
     * @param thesisName the name as printed in the thesis
     * @param archiveName the UCR archive folder name
     * @param ldgG1 LDG accuracy at ℓ = G − 1 (Table 3.3), percent
     * @param regFdaG1 regularised FDA accuracy at G − 1 (Table 3.3), percent
     * @param ldgCv LDG accuracy with cross-validated ℓ (Table 3.4), percent
     * @param regFdaCv regularised FDA accuracy in Table 3.4 (at G − 1), percent
     */
    public record Row(
            String thesisName, String archiveName, double ldgG1, double regFdaG1, double ldgCv, double regFdaCv) {}

    private static final Map<String, Row> ROWS;

    static {
        Map<String, Row> m = new LinkedHashMap<>();
        put(m, "Beef", "Beef", 87.7, 87, 87.7, 87);
        put(m, "CBF", "CBF", 88.3, 89.3, 88.8, 89.3);
        put(m, "Cinc ECG Torso", "CinCECGTorso", 63.4, 48.4, 68.9, 48.4);
        put(m, "Coffee", "Coffee", 99.6, 100, 99.6, 100);
        put(m, "Diatom", "DiatomSizeReduction", 90.1, 89.4, 90.1, 89.4);
        put(m, "ECG Five Days", "ECGFiveDays", 93.6, 94.8, 93.8, 94.8);
        put(m, "Face Four", "FaceFour", 81.7, 82.3, 82.8, 82.3);
        put(m, "Fish", "Fish", 74.2, 83.1, 75.1, 83.1);
        put(m, "Gun Point", "GunPoint", 73.3, 84.4, 88, 84.4);
        put(m, "Haptics", "Haptics", 40.3, 40.5, 40.1, 40.5);
        put(m, "Inline Skate", "InlineSkate", 25, 24.5, 25.1, 24.5);
        put(m, "Lightning 2", "Lightning2", 70.7, 67, 72.1, 67);
        put(m, "Lightning 7", "Lightning7", 62.1, 60.3, 62.3, 60.3);
        put(m, "Mallat", "Mallat", 92.6, 91.5, 92.6, 91.5);
        put(m, "Mote Strain", "MoteStrain", 85.3, 84.6, 85.2, 84.6);
        put(m, "Olive Oil", "OliveOil", 87.3, 88.3, 87.3, 88.3);
        put(m, "OSU Leaf", "OSULeaf", 47.5, 44, 51, 44);
        put(m, "Sony", "SonyAIBORobotSurface1", 87.4, 87.8, 90, 87.8);
        put(m, "Sony II", "SonyAIBORobotSurface2", 80.7, 81.4, 81.2, 81.4);
        put(m, "Starlight Curves", "StarLightCurves", 83.8, 85.2, 88.7, 85.2);
        put(m, "Symbols", "Symbols", 73.4, 74.4, 73.2, 74.4);
        put(m, "Trace", "Trace", 75.2, 74.9, 79.6, 74.9);
        put(m, "Two Lead ECG", "TwoLeadECG", 92, 95.8, 92, 95.8);
        put(m, "Word Synonyms", "WordSynonyms", 58.7, 54.7, 58.6, 54.7);
        put(m, "Yoga", "Yoga", 56.8, 66, 78.9, 66);
        ROWS = Collections.unmodifiableMap(m);
    }

    private ThesisTable33() {}

    private static void put(
            Map<String, Row> m, String thesis, String archive, double ldg33, double fda33, double ldg34, double fda34) {
        m.put(archive, new Row(thesis, archive, ldg33, fda33, ldg34, fda34));
    }

    /** Archive names of the 25 datasets, in the thesis's row order. */
    public static List<String> datasets() {
        return List.copyOf(ROWS.keySet());
    }

    /** The row for an archive name, if the dataset is in the tables. */
    public static Optional<Row> row(String archiveName) {
        return Optional.ofNullable(ROWS.get(archiveName));
    }
}
