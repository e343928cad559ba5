package io.vigil.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thesis's Table 3.5 (Parrish 2012, §3.5.2): average run-time in seconds of each small-sample dimensionality
 * reduction method (selection included) over the Table 3.3 re-splits, on the thesis's hardware. Transcribed from the
 * thesis text as printed ("&lt; 0.1", "-" where ITML did not converge), keyed by the thesis's dataset names; {@link
 * #cell} maps an archive name through {@link ThesisTable33}.
 */
public final class ThesisTable35 {
    /** The table's columns, in its order. */
    public static final List<String> COLUMNS =
            List.of("LDG", "PCA", "PCA FDA", "Reg. FDA", "DLDA", "GDA", "PCA LFDA", "Reg. LFDA", "ITML");

    private static final Map<String, String[]> ROWS = rows();

    private ThesisTable35() {}

    private static Map<String, String[]> rows() {
        Map<String, String[]> m = new LinkedHashMap<>();
        put(m, "Beef", "3.5", "0.1", "< 0.1", "1.3", "0.4", "0.4", "0.5", "1.3", "-");
        put(m, "CBF", "0.2", "< 0.1", "< 0.1", "0.5", "< 0.1", "< 0.1", "0.1", "0.5", "68.2");
        put(m, "Cinc ECG Torso", "117.3", "1.6", "0.3", "13.3", "8.5", "8.8", "13.7", "13.3", "-");
        put(m, "Coffee", "1.1", "0.1", "< 0.1", "0.9", "0.1", "0.1", "0.2", "0.9", "346.5");
        put(m, "Diatom", "1.8", "< 0.1", "< 0.1", "1.1", "0.2", "0.1", "0.3", "1.1", "-");
        put(m, "ECG Five Days", "0.3", "< 0.1", "< 0.1", "0.8", "< 0.1", "< 0.1", "0.1", "0.8", "45.2");
        put(m, "Face Four", "1.8", "0.1", "< 0.1", "1.2", "0.2", "0.1", "0.3", "1.2", "-");
        put(m, "Fish", "3.9", "0.3", "0.1", "1.6", "0.4", "1.8", "1.4", "1.6", "-");
        put(m, "Gun Point", "0.2", "< 0.1", "< 0.1", "0.5", "< 0.1", "< 0.1", "0.2", "0.5", "38.6");
        put(m, "Haptics", "31.0", "0.6", "0.2", "6.2", "3.0", "11.9", "4.6", "6.2", "-");
        put(m, "Inline Skate", "159.7", "4.4", "0.9", "18.9", "12.4", "26.9", "24.5", "18.9", "-");
        put(m, "Lightning 2", "7.7", "0.3", "0.1", "2.1", "0.7", "1.4", "1.2", "2.1", "-");
        put(m, "Lightning 7", "1.4", "0.1", "< 0.1", "1.1", "0.1", "0.2", "0.5", "1.1", "-");
        put(m, "Mallat", "27.8", "0.7", "0.1", "5.5", "2.7", "3.6", "3.8", "5.5", "-");
        put(m, "Mote Strain", "0.2", "< 0.1", "< 0.1", "0.6", "< 0.1", "< 0.1", "0.1", "0.6", "8.6");
        put(m, "Olive Oil", "6.1", "0.1", "< 0.1", "1.9", "0.7", "0.6", "0.7", "1.9", "-");
        put(m, "OSU Leaf", "2.0", "0.2", "0.1", "0.9", "0.2", "1.2", "1.0", "0.9", "-");
        put(m, "Sony", "0.2", "< 0.1", "< 0.1", "0.6", "< 0.1", "< 0.1", "0.1", "0.6", "7.3");
        put(m, "Sony II", "0.2", "< 0.1", "< 0.1", "0.6", "< 0.1", "< 0.1", "< 0.1", "0.6", "5.6");
        put(m, "Starlight Curves", "44.8", "4.6", "11.2", "6.0", "2.6", "38.8", "13.5", "6.0", "-");
        put(m, "Symbols", "2.4", "0.1", "< 0.1", "1.3", "0.3", "0.2", "0.4", "1.3", "-");
        put(m, "Trace", "0.7", "0.1", "< 0.1", "0.7", "0.1", "0.1", "0.5", "0.7", "1637.0");
        put(m, "Two Lead ECG", "0.2", "< 0.1", "< 0.1", "0.7", "< 0.1", "< 0.1", "0.1", "0.7", "24.0");
        put(m, "Word Synonyms", "1.8", "0.2", "0.1", "1.5", "0.1", "0.3", "1.2", "1.5", "3358.2");
        put(m, "Yoga", "3.3", "0.4", "0.2", "1.2", "0.2", "1.6", "1.4", "1.2", "-");
        return m;
    }

    private static void put(Map<String, String[]> m, String thesisName, String... cells) {
        m.put(thesisName, cells);
    }

    /**
     * The thesis's run-time for a dataset and column, as printed.
     *
     * @param archiveName UCR archive folder name (e.g. {@code GunPoint})
     * @param column one of {@link #COLUMNS}
     * @throws IllegalArgumentException for an unknown column
     */
    public static Optional<String> cell(String archiveName, String column) {
        int c = COLUMNS.indexOf(column);
        if (c < 0) {
            throw new IllegalArgumentException("Table 3.5 has no column '" + column + "'; it has " + COLUMNS);
        }
        return ThesisTable33.row(archiveName)
                .map(ThesisTable33.Row::thesisName)
                .map(ROWS::get)
                .map(r -> r[c]);
    }
}
