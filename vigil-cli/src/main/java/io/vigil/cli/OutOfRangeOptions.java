package io.vigil.cli;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.data.ValueBounds;
import io.vigil.early.RangeGuard;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.model.VigilModel;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --out-of-range} of the commands that read test series against a model ({@code evaluate}, {@code classify}):
 * a cell beyond the model's training range (±{@value RangeGuard#DEFAULT_K} standard deviations at its t, as the
 * stream's range guard) is rejected (missing, filled by interpolation), clipped or kept — so one 1e200 cell cannot
 * turn the run into NaN. Each such cell is reported on stderr with its file, line and column.
 */
public final class OutOfRangeOptions {
    /** Cells reported one by one on stderr; the rest are counted. */
    private static final int SHOWN = 10;

    @Option(
            names = "--out-of-range",
            paramLabel = "reject|clip|keep",
            defaultValue = "reject",
            description = "A test value beyond the model's training range (±8 SD at its t): reject = treated as "
                    + "missing and filled by linear interpolation; clip = the nearer bound; keep = as it is "
                    + "(default: ${DEFAULT-VALUE}). Each is reported on stderr with file, line and column.")
    String outOfRange;

    private final List<String> notices = new ArrayList<>();

    /** The policy, a usage error naming the valid values when unknown. */
    OutOfRangePolicy policy(CommandLine cl) {
        return StreamOptions.outOfRangePolicy(cl, outOfRange);
    }

    /**
     * The bounds to read a model's test series against: its training range, or, for a model that keeps no per-t
     * training moments, the magnitude limit of {@link ValueBounds#MAGNITUDE_LIMIT} (an error beyond it).
     */
    ValueBounds bounds(VigilModel model, CommandLine cl) {
        OutOfRangePolicy p = policy(cl);
        try {
            return RangeGuard.of(model, RangeGuard.DEFAULT_K).bounds(p, notices::add);
        } catch (IllegalArgumentException e) {
            return ValueBounds.trainingMagnitude();
        }
    }

    /** Prints what was reported while reading (at most {@value #SHOWN} lines and a count). */
    void report(PrintWriter err) {
        for (int i = 0; i < Math.min(SHOWN, notices.size()); i++) {
            err.println("warning: " + notices.get(i));
        }
        if (notices.size() > SHOWN) {
            err.println("warning: " + (notices.size() - SHOWN) + " more values beyond the training range");
        }
        err.flush();
    }

    /**
     * A failure of the arithmetic on series that kept extreme values ({@code --out-of-range keep}), re-thrown naming
     * the first such cell; any other failure unchanged.
     */
    RuntimeException explain(RuntimeException failure) {
        if (notices.isEmpty() || !outOfRange.trim().equalsIgnoreCase("keep")) {
            return failure;
        }
        return new IllegalArgumentException(
                failure.getMessage() + " — after keeping " + notices.size() + " value(s) beyond the training range, "
                        + "first " + notices.get(0).replace("; --out-of-range keep: used as it is", "")
                        + "; use --out-of-range reject or clip",
                failure);
    }
}
