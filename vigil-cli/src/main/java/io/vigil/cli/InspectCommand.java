package io.vigil.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.early.Certification;
import io.vigil.early.DecisionOverrides;
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
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.risk.Guarantee;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vigil inspect MODEL}: loads (and so fully validates) a model file and prints what it holds — format,
 * data, classes with counts, d, ℓ, γ, k, standardisation, every cross-validation score, fingerprint,
 * creation time and the size of each part of the file — as text or, with {@code --json}, one JSON object.
 */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        description = "Validate a model file and summarise it: data, parameters, cross-validation scores, sizes.")
public final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MODEL", description = "Model file written by 'vigil train'.")
    Path modelFile;

    @Option(names = "--json", description = "Print one JSON object on stdout instead of text.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (!Files.isRegularFile(modelFile)) {
            throw new IllegalArgumentException("model file not found: " + modelFile);
        }
        byte[] bytes = Files.readAllBytes(modelFile);
        VigilModel m = ModelFile.standard().read(bytes, modelFile.toString());
        Map<String, Long> parts = ModelFile.partSizes(bytes);
        Summary summary = Summary.of(modelFile, m, parts, bytes.length);
        return CommandOutput.print(spec, json, summary, out -> printText(out, summary, m));
    }

    /** {@code inspect --json}'s object: the fields below in this order; absent ones only for models that have them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Summary(
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
            CalibrationReport.Summary calibration,
            @JsonInclude(Include.NON_NULL) Window window,
            @JsonInclude(Include.NON_NULL) WatchCertificateReport.Json watchCertificate) {
        static Summary of(Path file, VigilModel m, Map<String, Long> parts, long fileBytes) {
            SelectionReport s = m.selection();
            Optional<KernelFunction> k = m.projection().kernelMap().map(KernelLdgMap::kernel);
            Scores scores = new Scores(
                    Grid.of(s.ldgNeighbors()), Grid.of(s.gamma()), Grid.of(s.dims()), Grid.of(s.qdaNeighbors()));
            return new Summary(
                    file.toString(),
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
                            .map(c -> CalibrationReport.json(m, c))
                            .orElse(null),
                    WindowModels.window(m).map(Window::of).orElse(null),
                    WatchCertificateReport.json(m));
        }
    }

    /**
     * {@code window}: how a window model opens windows and how its folds split the training windows ({@code folds}:
     * {@code recording}, grouped by recording, or {@code random} for models written before folds were grouped).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Window(int stride, String backgroundLabel, String folds) {
        static Window of(WindowSection w) {
            return new Window(w.stride(), w.backgroundLabel(), w.foldsByRecording() ? "recording" : "random");
        }
    }

    /** {@code sparse}: how the sparse LDG basis was found ({@link SparseInfo}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Sparse(
            double sparsity,
            String deflation,
            int[] nonZeros,
            double coherenceMean,
            double coherenceMax,
            boolean converged,
            String sparsitySource) {
        static Sparse of(SparseInfo s) {
            String source =
                    s.sparsityScores() == null ? null : s.sparsityScores().source();
            String deflation = s.deflation().name().toLowerCase(Locale.ROOT);
            return new Sparse(
                    s.sparsity(), deflation, s.nonZeros(), s.meanCoherence(), s.maxCoherence(), s.converged(), source);
        }
    }

    /** {@code transfer}: the source domain of transfer LDG ({@link TransferSource}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Transfer(
            double alpha,
            String alphaSource,
            int targetSeries,
            String sourceDataset,
            int sourceSeries,
            String sourceFingerprint) {
        static Transfer of(TransferSource t) {
            String source = t.alphaScores() == null ? null : t.alphaScores().source();
            return new Transfer(t.alpha(), source, t.targetSize(), t.dataset(), t.size(), t.fingerprint());
        }
    }

    /** {@code refinement}: the gradient-descent refinement of the LDG basis ({@link LdgRefinement}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Refinement(int iterations, int accepted, double objectiveBefore, double objectiveAfter) {
        static Refinement of(LdgRefinement r) {
            return new Refinement(r.iterations(), r.accepted(), r.objectiveBefore(), r.objectiveAfter());
        }
    }

    /** {@code protocol_scores}: the selection protocol's candidates and scores ({@link ProtocolScores}). */
    record Protocol(
            List<String> candidates,
            double[] accuracy,
            @JsonInclude(Include.NON_NULL) @JsonProperty("fresh_3nn") List<Double> fresh3nn,
            @JsonInclude(Include.NON_NULL) @JsonProperty("fresh_local_qda") List<Double> freshLocalQda,
            String chosen) {
        static Protocol of(ProtocolScores p) {
            return new Protocol(
                    p.candidates(), p.accuracy(), nanToNull(p.fresh3nn()), nanToNull(p.freshLocalQda()), p.chosen());
        }
    }

    /** {@code scores}: the cross-validation grid of each selected parameter. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Scores(Grid ldgNeighbors, Grid gamma, Grid dims, Grid qdaNeighbors) {}

    /** One parameter's grid: integral candidates as integers, unscored accuracies (NaN) as null ({@link GridScores}). */
    record Grid(String source, List<Number> candidates, List<Double> accuracy, Number chosen) {
        static Grid of(GridScores g) {
            List<Number> cand =
                    Arrays.stream(g.candidates()).mapToObj(c -> number(g, c)).toList();
            return new Grid(g.source(), cand, nanToNull(g.accuracy()), number(g, g.chosen()));
        }

        private static Number number(GridScores g, double v) {
            return g.integral() ? (Number) (long) v : (Number) v;
        }
    }

    /** An accuracy to four decimals, or "-" when it was not scored (NaN). */
    private static String fourDigits(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static Double nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static List<Double> nanToNull(double[] v) {
        return v == null
                ? null
                : Arrays.stream(v).mapToObj(InspectCommand::nanToNull).toList();
    }

    /** The text form: one row per part of the model, then the cross-validation tables and the file's parts. */
    private static void printText(PrintWriter out, Summary r, VigilModel m) {
        SelectionReport s = m.selection();
        out.printf(Locale.ROOT, "Vigil model %s%n", r.file());
        row(out, "format", r.format() + " v" + r.formatVersion() + " (written by Vigil " + r.vigilVersion() + ")");
        row(out, "created", r.created());
        row(out, "dataset", r.dataset());
        row(out, "fingerprint", r.fingerprint());
        row(out, "training series", r.trainSize() + " of length d = " + r.length());
        List<String> classes = new ArrayList<>();
        for (int g = 0; g < r.classes().size(); g++) {
            classes.add(r.classes().get(g) + " (" + r.classCounts()[g] + ")");
        }
        row(out, "classes", classes.size() + ": " + String.join(", ", classes));
        String standardised = "per-feature standardisation with training means and scales";
        row(out, "preprocessing", r.standardize() ? standardised : "none (series used as given)");
        String kernel = r.kernel() == null
                ? ""
                : "kernel LDG, %s kernel with %s = %s; "
                        .formatted(r.kernel(), r.kernel().equals("rbf") ? "width" : "degree", fmt(r.kernelParam()));
        String segments = m.projection().segments().stream()
                .mapToObj(v -> "; constant within " + v + " time segment" + (v == 1 ? "" : "s") + " per channel")
                .findFirst()
                .orElse("");
        String ldg = "%sk = %d neighbours, gamma = %s, l = %d dims (%d eigenvalues stored)%s";
        row(out, "LDG", ldg, kernel, r.neighbors(), fmt(r.gamma()), r.dims(), m.eigenvalues().length, segments);
        Sparse sp = r.sparse();
        if (sp != null) {
            String f =
                    "sparse LDG (thesis 3.3.3): lambda = %s x |Z|_F, %s deflation; non-zeros per column %s of d = %d;"
                            + " |b_i'b_j| mean %.4f, max %.4f%s";
            String capped = sp.converged() ? "" : " (a column's solver stopped at its iteration cap)";
            String nonZeros = Arrays.toString(sp.nonZeros());
            row(
                    out,
                    "sparse",
                    f,
                    fmt(sp.sparsity()),
                    sp.deflation(),
                    nonZeros,
                    r.length(),
                    sp.coherenceMean(),
                    sp.coherenceMax(),
                    capped);
        }
        Transfer t = r.transfer();
        if (t != null) {
            String f = "transfer LDG (thesis ch. 4): alpha = %s (%s); %d target series + %d series of source %s"
                    + " (fingerprint %s)";
            String how =
                    t.alphaSource() == null || t.alphaSource().equals("cv") ? "3-NN CV on the target series" : "given";
            row(
                    out,
                    "transfer",
                    f,
                    fmt(t.alpha()),
                    how,
                    t.targetSeries(),
                    t.sourceSeries(),
                    t.sourceDataset(),
                    t.sourceFingerprint());
        }
        Refinement g = r.refinement();
        if (g != null) {
            String f = "gradient descent (thesis Algorithm 1): objective (3.4) %.6g -> %.6g, %d of %d steps kept";
            row(out, "refinement", f, g.objectiveBefore(), g.objectiveAfter(), g.accepted(), g.iterations());
        }
        row(out, "local QDA", "k = " + r.qdaNeighbors() + " neighbours per class in LDG space");
        row(out, "seed", Long.toString(r.seed()));
        String cv = "gamma/dims/local QDA: %s; LDG neighbours: %s, %s; 3-NN CV accuracy %.4f";
        row(out, "cross-validation", cv, s.cv(), s.neighborMethod(), s.neighborCv(), s.cvAccuracy());
        out.println();
        String k = s.neighborMethod().equals("3nn")
                ? "3-NN in LDG space at each k's best gamma, "
                : "local QDA on the input data, ";
        table(out, "LDG neighbours k (" + k + s.neighborCv() + ")", s.ldgNeighbors());
        m.projection()
                .transfer()
                .map(TransferSource::alphaScores)
                .ifPresent(a -> table(
                        out,
                        "transfer alpha (3-NN on the target series at l = " + s.gammaDims() + ", " + s.cv() + ")",
                        a));
        m.projection()
                .sparse()
                .map(SparseInfo::sparsityScores)
                .ifPresent(a -> table(
                        out,
                        "sparse LDG lambda (3-NN, 3 stratified folds, sparse LDG refitted per fold at the chosen k, "
                                + "gamma, l)",
                        a));
        if (s.protocol() != null) {
            ProtocolScores ps = s.protocol();
            boolean fresh = ps.fresh3nn() != null;
            out.printf(
                    Locale.ROOT,
                    "selection protocol (--selection auto: standardisation/neighbour rule; %s):%n",
                    fresh ? "own 3-NN CV, then 3-NN and local QDA on fresh folds, kept by their mean" : "3-NN CV");
            int width = Math.max(
                    16, ps.candidates().stream().mapToInt(String::length).max().orElse(0));
            for (int i = 0; i < ps.candidates().size(); i++) {
                String c = ps.candidates().get(i);
                String check = fresh
                        ? "   fresh 3-NN " + fourDigits(ps.fresh3nn()[i]) + "  local QDA "
                                + fourDigits(ps.freshLocalQda()[i])
                        : "";
                out.printf(
                        Locale.ROOT,
                        "    %-" + width + "s %.4f%s%s%n",
                        c,
                        ps.accuracy()[i],
                        check,
                        c.equals(ps.chosen()) ? "  *" : "");
            }
        }
        table(out, "gamma (3-NN at l = " + s.gammaDims() + ", " + s.cv() + ")", s.gamma());
        table(out, "dims l (3-NN at the chosen gamma, " + s.cv() + ")", s.dims());
        table(out, "local-QDA neighbours (in LDG space, " + s.cv() + ")", s.qdaNeighbors());
        row(out, "sections", r.sections().isEmpty() ? "(none)" : String.join(", ", r.sections()));
        if (r.window() != null) {
            row(
                    out,
                    "window",
                    "stride " + r.window().stride() + ", background '"
                            + r.window().backgroundLabel() + "', "
                            + (r.window().folds().equals("recording")
                                    ? "folds grouped by recording"
                                    : "folds split the windows at random (written before folds were grouped)"));
        }
        CalibrationSection c = m.section(CalibrationSection.class).orElse(null);
        if (c != null) {
            String draw = c.guarantee() == Guarantee.EXPECTED ? " (" + CalibrationReport.drawLine(c) + ")" : "";
            String estimator = c.curves().stream()
                    .findFirst()
                    .map(curve -> ", " + curve.estimator().id() + " complete-series model")
                    .orElse("");
            row(
                    out,
                    "certificates",
                    c.guarantee().cliName() + draw + ", delta " + c.delta() + ", selection correction "
                            + c.selection().cliName() + " over " + c.candidates() + " candidates" + estimator);
            String holdout = "holdout: %.0f %% of the training series, never fitted on, replayed through this model"
                    + " (%d series)";
            int series = c.curves().isEmpty() ? 0 : c.curves().get(0).series();
            String scheme = c.isHoldout()
                    ? String.format(Locale.ROOT, holdout, 100 * c.holdout(), series)
                    : "cross-fit: " + c.folds() + " fold models";
            row(out, "calibration", scheme);
        }
        row(out, "operating point", operatingPoint(m));
        WatchCertificateReport.section(m).ifPresent(w -> row(out, "watch certificate", WatchCertificateReport.line(w)));
        if (c != null && c.guarantee() == Guarantee.EXPECTED) {
            row(out, "expected", CalibrationReport.expectedLine());
        }
        if (!r.ignoredSections().isEmpty()) {
            row(out, "ignored sections", String.join(", ", r.ignoredSections()) + " (unknown to this Vigil, optional)");
        }
        out.printf(Locale.ROOT, "file size %d bytes:%n", r.fileBytes());
        for (Map.Entry<String, Long> e : r.partBytes().entrySet()) {
            out.printf(Locale.ROOT, "  %-18s %10d bytes%n", e.getKey(), e.getValue());
        }
    }

    /**
     * The operating point the model decides at when a command is not told otherwise, and whether it is certified:
     * one that is not decides every series only at t = d, which the text must not hide.
     */
    static String operatingPoint(VigilModel m) {
        Certification c = Certification.of(m, DecisionOverrides.none().resolve(m));
        return DecisionOverrides.operatingPoint(m)
                .map(p -> String.format(
                                Locale.ROOT,
                                "%s objective, rule %s, classifier %s, set %s, estimator %s: ",
                                p.objective(),
                                p.rule().cliName(),
                                p.classifier().cliName(),
                                p.set().cliName(),
                                p.estimator().id())
                        + c.describe())
                .orElse("none stored: " + c.describe());
    }

    private static void row(PrintWriter out, String key, String value) {
        out.printf(Locale.ROOT, "  %-17s %s%n", key, value);
    }

    /** A row whose value is {@code format} filled with {@code args}. */
    private static void row(PrintWriter out, String key, String format, Object... args) {
        row(out, key, String.format(Locale.ROOT, format, args));
    }

    private static void table(PrintWriter out, String title, GridScores g) {
        out.printf(Locale.ROOT, "%s%s:%n", title, g.source().equals(GridScores.USER) ? " [given by user]" : "");
        double[] cand = g.candidates();
        double[] acc = g.accuracy();
        StringBuilder top = new StringBuilder("    value   ");
        StringBuilder bottom = new StringBuilder("    accuracy");
        for (int i = 0; i < cand.length; i++) {
            String c =
                    (g.integral() ? Long.toString((long) cand[i]) : fmt(cand[i])) + (cand[i] == g.chosen() ? "*" : "");
            String a = fourDigits(acc[i]);
            int w = Math.max(c.length(), a.length()) + 2;
            top.append(String.format(Locale.ROOT, "%" + w + "s", c));
            bottom.append(String.format(Locale.ROOT, "%" + w + "s", a));
        }
        out.println(top);
        out.println(bottom);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
