package io.vigil.model;

import io.vigil.classify.qda.LocalQda;
import io.vigil.ldg.Standardizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.ejml.data.DMatrixRMaj;

/**
 * A trained Vigil classifier: optional per-feature standardisation, the LDG basis B ∈ R^{d×ℓ} (thesis
 * (3.12)), the training series projected to LDG space with their classes, and local QDA (thesis §2.1.2) on
 * those points — plus everything needed to audit and reproduce it (data fingerprint, seed, every
 * cross-validation score, creation time, Vigil version). Immutable; built with {@link #builder()}, which
 * checks that every dimension fits (the same checks run when a file is loaded). Persisted by {@link
 * ModelFile}; optional {@link ModelSection}s extend it without changing this class.
 */
public final class VigilModel {
    /** The {@code format} field of every model file. */
    public static final String FORMAT = "vigil-model";

    /** The newest model-file format version this Vigil reads and the one it writes. */
    public static final int FORMAT_VERSION = 1;

    /**
     * Priors are stored as n_g/n; a stored value farther than this from n_g/n computed from the training
     * classes means a corrupted or hand-edited file. Both sides are one IEEE division, so agreement is
     * exact unless the file was edited; the slack only absorbs decimal round trips by other tools.
     */
    static final double PRIOR_TOLERANCE = 1e-12;

    private final String vigilVersion;
    private final Instant created;
    private final String datasetName;
    private final List<String> classNames;
    private final int length;
    private final int trainSize;
    private final int[] classCounts;
    private final String fingerprint;
    private final long seed;
    private final Standardizer standardizer;
    private final int ldgNeighbors;
    private final double gamma;
    private final int dims;
    private final double[] eigenvalues;
    /** B, row-major d×ℓ. */
    private final double[] basis;

    private final double[][] trainingPoints;
    private final int[] trainingClasses;
    private final double[] priors;
    private final int qdaNeighbors;
    private final SelectionReport selection;
    private final Map<String, ModelSection> sections;
    private final List<String> ignoredSections;
    private final LocalQda localQda;

    private VigilModel(Builder b) {
        this.vigilVersion = b.vigilVersion;
        this.created = b.created;
        this.datasetName = b.datasetName;
        this.classNames = List.copyOf(b.classNames);
        this.length = b.length;
        this.trainSize = b.trainSize;
        this.classCounts = b.classCounts.clone();
        this.fingerprint = b.fingerprint;
        this.seed = b.seed;
        this.standardizer = b.standardizer;
        this.ldgNeighbors = b.ldgNeighbors;
        this.gamma = b.gamma;
        this.dims = b.dims;
        this.eigenvalues = b.eigenvalues.clone();
        this.basis = b.basis.getData().clone();
        this.trainingPoints = deepCopy(b.trainingPoints);
        this.trainingClasses = b.trainingClasses.clone();
        this.priors = b.priors.clone();
        this.qdaNeighbors = b.qdaNeighbors;
        this.selection = b.selection;
        this.sections = Collections.unmodifiableMap(new TreeMap<>(b.sections));
        this.ignoredSections = List.copyOf(b.ignoredSections);
        this.localQda = LocalQda.fit(trainingPoints, trainingClasses, classNames.size(), qdaNeighbors);
    }

