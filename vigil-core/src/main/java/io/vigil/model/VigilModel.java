package io.vigil.model;

import io.vigil.classify.qda.LocalQda;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.LdgRefinement;
import io.vigil.ldg.Standardizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.ejml.data.DMatrixRMaj;

/**
 * A trained Vigil classifier, composed of four immutable parts: its {@link Provenance} (version, time, seed, every
 * cross-validation score), the {@link DatasetInfo} it was trained on, the {@link Projection} to LDG space (thesis
 * (3.12)), and the {@link ClassifierParams} local QDA (thesis §2.1.2) is fitted from; optional {@link
 * ModelSection}s extend it without changing this class. Built with {@link #builder()}, which checks that every
 * dimension fits across the parts (the same checks run when a file is loaded); persisted by {@code
 * io.vigil.model.json.ModelFile}. Local QDA is fitted on first use, not on construction.
 */
public final class VigilModel {
    /** The {@code format} field of every model file. */
    public static final String FORMAT = "vigil-model";

    /** The newest model-file format version this Vigil reads and the one it writes. */
    public static final int FORMAT_VERSION = 1;

    private final Provenance provenance;
    private final DatasetInfo dataset;
    private final Projection projection;
    private final ClassifierParams classifier;
    private final Map<String, ModelSection> sections;
    private final List<String> ignoredSections;
    private volatile LocalQda localQda;

