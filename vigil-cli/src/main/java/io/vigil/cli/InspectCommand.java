package io.vigil.cli;

import io.vigil.early.Certification;
import io.vigil.early.DecisionOverrides;
import io.vigil.flink.cli.Json;
import io.vigil.model.CalibrationSection;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.SparseInfo;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.risk.Guarantee;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(toJson(m, parts, bytes.length)));
        } else {
            printText(out, m, parts, bytes.length);
        }
        out.flush();
        return 0;
    }

    private Map<String, Object> toJson(VigilModel m, Map<String, Long> parts, long fileBytes) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("file", modelFile.toString());
        o.put("format", VigilModel.FORMAT);
        o.put("format_version", VigilModel.FORMAT_VERSION);
        o.put("vigil_version", m.vigilVersion());
        o.put("created", m.created().toString());
        o.put("dataset", m.datasetName());
        o.put("classes", m.classNames());
        o.put("class_counts", m.classCounts());
        o.put("train_size", m.trainSize());
        o.put("length", m.length());
        o.put("dims", m.dims());
        o.put("gamma", m.gamma());
        o.put("neighbors", m.ldgNeighbors());
        o.put("qda_neighbors", m.qdaNeighbors());
        o.put("standardize", m.standardizer().isPresent());
        o.put("reducer", m.projection().reducer());
        m.projection().kernelMap().ifPresent(k -> {
            o.put("kernel", k.kernel().cliName());
            o.put("kernel_param", k.kernel().parameter());
        });
        m.projection().sparse().ifPresent(s -> {
            Map<String, Object> sp = new LinkedHashMap<>();
            sp.put("sparsity", s.sparsity());
            sp.put("deflation", s.deflation().name().toLowerCase(Locale.ROOT));
            sp.put("non_zeros", s.nonZeros());
            sp.put("coherence_mean", s.meanCoherence());
            sp.put("coherence_max", s.maxCoherence());
            sp.put("converged", s.converged());
            sp.put(
                    "sparsity_source",
                    s.sparsityScores() == null ? null : s.sparsityScores().source());
            o.put("sparse", sp);
        });
        m.projection().transfer().ifPresent(t -> {
            Map<String, Object> tr = new LinkedHashMap<>();
            tr.put("alpha", t.alpha());
            tr.put(
                    "alpha_source",
                    t.alphaScores() == null ? null : t.alphaScores().source());
            tr.put("target_series", t.targetSize());
            tr.put("source_dataset", t.dataset());
            tr.put("source_series", t.size());
            tr.put("source_fingerprint", t.fingerprint());
            o.put("transfer", tr);
        });
        m.projection().refinement().ifPresent(r -> {
            Map<String, Object> ref = new LinkedHashMap<>();
            ref.put("iterations", r.iterations());
            ref.put("accepted", r.accepted());
            ref.put("objective_before", r.objectiveBefore());
            ref.put("objective_after", r.objectiveAfter());
            o.put("refinement", ref);
        });
        o.put("seed", m.seed());
        o.put("fingerprint", m.fingerprint());
        SelectionReport s = m.selection();
        o.put("cv", s.cv().toString());
        o.put("neighbor_method", s.neighborMethod());
        if (s.protocol() != null) {
            Map<String, Object> ps = new LinkedHashMap<>();
            ps.put("candidates", s.protocol().candidates());
            ps.put("accuracy", s.protocol().accuracy());
            if (s.protocol().fresh3nn() != null) {
                ps.put(
                        "fresh_3nn",
                        Arrays.stream(s.protocol().fresh3nn())
                                .mapToObj(InspectCommand::nanToNull)
                                .toList());
                ps.put(
                        "fresh_local_qda",
                        Arrays.stream(s.protocol().freshLocalQda())
                                .mapToObj(InspectCommand::nanToNull)
                                .toList());
            }
            ps.put("chosen", s.protocol().chosen());
            o.put("protocol_scores", ps);
        }
        o.put("neighbor_cv", s.neighborCv().toString());
        o.put("gamma_dims", s.gammaDims());
        o.put("cv_accuracy", nanToNull(s.cvAccuracy()));
        Map<String, Object> scores = new LinkedHashMap<>();
        scores.put("ldg_neighbors", grid(s.ldgNeighbors()));
        scores.put("gamma", grid(s.gamma()));
        scores.put("dims", grid(s.dims()));
        scores.put("qda_neighbors", grid(s.qdaNeighbors()));
        o.put("scores", scores);
        o.put("eigenvalues", firstEigenvalues(m));
        o.put("sections", new ArrayList<>(m.sections().keySet()));
        o.put("ignored_sections", m.ignoredSections());
        o.put("part_bytes", parts);
        o.put("file_bytes", fileBytes);
        o.put(
                "calibration",
                m.section(CalibrationSection.class)
                        .map(c -> CalibrationReport.json(m, c))
                        .orElse(null));
        return o;
    }

    private static Map<String, Object> grid(GridScores g) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("source", g.source());
        List<Object> cand = new ArrayList<>();
        List<Object> acc = new ArrayList<>();
        for (double c : g.candidates()) {
            cand.add(g.integral() ? (Object) (long) c : (Object) c);
        }
        for (double a : g.accuracy()) {
            acc.add(nanToNull(a));
        }
        o.put("candidates", cand);
        o.put("accuracy", acc);
        o.put("chosen", g.integral() ? (Object) (long) g.chosen() : (Object) g.chosen());
        return o;
    }

    /** An accuracy to four decimals, or "-" when it was not scored (NaN). */
    private static String fourDigits(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static Object nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static double[] firstEigenvalues(VigilModel m) {
        double[] all = m.eigenvalues();
        return Arrays.copyOf(all, Math.min(all.length, m.dims()));
    }

    private void printText(PrintWriter out, VigilModel m, Map<String, Long> parts, long fileBytes) {
        SelectionReport s = m.selection();
        out.printf(Locale.ROOT, "Vigil model %s%n", modelFile);
        row(
                out,
                "format",
                VigilModel.FORMAT + " v" + VigilModel.FORMAT_VERSION + " (written by Vigil " + m.vigilVersion() + ")");
        row(out, "created", m.created().toString());
        row(out, "dataset", m.datasetName());
        row(out, "fingerprint", m.fingerprint());
        row(out, "training series", m.trainSize() + " of length d = " + m.length());
        StringBuilder classes = new StringBuilder();
        int[] counts = m.classCounts();
        for (int g = 0; g < m.numClasses(); g++) {
            classes.append(g == 0 ? "" : ", ")
                    .append(m.classNames().get(g))
                    .append(" (")
                    .append(counts[g])
                    .append(")");
        }
        row(out, "classes", m.numClasses() + ": " + classes);
        row(
                out,
                "preprocessing",
                m.standardizer().isPresent()
                        ? "per-feature standardisation with training means and scales"
                        : "none (series used as given)");
        row(
                out,
                "LDG",
                m.projection()
                                .kernelMap()
                                .map(k -> String.format(
                                        Locale.ROOT,
                                        "kernel LDG, %s kernel with %s = %s; ",
                                        k.kernel().cliName(),
                                        k.kernel().cliName().equals("rbf") ? "width" : "degree",
                                        fmt(k.kernel().parameter())))
                                .orElse("")
                        + String.format(
                                Locale.ROOT,
                                "k = %d neighbours, gamma = %s, l = %d dims (%d eigenvalues stored)",
                                m.ldgNeighbors(),
                                fmt(m.gamma()),
                                m.dims(),
                                m.eigenvalues().length)
                        + m.projection().segments().stream()
                                .mapToObj(v -> "; constant within " + v + " time segment" + (v == 1 ? "" : "s")
                                        + " per channel")
                                .findFirst()
                                .orElse(""));
        m.projection()
                .sparse()
                .ifPresent(sp -> row(
                        out,
                        "sparse",
                        String.format(
                                Locale.ROOT,
                                "sparse LDG (thesis 3.3.3): lambda = %s x |Z|_F, %s deflation; non-zeros per column "
                                        + "%s of d = %d; |b_i'b_j| mean %.4f, max %.4f%s",
                                fmt(sp.sparsity()),
                                sp.deflation().name().toLowerCase(Locale.ROOT),
                                java.util.Arrays.toString(sp.nonZeros()),
                                m.length(),
                                sp.meanCoherence(),
                                sp.maxCoherence(),
                                sp.converged() ? "" : " (a column's solver stopped at its iteration cap)")));
        m.projection()
                .transfer()
                .ifPresent(t -> row(
                        out,
                        "transfer",
                        String.format(
                                Locale.ROOT,
                                "transfer LDG (thesis ch. 4): alpha = %s (%s); %d target series + %d series of source "
                                        + "%s (fingerprint %s)",
                                fmt(t.alpha()),
                                t.alphaScores() == null
                                                || t.alphaScores().source().equals("cv")
                                        ? "3-NN CV on the target series"
                                        : "given",
                                t.targetSize(),
                                t.size(),
                                t.dataset(),
                                t.fingerprint())));
        m.projection()
                .refinement()
                .ifPresent(r -> row(
                        out,
                        "refinement",
                        String.format(
                                Locale.ROOT,
                                "gradient descent (thesis Algorithm 1): objective (3.4) %.6g -> %.6g, %d of %d steps kept",
                                r.objectiveBefore(),
                                r.objectiveAfter(),
                                r.accepted(),
                                r.iterations())));
        row(out, "local QDA", "k = " + m.qdaNeighbors() + " neighbours per class in LDG space");
        row(out, "seed", Long.toString(m.seed()));
        row(
                out,
                "cross-validation",
                "gamma/dims/local QDA: " + s.cv() + "; LDG neighbours: " + s.neighborMethod() + ", "
                        + s.neighborCv()
                        + String.format(Locale.ROOT, "; 3-NN CV accuracy %.4f", s.cvAccuracy()));
        out.println();
        table(
                out,
                "LDG neighbours k ("
                        + (s.neighborMethod().equals("3nn")
                                ? "3-NN in LDG space at each k's best gamma, "
                                : "local QDA on the input data, ")
                        + s.neighborCv() + ")",
                s.ldgNeighbors());
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
        row(
                out,
                "sections",
                m.sections().isEmpty()
                        ? "(none)"
                        : String.join(", ", m.sections().keySet()));
        m.section(CalibrationSection.class)
                .ifPresent(c -> row(
                        out,
                        "certificates",
                        c.guarantee().cliName()
                                + (c.guarantee() == Guarantee.EXPECTED
                                        ? " (" + CalibrationReport.drawLine(c) + ")"
                                        : "")
                                + ", delta " + c.delta() + ", selection correction "
                                + c.selection().cliName() + " over " + c.candidates() + " candidates"
                                + c.curves().stream()
                                        .findFirst()
                                        .map(k -> ", " + k.estimator().id() + " complete-series model")
                                        .orElse("")));
        m.section(CalibrationSection.class)
                .ifPresent(c -> row(
                        out,
                        "calibration",
                        c.isHoldout()
                                ? String.format(
                                        Locale.ROOT,
                                        "holdout: %.0f %% of the training series, never fitted on, replayed through "
                                                + "this model (%d series)",
                                        100 * c.holdout(),
                                        c.curves().isEmpty()
                                                ? 0
                                                : c.curves().get(0).series())
                                : "cross-fit: " + c.folds() + " fold models"));
        row(out, "operating point", operatingPoint(m));
        m.section(CalibrationSection.class)
                .filter(c -> c.guarantee() == Guarantee.EXPECTED)
                .ifPresent(c -> row(out, "expected", CalibrationReport.expectedLine()));
        if (!m.ignoredSections().isEmpty()) {
            row(out, "ignored sections", String.join(", ", m.ignoredSections()) + " (unknown to this Vigil, optional)");
        }
        out.printf(Locale.ROOT, "file size %d bytes:%n", fileBytes);
        for (Map.Entry<String, Long> e : parts.entrySet()) {
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
