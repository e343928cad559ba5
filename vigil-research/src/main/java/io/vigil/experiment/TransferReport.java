package io.vigil.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/** {@code transfer.md} (mean ± std per ℓ and method, paired-test marks) and {@code transfer.csv} (every split). */
public final class TransferReport {
    /** The markdown file's name. */
    public static final String MARKDOWN = "transfer.md";

    /** The per-split CSV file's name. */
    public static final String CSV = "transfer.csv";

    private TransferReport() {}

    /** Writes both files into {@code dir} (created when missing). */
    public static void write(TransferExperiment.Result r, String command, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown(r, command), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(CSV), csv(r), StandardCharsets.UTF_8);
    }

    /** The markdown table. */
    public static String markdown(TransferExperiment.Result r, String command) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "# Transfer LDG: source %s → target %s, %d target series per class, %d splits%n%n",
                r.source(),
                r.target(),
                r.perClass(),
                r.accuracy().length));
        sb.append("Command: `").append(command).append("`\n\n");
        sb.append(
                "3-NN accuracy on the target test series against the mapped target training and source series, mean ± "
                        + "std over the splits. `*`: transfer LDG differs from that column (two-sided paired t-test, 5 %).");
        if (r.resampled()) {
            sb.append(" The source series were resampled to the target's length (linear interpolation).");
        }
        sb.append(" DTDKL (Zeng and Ren; paper's λ = 1e-6, β = 1, ten Gaussian base kernels) has 1 direction for two"
                + " classes and G otherwise, so its ℓ is capped there.");
        sb.append("\n\n| ℓ | transfer LDG | pooled PCA | no reduction | DTDKL |\n|---:|---:|---:|---:|---:|\n");
        for (int j = 0; j < r.dims().length; j++) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %s%s | %s%s | %s%s |%n",
                    r.dims()[j],
                    cell(r, 0, j),
                    cell(r, 1, j),
                    r.significant(1, j) ? "*" : "",
                    cell(r, 2, j),
                    r.significant(2, j) ? "*" : "",
                    cell(r, 3, j),
                    r.significant(3, j) ? "*" : ""));
        }
        double cvMean = Arrays.stream(r.cvAccuracy()).average().orElse(Double.NaN);
        sb.append(String.format(
                Locale.ROOT,
                "%nTransfer LDG with ℓ by its own CV: %.4f ± %.4f (ℓ chosen %s); α chosen %s; γ chosen %s.%n",
                cvMean,
                Table33Experiment.Stats.std(r.cvAccuracy()),
                Arrays.toString(r.cvDims()),
                Arrays.toString(r.alpha()),
                Arrays.toString(r.gamma())));
        return sb.toString();
    }

    /** One row per split and ℓ. */
    public static String csv(TransferExperiment.Result r) {
        StringBuilder sb = new StringBuilder(
                "source,target,per_class,split,dims,transfer_ldg,pooled_pca,none,dtdkl,transfer_ldg_cv,cv_dims,alpha,"
                        + "gamma\n");
        for (int s = 0; s < r.accuracy().length; s++) {
            for (int j = 0; j < r.dims().length; j++) {
                sb.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%s,%s%n",
                        r.source(),
                        r.target(),
                        r.perClass(),
                        s,
                        r.dims()[j],
                        r.accuracy()[s][0][j],
                        r.accuracy()[s][1][j],
                        r.accuracy()[s][2][j],
                        r.accuracy()[s][3][j],
                        r.cvAccuracy()[s],
                        r.cvDims()[s],
                        r.alpha()[s],
                        r.gamma()[s]));
            }
        }
        return sb.toString();
    }

    private static String cell(TransferExperiment.Result r, int method, int j) {
        return String.format(Locale.ROOT, "%.4f ± %.4f", r.mean(method, j), r.std(method, j));
    }
}