    private VigilModel(
            Provenance provenance,
            DatasetInfo dataset,
            Projection projection,
            ClassifierParams classifier,
            Map<String, ModelSection> sections,
            List<String> ignoredSections) {
        this.provenance = provenance;
        this.dataset = dataset;
        this.projection = projection;
        this.classifier = classifier;
        this.sections = Collections.unmodifiableMap(new TreeMap<>(sections));
        this.ignoredSections = List.copyOf(ignoredSections);
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

    /** A builder preset with every part of this model. */
    public Builder toBuilder() {
        Builder b = new Builder()
                .provenance(provenance)
                .dataset(dataset)
                .projection(projection)
                .classifier(classifier);
        sections.values().forEach(b::section);
        b.ignoredSections(ignoredSections);
        return b;
    }

    /** Where the model came from. */
    public Provenance provenance() {
        return provenance;
    }

    /** The training data it describes. */
    public DatasetInfo dataset() {
        return dataset;
    }

    /** The map to LDG space. */
    public Projection projection() {
        return projection;
    }

    /** What local QDA is fitted from. */
    public ClassifierParams classifier() {
        return classifier;
    }

    /** Vigil version that wrote the model. */
    public String vigilVersion() {
        return provenance.vigilVersion();
    }

    /** Creation time (UTC, whole seconds). */
    public Instant created() {
        return provenance.created();
    }

    /** Name of the training dataset. */
    public String datasetName() {
        return dataset.name();
    }

    /** Class labels verbatim, in class-index order. */
    public List<String> classNames() {
        return dataset.classNames();
    }

    /** Number of classes G. */
    public int numClasses() {
        return dataset.numClasses();
    }

    /** Values per series C·d (the series length d when univariate); the length of the input vector. */
    public int length() {
        return dataset.length();
    }

    /** Number of channels C (1 for every model file written before channels). */
    public int channels() {
        return dataset.channels();
    }

    /** Channel names in index order. */
    public List<String> channelNames() {
        return dataset.channelNames();
    }

    /** Samples per channel d. */
    public int seriesLength() {
        return dataset.seriesLength();
    }

    /** Number of training series n. */
    public int trainSize() {
        return dataset.trainSize();
    }

    /** Training series per class (a copy). */
    public int[] classCounts() {
        return dataset.classCounts();
    }

    /** {@code sha256:<hex>} of the raw training data, see {@link DataFingerprint}. */
    public String fingerprint() {
        return dataset.fingerprint();
    }

    /** Seed of every random choice made in training (fold assignment). */
    public long seed() {
        return provenance.seed();
    }

    /** The per-feature standardisation (thesis §3.4) applied before LDG, if any. */
    public Optional<Standardizer> standardizer() {
        return projection.standardizer();
    }

    /** LDG neighbour count k (docs/method.md §1). */
    public int ldgNeighbors() {
        return projection.neighbors();
    }

    /** LDG trade-off γ of (V − γA) (thesis (3.12)). */
    public double gamma() {
        return projection.gamma();
    }

    /** Reduced dimension ℓ. */
    public int dims() {
        return projection.dims();
    }

    /** Every eigenvalue of the LDG fit, ascending (a copy); the first ℓ belong to B's columns. */
    public double[] eigenvalues() {
        return projection.eigenvalues();
    }

    /** B ∈ R^{d×ℓ} (a copy). */
    public DMatrixRMaj basis() {
        return projection.basis();
    }

    /** The n training series in LDG space, n×ℓ (a copy). */
    public double[][] trainingPoints() {
        return classifier.points();
    }

    /** Class index of each training point (a copy). */
    public int[] trainingClasses() {
        return classifier.classes();
    }

    /** Class priors p_g = n_g / n (a copy). */
    public double[] priors() {
        return classifier.priors();
    }

    /** Local-QDA neighbour count in LDG space. */
    public int qdaNeighbors() {
        return classifier.qdaNeighbors();
    }

    /** How the parameters were chosen, with every cross-validation score. */
    public SelectionReport selection() {
        return provenance.selection();
    }

    /** The core sizes (d, ℓ, G, n). */
    public ModelShape shape() {
        return new ModelShape(length(), dims(), numClasses(), trainSize());
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

    /**
     * Local QDA on the projected training points with {@link #qdaNeighbors()} (thesis §2.1.2), fitted on first use
     * and kept (thread-safe; a model used only to inspect or re-save never fits it).
     */
    public LocalQda localQda() {
        LocalQda q = localQda;
        if (q == null) {
            synchronized (this) {
                q = localQda;
                if (q == null) {
                    q = classifier.fitLocalQda(numClasses());
                    localQda = q;
                }
            }
        }
        return q;
    }

    /** Maps a complete series to LDG space, see {@link Projection#project}. Allocation-free. */
    public void project(double[] series, double[] out) {
        projection.project(series, out);
    }

    /** Projects every row of {@code series} (n×d) to a new n×ℓ array. */
    public double[][] projectAll(double[][] series) {
        return projection.projectAll(series);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VigilModel m
                && provenance.equals(m.provenance)
                && dataset.equals(m.dataset)
                && projection.equals(m.projection)
                && classifier.equals(m.classifier)
                && sections.equals(m.sections);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dataset.fingerprint(), provenance.created(), projection);
    }

    @Override
    public String toString() {
        return "VigilModel[" + datasetName() + ", G=" + numClasses() + ", d=" + length() + ", n=" + trainSize() + ", ℓ="
                + dims() + ", γ=" + gamma() + "]";
    }

    /**
     * Collects the parts of a {@link VigilModel}, either whole ({@link #provenance}, {@link #dataset}, {@link
     * #projection}, {@link #classifier}) or field by field; {@link #build()} checks every dimension across the parts
     * and names the field and both sizes on a mismatch (field names are those of the model file).
     */
    public static final class Builder {
        private String vigilVersion;
        private Instant created;
        private long seed;
        private SelectionReport selection;
        private String datasetName;
        private List<String> classNames;
        private int length = -1;
        private List<String> channelNames = DatasetInfo.UNIVARIATE;
        private int trainSize = -1;
        private int[] classCounts;
        private String fingerprint;
        private Standardizer standardizer;
        private int ldgNeighbors;
        private double gamma = Double.NaN;
        private int dims;
        private double[] eigenvalues;
        private DMatrixRMaj basis;
        private LdgRefinement refinement;
        private TransferSource transfer;
        private SparseInfo sparse;
        private int segments;
        private KernelLdgMap kernelMap;
        private GridScores kernelScores;
        private double[][] trainingPoints;
        private int[] trainingClasses;
        private double[] priors;
        private int qdaNeighbors;
        private final Map<String, ModelSection> sections = new TreeMap<>();
        private final List<String> ignoredSections = new ArrayList<>();

        private Builder() {}

        /** Every provenance field at once. */
        public Builder provenance(Provenance p) {
            return vigilVersion(p.vigilVersion())
                    .created(p.created())
                    .seed(p.seed())
                    .selection(p.selection());
        }

        /** Every dataset field at once. */
        public Builder dataset(DatasetInfo d) {
            return datasetName(d.name())
                    .classNames(d.classNames())
                    .classCounts(d.classCounts())
                    .trainSize(d.trainSize())
                    .length(d.length())
                    .channelNames(d.channelNames())
                    .fingerprint(d.fingerprint());
        }

        /** Every projection field at once. */
        public Builder projection(Projection p) {
            standardizer(p.standardizer().orElse(null));
            if (!p.isLinear()) {
                return kernelLdg(
                        p.neighbors(),
                        p.gamma(),
                        p.kernelMap().orElseThrow(),
                        p.kernelScores().orElse(null));
            }
            return ldg(p.neighbors(), p.gamma(), p.dims(), p.eigenvalues(), p.basis())
                    .refinement(p.refinement().orElse(null))
                    .transfer(p.transfer().orElse(null))
                    .sparse(p.sparse().orElse(null))
                    .segments(p.segments().orElse(0));
        }

        /**
         * A kernel LDG projection (thesis §3.3.2) instead of {@link #ldg}.
         *
         * @param kernelScoresValue how the kernel parameter was chosen, or null
         */
        public Builder kernelLdg(int neighbors, double gammaValue, KernelLdgMap map, GridScores kernelScoresValue) {
            this.ldgNeighbors = neighbors;
            this.gamma = gammaValue;
            this.kernelMap = Objects.requireNonNull(map, "map");
            this.kernelScores = kernelScoresValue;
            this.dims = map.dims();
            return this;
        }

        /** Every classifier field at once. */
        public Builder classifier(ClassifierParams c) {
            return trainingPoints(c.points(), c.classes()).priors(c.priors()).qdaNeighbors(c.qdaNeighbors());
        }

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

        /** The channel names (C = their count; default one channel). */
        public Builder channelNames(List<String> names) {
            this.channelNames = List.copyOf(names);
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

        /** What thesis Algorithm 1 did to the basis, or null for the eigen solution (the default). */
        public Builder refinement(LdgRefinement r) {
            this.refinement = r;
            return this;
        }

        /**
         * The source domain of a transfer LDG basis, or null for LDG (the default). The training set ({@link
         * #trainSize}, {@link #classCounts}, {@link #trainingPoints}) is then the target series followed by the
         * source series.
         */
        public Builder transfer(TransferSource t) {
            this.transfer = t;
            return this;
        }

        /** Time segments per channel of a segment-constant LDG basis, or 0 for full resolution (the default). */
        public Builder segments(int s) {
            this.segments = s;
            return this;
        }

        /** How a sparse LDG basis was found, or null (the default). */
        public Builder sparse(SparseInfo s) {
            this.sparse = s;
            return this;
        }

        /** Projected training points n×ℓ and their class indices; copied. */
        public Builder trainingPoints(double[][] points, int[] classes) {
            this.trainingPoints = new double[points.length][];
            for (int i = 0; i < points.length; i++) {
                this.trainingPoints[i] = points[i].clone();
            }
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

        /** Names of sections a reader skipped (kept so a re-saved model can say so). */
        public Builder ignoredSections(List<String> names) {
            this.ignoredSections.clear();
            this.ignoredSections.addAll(names);
            return this;
        }

        /**
         * Checks every part and the dimensions across them and builds the model.
         *
         * @throws IllegalArgumentException naming the field (and both sizes) on a missing or inconsistent value
         */
        public VigilModel build() {
            Provenance prov = new Provenance(vigilVersion, created, seed, selection);
            DatasetInfo ds =
                    new DatasetInfo(datasetName, classNames, classCounts, trainSize, length, fingerprint, channelNames);
            Projection proj;
            if (kernelMap != null) {
                ModelChecks.sizeCheck(
                        "ldg.training_rows", kernelMap.rows().length, "rows", "dataset.train_size", trainSize);
                ModelChecks.sizeCheck("ldg.training_rows", kernelMap.inputDim(), "columns", "dataset.length", length);
                dims = kernelMap.dims();
                proj = Projection.kernel(standardizer, ldgNeighbors, gamma, kernelMap, kernelScores);
            } else {
                ModelChecks.require(eigenvalues, "ldg.eigenvalues");
                ModelChecks.require(basis, "ldg.basis");
                if (dims < 1 || dims > length) {
                    throw new IllegalArgumentException(
                            "ldg.dims is " + dims + " but must be in 1..dataset.length (" + length + ")");
                }
                ModelChecks.sizeCheck("ldg.basis", basis.numRows, "rows", "dataset.length", length);
                ModelChecks.sizeCheck("ldg.basis", basis.numCols, "columns", "ldg.dims", dims);
                if (transfer != null) {
                    ModelChecks.sizeCheck(
                            "ldg.transfer target and source series",
                            transfer.targetSize() + transfer.size(),
                            "series",
                            "dataset.train_size",
                            trainSize);
                }
                proj = new Projection(
                                standardizer, ldgNeighbors, gamma, eigenvalues, basis, refinement, transfer, sparse)
                        .withSegments(segments);
            }
            if (ldgNeighbors > ModelChecks.maxNeighbors(trainSize)) {
                throw new IllegalArgumentException("ldg.neighbors is " + ldgNeighbors + " but must be in 1.."
                        + ModelChecks.maxNeighbors(trainSize) + " for dataset.train_size " + trainSize);
            }
            int g = ds.numClasses();
            ModelChecks.trainingSet(
                    g, trainSize, classCounts, classNames, dims, trainingPoints, trainingClasses, priors);
            ClassifierParams cls = new ClassifierParams(trainingPoints, trainingClasses, priors, qdaNeighbors);
            ModelShape shape = new ModelShape(length, dims, g, trainSize);
            for (ModelSection s : sections.values()) {
                s.checkShape(shape);
            }
            return new VigilModel(prov, ds, proj, cls, sections, ignoredSections);
        }
    }
}
