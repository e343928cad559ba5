package io.vigil.ldg;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;

/**
 * A coarser time resolution for the LDG directions of C-channel series of d samples each: every channel's time axis
 * is cut into S contiguous segments (segment s covers t ∈ [⌊s·d/S⌋, ⌊(s+1)·d/S⌋)) and a direction may only be
 * constant within a segment. The map A takes the time-major vector x (value (t, c) at t·C + c) to the S·C segment
 * sums divided by √(segment length), time-major again (segment s of channel c at s·C + c); its rows are orthonormal,
 * so LDG fitted on Ax with basis B' gives the D×ℓ basis B = AᵀB' with BᵀB = I and Bᵀx = B'ᵀAx. Everything that uses
 * B — the classifiers in LDG space, the complete-series Gaussians, early decisions — is unchanged.
 *
 * <p>Why: with few series of many values whose classes differ in level and energy rather than in time-aligned shape
 * (activities recorded at random phase, BasicMotions: 40 series of 6 × 100), LDG at full resolution fits directions
 * to the phase noise of the training series; restricting them to segment-constant directions is a smoothness prior
 * on B whose strength S the training data choose by cross-validation ({@code Trainer}). S = d is full resolution.
 * Immutable.
 */
public final class TimeSegments {
    /** Segment counts per channel searched below full resolution (those smaller than d). */
    private static final int[] COARSE_GRID = {32, 16, 8, 4, 2, 1};

    private final int channels;
    private final int seriesLength;
    private final int segments;
    private final int[] bounds; // S + 1 segment boundaries on the time axis

    private TimeSegments(int channels, int seriesLength, int segments) {
        this.channels = channels;
        this.seriesLength = seriesLength;
        this.segments = segments;
        this.bounds = new int[segments + 1];
        for (int s = 0; s <= segments; s++) {
            bounds[s] = (int) ((long) s * seriesLength / segments);
        }
    }

    /**
     * The map for C channels of d samples cut into S segments each.
     *
     * @throws IllegalArgumentException unless C ≥ 1, d ≥ 1 and 1 ≤ S ≤ d
     */
    public static TimeSegments of(int channels, int seriesLength, int segments) {
        if (channels < 1 || seriesLength < 1) {
            throw new IllegalArgumentException("need C ≥ 1 and d ≥ 1, got C = " + channels + ", d = " + seriesLength);
        }
        if (segments < 1 || segments > seriesLength) {
            throw new IllegalArgumentException(
                    "segments must be in 1.." + seriesLength + " (the series length), got " + segments);
        }
        return new TimeSegments(channels, seriesLength, segments);
    }

    /** The candidates searched for d samples per channel: d itself (full resolution) first, then 32, 16, …, 1 below d. */
    public static List<Integer> grid(int seriesLength) {
        List<Integer> out = new ArrayList<>();
        out.add(seriesLength);
        for (int s : COARSE_GRID) {
            if (s < seriesLength) {
                out.add(s);
            }
        }
        return out;
    }

    /** S, segments per channel. */
    public int segments() {
        return segments;
    }

    /** Whether S = d: A is the identity. */
    public boolean isFullResolution() {
        return segments == seriesLength;
    }

    /** S·C, the dimension LDG sees. */
    public int reducedLength() {
        return segments * channels;
    }

    /** Ax for every row (n × C·d → n × S·C); the input is not modified. */
    public double[][] apply(double[][] rows) {
        int d = seriesLength * channels;
        double[][] out = new double[rows.length][reducedLength()];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values, expected " + d);
            }
            for (int s = 0; s < segments; s++) {
                double scale = 1.0 / Math.sqrt(bounds[s + 1] - bounds[s]);
                for (int c = 0; c < channels; c++) {
                    double sum = 0;
                    for (int t = bounds[s]; t < bounds[s + 1]; t++) {
                        sum += rows[i][t * channels + c];
                    }
                    out[i][s * channels + c] = sum * scale;
                }
            }
        }
        return out;
    }

    /** B = AᵀB' (S·C × ℓ → C·d × ℓ), orthonormal when B' is. */
    public DMatrixRMaj lift(DMatrixRMaj reduced) {
        if (reduced.numRows != reducedLength()) {
            throw new IllegalArgumentException(
                    "basis has " + reduced.numRows + " rows, expected S·C = " + reducedLength());
        }
        int l = reduced.numCols;
        DMatrixRMaj out = new DMatrixRMaj(seriesLength * channels, l);
        for (int s = 0; s < segments; s++) {
            double scale = 1.0 / Math.sqrt(bounds[s + 1] - bounds[s]);
            for (int c = 0; c < channels; c++) {
                int from = (s * channels + c) * l;
                for (int t = bounds[s]; t < bounds[s + 1]; t++) {
                    int to = (t * channels + c) * l;
                    for (int j = 0; j < l; j++) {
                        out.data[to + j] = reduced.data[from + j] * scale;
                    }
                }
            }
        }
        return out;
    }
}
