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

    /**
     * The thesis's other columns of Tables 3.3 and 3.4, in its order. GDA and ITML have no Vigil counterpart yet; ITML
     * is NaN where the thesis prints "-" (no convergence in three hours).
     */
    public enum PeerColumn {
        /** PCA (cross-validated ℓ in Table 3.4). */
        PCA,
        /** PCA to n − G, then FDA (Fisherfaces). */
        PCA_FDA,
        /** Direct LDA. */
        DLDA,
        /** Generalised discriminant analysis. */
        GDA,
        /** PCA, then LFDA. */
        PCA_LFDA,
        /** LFDA with a cross-validated ridge. */
        REG_LFDA,
        /** Information-theoretic metric learning. */
        ITML
    }

    private static final Map<String, Row> ROWS;
    private static final Map<String, double[][]> PEERS;

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
        Map<String, double[][]> p = new LinkedHashMap<>();
        peers(p, "Beef", new double[] {42.3, 86.3, 37.3, 87.3, 59.7, 81.7, Double.NaN}, new double[] {
            43, 86.3, 37.3, 87.3, 59.7, 81.7, Double.NaN
        });
        peers(p, "CBF", new double[] {76.8, 85.5, 83, 82.1, 85.3, 92.4, 91.2}, new double[] {
            84, 85.5, 83, 82.1, 85.3, 92.4, 90.3
        });
        peers(p, "CinCECGTorso", new double[] {63.5, 46.4, 55.8, 45.2, 38.4, 60.8, Double.NaN}, new double[] {
            70.3, 46.4, 55.8, 45.2, 38.4, 66.9, Double.NaN
        });
        peers(p, "Coffee", new double[] {58.2, 100, 61.4, 100, 100, 100, 99.6}, new double[] {
            68.9, 100, 61.4, 100, 100, 100, 99.6
        });
        peers(p, "DiatomSizeReduction", new double[] {86.7, 87.8, 88.7, 88.6, 80.8, 87, Double.NaN}, new double[] {
            88.7, 87.8, 88.7, 88.6, 80.8, 87, Double.NaN
        });
        peers(p, "ECGFiveDays", new double[] {51.3, 94.8, 77.1, 94.8, 94.8, 92, 93.8}, new double[] {
            76.8, 94.8, 77.1, 94.8, 94.8, 92.4, 91.9
        });
        peers(p, "FaceFour", new double[] {67.5, 82.2, 77.6, 83.1, 65.9, 80.9, Double.NaN}, new double[] {
            74.1, 82.2, 77.6, 83.1, 65.9, 80.9, Double.NaN
        });
        peers(p, "Fish", new double[] {64.5, 65.3, 70.2, 62.6, 35.7, 78.9, Double.NaN}, new double[] {
            76.6, 65.3, 70.2, 62.6, 35.7, 82.9, Double.NaN
        });
        peers(p, "GunPoint", new double[] {64, 77.5, 69.4, 78.1, 77.9, 80.9, 79.5}, new double[] {
            79.6, 77.5, 69.4, 78.1, 77.9, 84.9, 83.8
        });
        peers(p, "Haptics", new double[] {32, 32.2, 36, 33, 26.8, 38.7, Double.NaN}, new double[] {
            37.2, 32.2, 36, 33, 26.7, 41.4, Double.NaN
        });
        peers(p, "InlineSkate", new double[] {26.5, 24.2, 24.9, 24.6, 19.3, 26.5, Double.NaN}, new double[] {
            26.9, 24.2, 24.9, 24.6, 19.3, 26.9, Double.NaN
        });
        peers(p, "Lightning2", new double[] {65.2, 60.7, 70, 61, 60.5, 66.9, Double.NaN}, new double[] {
            74.3, 60.7, 70, 61, 60.5, 69.5, Double.NaN
        });
        peers(p, "Lightning7", new double[] {65.3, 48.1, 58.6, 45.3, 29, 61, Double.NaN}, new double[] {
            64.2, 48.1, 58.6, 45.3, 29, 61.4, Double.NaN
        });
        peers(p, "Mallat", new double[] {81.2, 87.6, 62.1, 60.1, 61, 93.6, Double.NaN}, new double[] {
            80.1, 87.6, 62.1, 60.1, 61, 93.6, Double.NaN
        });
        peers(p, "MoteStrain", new double[] {74.7, 82.2, 84.6, 80.9, 82.3, 84.3, 83.3}, new double[] {
            83, 82.2, 84.6, 80.9, 82.3, 84.3, 83.2
        });
        peers(p, "OliveOil", new double[] {66, 87, 78.7, 86, 60.7, 86.3, Double.NaN}, new double[] {
            75.3, 87, 78.7, 86, 60.7, 86.3, Double.NaN
        });
        peers(p, "OSULeaf", new double[] {49.7, 32.5, 47.4, 33.2, 23.7, 50.4, Double.NaN}, new double[] {
            54.8, 32.5, 47.4, 33.2, 23.7, 53.4, Double.NaN
        });
        peers(p, "SonyAIBORobotSurface1", new double[] {67.1, 86.2, 88.1, 85.9, 86.5, 87.8, 88.6}, new double[] {
            86.4, 86.2, 88.1, 85.9, 86.5, 87.8, 87.4
        });
        peers(p, "SonyAIBORobotSurface2", new double[] {75.1, 81.1, 79.2, 81.1, 81.1, 81.6, 82.2}, new double[] {
            78.4, 81.1, 79.2, 81.1, 81.1, 81.6, 81.2
        });
        peers(p, "StarLightCurves", new double[] {84.4, 54.9, 84.1, 46.7, 63.9, 84.9, Double.NaN}, new double[] {
            90.7, 54.9, 84.1, 46.7, 63.9, 88.3, Double.NaN
        });
        peers(p, "Symbols", new double[] {73.5, 71, 59.9, 58.3, 55.7, 70, Double.NaN}, new double[] {
            73.9, 71, 59.9, 58.3, 55.7, 70, Double.NaN
        });
        peers(p, "Trace", new double[] {71.3, 73.9, 76, 63.4, 68.2, 78.8, 76.4}, new double[] {
            78.7, 73.9, 76, 63.4, 68.2, 79.6, 80.2
        });
        peers(p, "TwoLeadECG", new double[] {54.1, 95.8, 64.8, 96, 95.9, 95.8, 95.1}, new double[] {
            70.4, 95.8, 64.8, 96, 95.9, 95.8, 95.1
        });
        peers(p, "WordSynonyms", new double[] {58, 20.9, 40.5, 5.3, 7.1, 59.3, 56.3}, new double[] {
            57.9, 20.9, 40.5, 5.3, 7.1, 59.2, 56.8
        });
        peers(p, "Yoga", new double[] {58.9, 58.9, 56.4, 58.9, 59, 58.2, Double.NaN}, new double[] {
            81.8, 58.9, 56.4, 58.9, 59, 79.7, Double.NaN
        });
        PEERS = Collections.unmodifiableMap(p);
    }

    private static void peers(Map<String, double[][]> p, String archive, double[] table33, double[] table34) {
        p.put(archive, new double[][] {table33, table34});
    }

    /**
     * A peer method's figure for a dataset: Table 3.3 (ℓ = G − 1) or Table 3.4 (ℓ cross-validated where the thesis
     * does so); empty for a dataset outside the tables or a "-" entry.
     */
    public static Optional<Double> peer(String archiveName, PeerColumn column, boolean table34) {
        double[][] r = PEERS.get(archiveName);
        if (r == null) {
            return Optional.empty();
        }
        double v = r[table34 ? 1 : 0][column.ordinal()];
        return Double.isNaN(v) ? Optional.empty() : Optional.of(v);
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
