package io.vigil.cli;

import io.vigil.api.ModelSummary;
import io.vigil.early.Certification;
import io.vigil.early.DecisionOverrides;
import io.vigil.evaluate.CalibrationNotes;
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
        ModelSummary summary = ModelSummary.of(modelFile.toString(), m, parts, bytes.length);
        return CommandOutput.print(spec, json, summary, out -> printText(out, summary, m));
    }

    /** An accuracy to four decimals, or "-" when it was not scored (NaN). */
    private static String fourDigits(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
    }

    /** The text form: one row per part of the model, then the cross-validation tables and the file's parts. */
    private static void printText(PrintWriter out, ModelSummary r, VigilModel m) {
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
        ModelSummary.Sparse sp = r.sparse();
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
        ModelSummary.Transfer t = r.transfer();
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
        ModelSummary.Refinement g = r.refinement();
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
            String draw = c.guarantee() == Guarantee.EXPECTED ? " (" + CalibrationNotes.drawLine(c) + ")" : "";
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
            row(out, "expected", CalibrationNotes.expectedLine());
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
