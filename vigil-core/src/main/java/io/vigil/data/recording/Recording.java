package io.vigil.data.recording;

import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One continuous multichannel recording: {@code samples} rows of {@code channels} values (NaN = missing), optionally
 * with a timestamp per sample in ms and a sampling rate (given, or derived from the timestamps). Immutable: the
 * arrays are copied in and never handed out.
 */
public final class Recording {
    private final String name;
    private final List<String> channels;
    private final double[][] values;
    private final double[] timesMs;
    private final double samplingRateHz;

    /**
     * @param name the recording's name (its file name without extensions)
     * @param channels channel names, one per row of {@code values}, distinct
     * @param values {@code values[c][i]}: channel c at sample i + 1; every channel of the same length ≥ 1
     * @param timesMs timestamp of each sample in ms, strictly increasing, or null
     * @param samplingRateHz samples per second, or NaN when unknown
     */
    public Recording(String name, List<String> channels, double[][] values, double[] timesMs, double samplingRateHz) {
        this.name = Objects.requireNonNull(name, "name");
        this.channels = List.copyOf(channels);
        if (this.channels.isEmpty() || values.length != this.channels.size()) {
            throw new IllegalArgumentException("recording " + name + ": " + this.channels.size() + " channel names for "
                    + values.length + " channels (need ≥ 1, equal)");
        }
        if (this.channels.stream().distinct().count() != this.channels.size()) {
            throw new IllegalArgumentException("recording " + name + ": duplicate channel names " + this.channels);
        }
        int n = values[0].length;
        if (n < 1) {
            throw new IllegalArgumentException("recording " + name + " has no samples");
        }
        this.values = new double[values.length][];
        for (int c = 0; c < values.length; c++) {
            if (values[c].length != n) {
                throw new IllegalArgumentException("recording " + name + ": channel " + this.channels.get(c) + " has "
                        + values[c].length + " samples, channel " + this.channels.get(0) + " " + n);
            }
            this.values[c] = values[c].clone();
        }
        if (timesMs != null) {
            if (timesMs.length != n) {
                throw new IllegalArgumentException(
                        "recording " + name + ": " + timesMs.length + " timestamps for " + n + " samples");
            }
            for (int i = 1; i < n; i++) {
                if (!(timesMs[i] > timesMs[i - 1])) {
                    throw new IllegalArgumentException("recording " + name + ": timestamps must increase strictly, "
                            + timesMs[i - 1] + " then " + timesMs[i] + " at sample " + (i + 1));
                }
            }
        }
        this.timesMs = timesMs == null ? null : timesMs.clone();
        if (!Double.isNaN(samplingRateHz) && !(samplingRateHz > 0 && Double.isFinite(samplingRateHz))) {
            throw new IllegalArgumentException(
                    "recording " + name + ": sampling rate must be positive, got " + samplingRateHz);
        }
        this.samplingRateHz = samplingRateHz;
    }

    public String name() {
        return name;
    }

    public List<String> channels() {
        return channels;
    }

    public int channelCount() {
        return channels.size();
    }

    /** Number of samples per channel. */
    public int samples() {
        return values[0].length;
    }

    /** Value of channel {@code c} (0-based) at sample {@code i} (1-based); NaN when missing. */
    public double value(int c, int i) {
        return values[c][i - 1];
    }

    /** A copy of channel {@code c} (0-based); element k is sample k + 1. */
    public double[] channel(int c) {
        return values[c].clone();
    }

    public boolean hasTimes() {
        return timesMs != null;
    }

    /** Timestamp in ms of sample {@code i} (1-based). */
    public double timeMs(int i) {
        if (timesMs == null) {
            throw new IllegalStateException("recording " + name + " has no time column");
        }
        return timesMs[i - 1];
    }

    /** Samples per second, when given or derivable from the timestamps. */
    public OptionalDouble samplingRateHz() {
        return Double.isNaN(samplingRateHz) ? OptionalDouble.empty() : OptionalDouble.of(samplingRateHz);
    }

    /** Duration in hours: samples / rate when the rate is known, else empty. */
    public OptionalDouble hours() {
        return Double.isNaN(samplingRateHz)
                ? OptionalDouble.empty()
                : OptionalDouble.of(samples() / samplingRateHz / 3600.0);
    }

    /** The same samples with another sampling rate (e.g. one the user states for files without a time column). */
    public Recording withSamplingRate(double hz) {
        return new Recording(name, channels, values, timesMs, hz);
    }

    @Override
    public String toString() {
        return "Recording[" + name + ", " + channels.size() + " channels × " + samples() + " samples"
                + (Double.isNaN(samplingRateHz) ? "" : ", " + samplingRateHz + " Hz") + "]";
    }
}
