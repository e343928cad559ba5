package io.vigil.data.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The synthetic data set families {@code vigil generate} can produce, each with its command-line name,
 * the UCR archive's data set name, series length and class labels (the archive's, in its order).
 */
public enum SyntheticKind {
    /** Cylinder-Bell-Funnel (Saito 1994): 128 samples, classes "1" cylinder, "2" bell, "3" funnel. */
    CBF("cbf", "CBF", Cbf.LENGTH, 3),
    /** Control charts (Alcock and Manolopoulos 1999): 60 samples, classes "1".."6". */
    SYNTHETIC_CONTROL("synthetic-control", "SyntheticControl", SyntheticControl.LENGTH, 6),
    /** Two Patterns (Geurts 2001): 128 samples, classes "1".."4" (up-up, up-down, down-up, down-down). */
    TWO_PATTERNS("two-patterns", "TwoPatterns", TwoPatterns.LENGTH, 4),
    /**
     * Three-channel CBF ({@link MultiCbf}): 3 channels × 128 samples, classes "1".."3", channel-specific shapes
     * and lags.
     */
    MULTI_CBF("multi-cbf", "MultiCBF", Cbf.LENGTH, 3);

    private final String cliName;
    private final String datasetName;
    private final int length;
    private final List<String> classes;

    SyntheticKind(String cliName, String datasetName, int length, int numClasses) {
        this.cliName = cliName;
        this.datasetName = datasetName;
        this.length = length;
        List<String> labels = new ArrayList<>();
        for (int g = 1; g <= numClasses; g++) {
            labels.add(Integer.toString(g));
        }
        this.classes = List.copyOf(labels);
    }

    /** The name used on the command line ({@code cbf}, {@code synthetic-control}, {@code two-patterns}). */
    public String cliName() {
        return cliName;
    }

    /** The UCR archive's name for the data set ({@code CBF}, {@code SyntheticControl}, {@code TwoPatterns}). */
    public String datasetName() {
        return datasetName;
    }

    /** Samples per channel d. */
    public int length() {
        return length;
    }

    /** Channels C (1 but for {@link #MULTI_CBF}). */
    public int channels() {
        return this == MULTI_CBF ? MultiCbf.CHANNELS : 1;
    }

    /** Whether the kind's shapes stretch to another length (CBF and multichannel CBF). */
    public boolean stretches() {
        return this == CBF || this == MULTI_CBF;
    }

    /** Class labels in index order. */
    public List<String> classes() {
        return classes;
    }

    /**
     * The kind named {@code name}: its command-line name, data set name or constant name, in any case.
     *
     * @throws IllegalArgumentException naming the valid kinds
     */
    public static SyntheticKind fromName(String name) {
        for (SyntheticKind k : values()) {
            if (k.cliName.equalsIgnoreCase(name)
                    || k.datasetName.equalsIgnoreCase(name)
                    || k.name().equalsIgnoreCase(name)) {
                return k;
            }
        }
        List<String> valid = new ArrayList<>();
        for (SyntheticKind k : values()) {
            valid.add(k.cliName);
        }
        throw new IllegalArgumentException(
                "unknown synthetic kind '" + name + "'; expected one of " + String.join(", ", valid));
    }

    /** Draws one raw (not normalised) series of class index {@code cls} with the published noise. */
    void drawRaw(int cls, SplittableRandom rnd, double[] out) {
        switch (this) {
            case CBF -> Cbf.draw(cls, rnd, 1.0, out);
            case SYNTHETIC_CONTROL -> SyntheticControl.draw(cls, rnd, SyntheticControl.NOISE_SCALE, out);
            case TWO_PATTERNS -> TwoPatterns.draw(cls, rnd, 1.0, out);
            case MULTI_CBF -> MultiCbf.draw(cls, rnd, out);
            default -> throw new IllegalStateException("unknown kind " + this);
        }
    }
}