    /** The running Vigil's version from the jar manifest ("dev" when run from classes), as recorded in files. */
    public static String runtimeVersion() {
        String v = VigilModel.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** A builder with no fields set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with every field of this model. */
    public Builder toBuilder() {
        Builder b = new Builder()
                .vigilVersion(vigilVersion)
                .created(created)
                .datasetName(datasetName)
                .classNames(classNames)
                .length(length)
                .trainSize(trainSize)
                .classCounts(classCounts)
                .fingerprint(fingerprint)
                .seed(seed)
                .standardizer(standardizer)
                .ldg(ldgNeighbors, gamma, dims, eigenvalues, basis())
                .trainingPoints(trainingPoints, trainingClasses)
                .priors(priors)
                .qdaNeighbors(qdaNeighbors)
                .selection(selection);
        sections.values().forEach(b::section);
        b.ignoredSections(ignoredSections);
        return b;
    }

    /** Vigil version that wrote the model. */
    public String vigilVersion() {
        return vigilVersion;
    }

    /** Creation time (UTC, whole seconds). */
    public Instant created() {
        return created;
    }

    /** Name of the training dataset. */
    public String datasetName() {
        return datasetName;
    }

    /** Class labels verbatim, in class-index order. */
    public List<String> classNames() {
        return classNames;
    }

    /** Number of classes G. */
    public int numClasses() {
        return classNames.size();
    }

    /** Series length d. */
    public int length() {
        return length;
    }

    /** Number of training series n. */
    public int trainSize() {
        return trainSize;
    }

    /** Training series per class (a copy). */
    public int[] classCounts() {
        return classCounts.clone();
    }

    /** {@code sha256:<hex>} of the raw training data, see {@link DataFingerprint}. */
    public String fingerprint() {
        return fingerprint;
    }

    /** Seed of every random choice made in training (fold assignment). */
    public long seed() {
        return seed;
    }

    /** The per-feature standardisation (thesis §3.4) applied before LDG, if any. */
    public Optional<Standardizer> standardizer() {
        return Optional.ofNullable(standardizer);
    }

    /** LDG neighbour count k (method notes §1). */
    public int ldgNeighbors() {
        return ldgNeighbors;
    }

    /** LDG trade-off γ of (V − γA) (thesis (3.12)). */
    public double gamma() {
        return gamma;
    }

    /** Reduced dimension ℓ. */
    public int dims() {
        return dims;
    }

    /** Every eigenvalue of the LDG fit, ascending (a copy); the first ℓ belong to B's columns. */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /** B ∈ R^{d×ℓ} (a copy). */
    public DMatrixRMaj basis() {
        return new DMatrixRMaj(length, dims, true, basis);
    }

    /** The n training series in LDG space, n×ℓ (a copy). */
    public double[][] trainingPoints() {
        return deepCopy(trainingPoints);
    }

    /** Class index of each training point (a copy). */
    public int[] trainingClasses() {
        return trainingClasses.clone();
    }

    /** Class priors p_g = n_g / n (a copy). */
    public double[] priors() {
        return priors.clone();
    }

    /** Local-QDA neighbour count in LDG space. */
    public int qdaNeighbors() {
        return qdaNeighbors;
    }

    /** How the parameters were chosen, with every cross-validation score. */
    public SelectionReport selection() {
        return selection;
    }

    /** The core sizes (d, ℓ, G, n). */
    public ModelShape shape() {
        return new ModelShape(length, dims, classNames.size(), trainSize);
    }

    /** Optional sections by name (sorted by name). */
    public Map<String, ModelSection> sections() {
        return sections;
    }

    /** The section of the given type, if present. */
    public <T extends ModelSection> Optional<T> section(Class<T> type) {
        for (ModelSection s : sections.values()) {
            if (type.isInstance(s)) {
                return Optional.of(type.cast(s));
            }
        }
        return Optional.empty();
    }

    /** Names of optional sections in the loaded file that this Vigil does not know and skipped. */
    public List<String> ignoredSections() {
        return ignoredSections;
    }

    /** Local QDA on the projected training points with {@link #qdaNeighbors()} (thesis §2.1.2). */
    public LocalQda localQda() {
        return localQda;
    }

    /**
     * Maps a complete series to LDG space: y = Bᵀ s(x), s the stored standardisation (identity if none).
     * Allocation-free.
     *
     * @param series length d; not modified
     * @param out receives ℓ values; overwritten
     * @throws IllegalArgumentException on a length mismatch (both sizes named)
     */
    public void project(double[] series, double[] out) {
        if (series.length != length) {
            throw new IllegalArgumentException(
                    "series has " + series.length + " samples but the model expects length " + length);
        }
        if (out.length < dims) {
            throw new IllegalArgumentException("output has length " + out.length + " but ℓ is " + dims);
        }
        Arrays.fill(out, 0, dims, 0);
        for (int t = 0; t < length; t++) {
            double v = standardizer == null ? series[t] : standardizer.apply(t, series[t]);
            int row = t * dims;
            for (int j = 0; j < dims; j++) {
                out[j] += basis[row + j] * v;
            }
        }
    }

    /** Projects every row of {@code series} (n×d) to a new n×ℓ array. */
    public double[][] projectAll(double[][] series) {
        double[][] out = new double[series.length][dims];
        for (int i = 0; i < series.length; i++) {
            project(series[i], out[i]);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof VigilModel m)) {
            return false;
        }
        return vigilVersion.equals(m.vigilVersion)
                && created.equals(m.created)
                && datasetName.equals(m.datasetName)
                && classNames.equals(m.classNames)
                && length == m.length
                && trainSize == m.trainSize
                && Arrays.equals(classCounts, m.classCounts)
                && fingerprint.equals(m.fingerprint)
                && seed == m.seed
                && sameStandardizer(standardizer, m.standardizer)
                && ldgNeighbors == m.ldgNeighbors
                && Double.compare(gamma, m.gamma) == 0
                && dims == m.dims
                && Arrays.equals(eigenvalues, m.eigenvalues)
                && Arrays.equals(basis, m.basis)
                && Arrays.deepEquals(trainingPoints, m.trainingPoints)
                && Arrays.equals(trainingClasses, m.trainingClasses)
                && Arrays.equals(priors, m.priors)
                && qdaNeighbors == m.qdaNeighbors
                && selection.equals(m.selection)
                && sections.equals(m.sections);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fingerprint, created, gamma, dims, Arrays.hashCode(basis));
    }

    @Override
    public String toString() {
        return "VigilModel[" + datasetName + ", G=" + classNames.size() + ", d=" + length + ", n=" + trainSize + ", ℓ="
                + dims + ", γ=" + gamma + "]";
    }

    private static boolean sameStandardizer(Standardizer a, Standardizer b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.equals(a.means(), b.means()) && Arrays.equals(a.scales(), b.scales());
    }

    private static double[][] deepCopy(double[][] a) {
        double[][] out = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i].clone();
        }
        return out;
    }

    /**
     * Collects the fields of a {@link VigilModel}; {@link #build()} checks every dimension and names the
     * field and both sizes on a mismatch (field names are those of the model file).
     */
    public static final class Builder {
        private String vigilVersion;
        private Instant created;
        private String datasetName;
        private List<String> classNames;
        private int length = -1;
        private int trainSize = -1;
        private int[] classCounts;
        private String fingerprint;
        private long seed;
        private Standardizer standardizer;
        private int ldgNeighbors;
        private double gamma = Double.NaN;
        private int dims;
        private double[] eigenvalues;
        private DMatrixRMaj basis;
        private double[][] trainingPoints;
        private int[] trainingClasses;
        private double[] priors;
        private int qdaNeighbors;
        private SelectionReport selection;
        private final Map<String, ModelSection> sections = new TreeMap<>();
        private final List<String> ignoredSections = new ArrayList<>();

        private Builder() {}

        public Builder vigilVersion(String v) {
            this.vigilVersion = v;
            return this;
        }

        public Builder created(Instant t) {
            this.created = t;
            return this;
        }

        public Builder datasetName(String name) {
            this.datasetName = name;
            return this;
        }

        public Builder classNames(List<String> names) {
            this.classNames = List.copyOf(names);
            return this;
        }

        public Builder length(int d) {
            this.length = d;
            return this;
        }

        public Builder trainSize(int n) {
            this.trainSize = n;
            return this;
        }

        public Builder classCounts(int[] counts) {
            this.classCounts = counts.clone();
            return this;
        }

        public Builder fingerprint(String f) {
            this.fingerprint = f;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** The standardisation, or null for none. */
        public Builder standardizer(Standardizer s) {
            this.standardizer = s;
            return this;
        }

        /**
         * The LDG part.
         *
         * @param neighbors LDG k
         * @param gammaValue γ
         * @param dimsValue ℓ
         * @param eigenvaluesValue all eigenvalues, ascending
         * @param basisValue B, d×ℓ; copied
         */
        public Builder ldg(
                int neighbors, double gammaValue, int dimsValue, double[] eigenvaluesValue, DMatrixRMaj basisValue) {
            this.ldgNeighbors = neighbors;
            this.gamma = gammaValue;
            this.dims = dimsValue;
            this.eigenvalues = eigenvaluesValue.clone();
            this.basis = basisValue.copy();
            return this;
        }

        /** Projected training points n×ℓ and their class indices; copied. */
        public Builder trainingPoints(double[][] points, int[] classes) {
            this.trainingPoints = deepCopy(points);
            this.trainingClasses = classes.clone();
            return this;
        }

        public Builder priors(double[] p) {
            this.priors = p.clone();
            return this;
        }

        public Builder qdaNeighbors(int k) {
            this.qdaNeighbors = k;
            return this;
        }

        public Builder selection(SelectionReport s) {
            this.selection = s;
            return this;
        }

        /** Adds (or replaces) an optional section. */
        public Builder section(ModelSection s) {
            this.sections.put(s.sectionName(), s);
            return this;
        }

        /** Removes the section with this name, if any. */
        public Builder removeSection(String name) {
            this.sections.remove(name);
            return this;
        }

        Builder ignoredSections(List<String> names) {
            this.ignoredSections.clear();
            this.ignoredSections.addAll(names);
            return this;
        }

        /**
         * Checks every field and its dimensions and builds the model.
         *
         * @throws IllegalArgumentException naming the field (and both sizes) on a missing or inconsistent value
         */
        public VigilModel build() {
            require(vigilVersion, "vigil_version");
            require(created, "created");
            require(datasetName, "dataset.name");
            require(classNames, "dataset.classes");
            require(classCounts, "dataset.class_counts");
            require(fingerprint, "dataset.fingerprint");
            require(eigenvalues, "ldg.eigenvalues");
            require(basis, "ldg.basis");
            require(trainingPoints, "training_points.points");
            require(trainingClasses, "training_points.classes");
            require(priors, "local_qda.priors");
            require(selection, "selection");
            int g = classNames.size();
            if (g < 1) {
                throw new IllegalArgumentException("dataset.classes is empty");
            }
            if (new HashSet<>(classNames).size() != g) {
                throw new IllegalArgumentException("dataset.classes has duplicate labels: " + classNames);
            }
            if (length < 1) {
                throw new IllegalArgumentException("dataset.length must be ≥ 1, got " + length);
            }
            if (trainSize < 1) {
                throw new IllegalArgumentException("dataset.train_size must be ≥ 1, got " + trainSize);
            }
            sizeCheck("dataset.class_counts", classCounts.length, "entries", "dataset.classes", g);
            if (dims < 1 || dims > length) {
                throw new IllegalArgumentException(
                        "ldg.dims is " + dims + " but must be in 1..dataset.length (" + length + ")");
            }
            if (ldgNeighbors < 1) {
                throw new IllegalArgumentException("ldg.neighbors must be ≥ 1, got " + ldgNeighbors);
            }
            if (!Double.isFinite(gamma) || gamma < 0) {
                throw new IllegalArgumentException("ldg.gamma must be finite and ≥ 0, got " + gamma);
            }
            if (eigenvalues.length < dims) {
                throw new IllegalArgumentException(
                        "ldg.eigenvalues has " + eigenvalues.length + " values but ldg.dims is " + dims);
            }
            sizeCheck("ldg.basis", basis.numRows, "rows", "dataset.length", length);
            sizeCheck("ldg.basis", basis.numCols, "columns", "ldg.dims", dims);
            sizeCheck("training_points.points", trainingPoints.length, "rows", "dataset.train_size", trainSize);
            for (int i = 0; i < trainingPoints.length; i++) {
                if (trainingPoints[i].length != dims) {
                    throw new IllegalArgumentException("training_points.points row " + i + " has "
                            + trainingPoints[i].length + " columns but ldg.dims is " + dims);
                }
            }
            sizeCheck("training_points.classes", trainingClasses.length, "entries", "dataset.train_size", trainSize);
            int[] counted = new int[g];
            for (int i = 0; i < trainingClasses.length; i++) {
                int c = trainingClasses[i];
                if (c < 0 || c >= g) {
                    throw new IllegalArgumentException(
                            "training_points.classes[" + i + "] is " + c + " but dataset.classes has " + g + " labels");
                }
                counted[c]++;
            }
            if (!Arrays.equals(counted, classCounts)) {
                throw new IllegalArgumentException("dataset.class_counts " + Arrays.toString(classCounts)
                        + " do not match training_points.classes " + Arrays.toString(counted));
            }
            sizeCheck("local_qda.priors", priors.length, "entries", "dataset.classes", g);
            for (int c = 0; c < g; c++) {
                double expected = (double) counted[c] / trainSize;
                if (!(Math.abs(priors[c] - expected) <= PRIOR_TOLERANCE)) {
                    throw new IllegalArgumentException("local_qda.priors[" + c + "] is " + priors[c]
                            + " but class " + classNames.get(c) + " has " + counted[c] + " of " + trainSize
                            + " training series (" + expected + ")");
                }
            }
            if (qdaNeighbors < 1) {
                throw new IllegalArgumentException("local_qda.neighbors must be ≥ 1, got " + qdaNeighbors);
            }
            if (standardizer != null) {
                sizeCheck("preprocessing.means", standardizer.dim(), "values", "dataset.length", length);
            }
            if (selection.gammaDims() < 1) {
                throw new IllegalArgumentException("selection.gamma_dims must be ≥ 1, got " + selection.gammaDims());
            }
            ModelShape shape = new ModelShape(length, dims, g, trainSize);
            for (ModelSection s : sections.values()) {
                s.checkShape(shape);
            }
            return new VigilModel(this);
        }

        private static void require(Object value, String field) {
            if (value == null) {
                throw new IllegalArgumentException(field + " is missing");
            }
        }

        private static void sizeCheck(String field, int actual, String unit, String otherField, int expected) {
            if (actual != expected) {
                throw new IllegalArgumentException(
                        field + " has " + actual + " " + unit + " but " + otherField + " is " + expected);
            }
        }
    }
}
