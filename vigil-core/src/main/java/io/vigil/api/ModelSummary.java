package io.vigil.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.evaluate.CalibrationSummary;
import io.vigil.ldg.KernelFunction;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.LdgRefinement;
import io.vigil.model.CalibrationSection;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.SparseInfo;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a model file holds, as {@code vigil inspect --json} writes it: format, data, classes with counts, d, ℓ, γ, k,
 * standardisation, every cross-validation score, fingerprint, creation time, the size of each part of the file and the
 * calibration ({@link CalibrationSummary}); fields in this order, absent ones only for models that have them.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelSummary(
        String file,
        String format,
        int formatVersion,
        String vigilVersion,
        String created,
        String dataset,
        List<String> classes,
        int[] classCounts,
        int trainSize,
        int length,
        int dims,
        double gamma,
        int neighbors,
        int qdaNeighbors,
        boolean standardize,
        String reducer,
        @JsonInclude(Include.NON_NULL) String kernel,
        @JsonInclude(Include.NON_NULL) Double kernelParam,
        @JsonInclude(Include.NON_NULL) Sparse sparse,
        @JsonInclude(Include.NON_NULL) Transfer transfer,
        @JsonInclude(Include.NON_NULL) Refinement refinement,
        long seed,
        String fingerprint,
        String cv,
        String neighborMethod,
        @JsonInclude(Include.NON_NULL) Protocol protocolScores,
        String neighborCv,
        int gammaDims,
        Double cvAccuracy,
        Scores scores,
        double[] eigenvalues,
        List<String> sections,
        List<String> ignoredSections,
        Map<String, Long> partBytes,
        long fileBytes,
        CalibrationSummary calibration,
        @JsonInclude(Include.NON_NULL) Window window,
        @JsonInclude(Include.NON_NULL) WatchCertificateSummary watchCertificate) {
    /** The summary of model {@code m} read from {@code file} of {@code fileBytes} bytes with these parts. */
    public static ModelSummary of(String file, VigilModel m, Map<String, Long> parts, long fileBytes) {
        SelectionReport s = m.selection();
        Optional<KernelFunction> k = m.projection().kernelMap().map(KernelLdgMap::kernel);
        Scores scores =
                new Scores(Grid.of(s.ldgNeighbors()), Grid.of(s.gamma()), Grid.of(s.dims()), Grid.of(s.qdaNeighbors()));
        return new ModelSummary(
                file,
                VigilModel.FORMAT,
                VigilModel.FORMAT_VERSION,
                m.vigilVersion(),
                m.created().toString(),
                m.datasetName(),
                m.classNames(),
                m.classCounts(),
                m.trainSize(),
                m.length(),
                m.dims(),
                m.gamma(),
                m.ldgNeighbors(),
                m.qdaNeighbors(),
                m.standardizer().isPresent(),
                m.projection().reducer(),
                k.map(KernelFunction::cliName).orElse(null),
                k.map(KernelFunction::parameter).orElse(null),
                m.projection().sparse().map(Sparse::of).orElse(null),
                m.projection().transfer().map(Transfer::of).orElse(null),
                m.projection().refinement().map(Refinement::of).orElse(null),
                m.seed(),
                m.fingerprint(),
                s.cv().toString(),
                s.neighborMethod(),
                s.protocol() == null ? null : Protocol.of(s.protocol()),
                s.neighborCv().toString(),
                s.gammaDims(),
                nanToNull(s.cvAccuracy()),
                scores,
                Arrays.copyOf(m.eigenvalues(), Math.min(m.eigenvalues().length, m.dims())),
                new ArrayList<>(m.sections().keySet()),
                m.ignoredSections(),
                parts,
                fileBytes,
                m.section(CalibrationSection.class)
                        .map(c -> CalibrationSummary.of(m, c))
                        .orElse(null),
                WindowModels.window(m).map(Window::of).orElse(null),
                WatchCertificateSummary.of(m));
    }

    /**
     * {@code window}: how a window model opens windows and how its folds split the training windows ({@code folds}:
     * {@code recording}, grouped by recording, or {@code random} for models written before folds were grouped).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Window(int stride, String backgroundLabel, String folds) {
        /** The window part of window section {@code w}. */
        public static Window of(WindowSection w) {
            return new Window(w.stride(), w.backgroundLabel(), w.foldsByRecording() ? "recording" : "random");
        }
    }

    /** {@code sparse}: how the sparse LDG basis was found ({@link SparseInfo}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Sparse(
            double sparsity,
            String deflation,
            int[] nonZeros,
            double coherenceMean,
            double coherenceMax,
            boolean converged,
            String sparsitySource) {
        public static Sparse of(SparseInfo s) {
            String source =
                    s.sparsityScores() == null ? null : s.sparsityScores().source();
            String deflation = s.deflation().name().toLowerCase(Locale.ROOT);
            return new Sparse(
                    s.sparsity(), deflation, s.nonZeros(), s.meanCoherence(), s.maxCoherence(), s.converged(), source);
        }
    }

    /** {@code transfer}: the source domain of transfer LDG ({@link TransferSource}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Transfer(
            double alpha,
            String alphaSource,
            int targetSeries,
            String sourceDataset,
            int sourceSeries,
            String sourceFingerprint) {
        public static Transfer of(TransferSource t) {
            String source = t.alphaScores() == null ? null : t.alphaScores().source();
            return new Transfer(t.alpha(), source, t.targetSize(), t.dataset(), t.size(), t.fingerprint());
        }
    }

    /** {@code refinement}: the gradient-descent refinement of the LDG basis ({@link LdgRefinement}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Refinement(int iterations, int accepted, double objectiveBefore, double objectiveAfter) {
        public static Refinement of(LdgRefinement r) {
            return new Refinement(r.iterations(), r.accepted(), r.objectiveBefore(), r.objectiveAfter());
        }
    }

    /** {@code protocol_scores}: the selection protocol's candidates and scores ({@link ProtocolScores}). */
    public record Protocol(
            List<String> candidates,
            double[] accuracy,
            @JsonInclude(Include.NON_NULL) @JsonProperty("fresh_3nn") List<Double> fresh3nn,
            @JsonInclude(Include.NON_NULL) @JsonProperty("fresh_local_qda") List<Double> freshLocalQda,
            String chosen) {
        public static Protocol of(ProtocolScores p) {
            return new Protocol(
                    p.candidates(), p.accuracy(), nanToNull(p.fresh3nn()), nanToNull(p.freshLocalQda()), p.chosen());
        }
    }

    /** {@code scores}: the cross-validation grid of each selected parameter. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Scores(Grid ldgNeighbors, Grid gamma, Grid dims, Grid qdaNeighbors) {}

    /** One parameter's grid: integral candidates as integers, unscored accuracies (NaN) as null ({@link GridScores}). */
    public record Grid(String source, List<Number> candidates, List<Double> accuracy, Number chosen) {
        public static Grid of(GridScores g) {
            List<Number> cand =
                    Arrays.stream(g.candidates()).mapToObj(c -> number(g, c)).toList();
            return new Grid(g.source(), cand, nanToNull(g.accuracy()), number(g, g.chosen()));
        }

        private static Number number(GridScores g, double v) {
            return g.integral() ? (Number) (long) v : (Number) v;
        }
    }

    private static Double nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static List<Double> nanToNull(double[] v) {
        return v == null
                ? null
                : Arrays.stream(v).mapToObj(ModelSummary::nanToNull).toList();
    }
}
