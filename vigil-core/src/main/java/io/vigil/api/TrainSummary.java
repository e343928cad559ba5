package io.vigil.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.evaluate.CalibrationSummary;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.model.CalibrationSection;
import io.vigil.model.GridScores;
import io.vigil.model.SparseInfo;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code vigil train --json} prints about the model it wrote: {@code dataset, classes, train_size, length, gamma,
 * neighbors, dims, cv_accuracy, fit_seconds}, then the extras in this order; absent ones only for models that have them.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TrainSummary(
        String dataset,
        List<String> classes,
        int trainSize,
        int length,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer channels,
        double gamma,
        int neighbors,
        int dims,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer segments,
        Double cvAccuracy,
        double fitSeconds,
        int qdaNeighbors,
        boolean standardize,
        String reducer,
        @JsonInclude(JsonInclude.Include.NON_NULL) String kernel,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double kernelParam,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double sparsity,
        @JsonInclude(JsonInclude.Include.NON_NULL) String deflation,
        @JsonInclude(JsonInclude.Include.NON_NULL) int[] nonZeros,
        @JsonInclude(JsonInclude.Include.NON_NULL) String sparsitySource,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double alpha,
        @JsonInclude(JsonInclude.Include.NON_NULL) String sourceDataset,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer sourceSize,
        boolean refined,
        String cv,
        String neighborSelection,
        @JsonInclude(JsonInclude.Include.NON_NULL) String selectionProtocol,
        long seed,
        int numClasses,
        String fingerprint,
        Set<String> sections,
        @JsonInclude(JsonInclude.Include.NON_NULL) CalibrationSummary calibration,
        String model,
        @JsonInclude(JsonInclude.Include.NON_NULL) WatchCertificateSummary watchCertificate) {
    /** The summary of model {@code m}, trained in {@code seconds} and written to {@code file}. */
    public static TrainSummary of(VigilModel m, double seconds, String file) {
        Optional<SparseInfo> sp = m.projection().sparse();
        Optional<TransferSource> tr = m.projection().transfer();
        Optional<KernelLdgMap> k = m.projection().kernelMap();
        double cv = m.selection().cvAccuracy();
        return new TrainSummary(
                m.datasetName(),
                m.classNames(),
                m.trainSize(),
                m.length(),
                m.channels() > 1 ? m.channels() : null,
                m.gamma(),
                m.ldgNeighbors(),
                m.dims(),
                m.projection().segments().stream().boxed().findFirst().orElse(null),
                Double.isNaN(cv) ? null : cv,
                seconds,
                m.qdaNeighbors(),
                m.standardizer().isPresent(),
                m.projection().reducer(),
                k.map(x -> x.kernel().cliName()).orElse(null),
                k.map(x -> x.kernel().parameter()).orElse(null),
                sp.map(SparseInfo::sparsity).orElse(null),
                sp.map(s -> s.deflation().name().toLowerCase(Locale.ROOT)).orElse(null),
                sp.map(SparseInfo::nonZeros).orElse(null),
                sp.map(SparseInfo::sparsityScores).map(GridScores::source).orElse(null),
                tr.map(TransferSource::alpha).orElse(null),
                tr.map(TransferSource::dataset).orElse(null),
                tr.map(TransferSource::size).orElse(null),
                m.projection().refinement().isPresent(),
                m.selection().cv().toString(),
                m.selection().neighborMethod(),
                m.selection().protocol() == null
                        ? null
                        : m.selection().protocol().chosen(),
                m.seed(),
                m.numClasses(),
                m.fingerprint(),
                m.sections().keySet(),
                m.section(CalibrationSection.class)
                        .map(c -> CalibrationSummary.of(m, c))
                        .orElse(null),
                file,
                WatchCertificateSummary.of(m));
    }
}
