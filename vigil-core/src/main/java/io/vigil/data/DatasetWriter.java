package io.vigil.data;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a {@link Dataset} in any {@link DataFormat}, plain or gzipped, so generated data can be handed
 * to other tools and every reader can be tested by a round trip. Numbers are written with
 * {@link Double#toString(double)}, the shortest decimal that parses back to the same double, so a
 * write → read round trip reproduces every value exactly. Labels are written verbatim; a label the format
 * cannot hold (a separator or blank inside it) is an {@link IllegalArgumentException}, except in ARFF,
 * which quotes it.
 */
public final class DatasetWriter {
    private static final int BUFFER = 1 << 16;

    private DatasetWriter() {}

    /**
     * Writes {@code data} to {@code file} (parent directories created, an existing file replaced).
     *
     * @param gzip compress with gzip (the caller chooses the file name, conventionally ending in .gz)
     */
    public static void write(Dataset data, Path file, DataFormat format, boolean gzip) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        checkLabels(data, format);
        if (data.channels() > 1 && format != DataFormat.TS) {
            throw new IllegalArgumentException(data.name() + " has " + data.channels() + " channels, which the "
                    + format.cliName() + " format cannot hold; write ts instead");
        }
        OutputStream out = Files.newOutputStream(file);
        try {
            if (gzip) {
                out = new GZIPOutputStream(out, BUFFER);
            }
        } catch (IOException e) {
            out.close();
            throw e;
        }
        try (Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), BUFFER)) {
            switch (format) {
                case TSV -> writeDelimited(data, w, '\t');
                case UCR2015 -> writeDelimited(data, w, ',');
                case TS -> writeTs(data, w);
                case ARFF -> writeArff(data, w);
                default -> throw new IllegalStateException("unknown format " + format);
            }
        }
    }

    private static void checkLabels(Dataset data, DataFormat format) {
        for (String label : data.classNames()) {
            if (label.isEmpty() || Values.isMissingToken(label)) {
                throw new IllegalArgumentException("label '" + label + "' would be read back as a missing label");
            }
            if (format == DataFormat.ARFF) {
                continue;
            }
            for (int k = 0; k < label.length(); k++) {
                char c = label.charAt(k);
                if (Character.isWhitespace(c) || c == ',' || (format == DataFormat.TS && (c == ':' || c == '#'))) {
                    throw new IllegalArgumentException("label '" + label + "' contains '" + c + "', which the "
                            + format.cliName() + " format cannot hold; write ARFF instead");
                }
            }
        }
    }

    private static void writeDelimited(Dataset data, Writer w, char sep) throws IOException {
        int d = data.length();
        for (int i = 0; i < data.size(); i++) {
            w.write(data.labelOf(i));
            for (int t = 0; t < d; t++) {
                w.write(sep);
                w.write(Double.toString(data.value(i, t)));
            }
            w.write('\n');
        }
    }

    /** The .ts layout: header, then per series its channels separated by ':' (values by ','), the label last. */
    private static void writeTs(Dataset data, Writer w) throws IOException {
        boolean missing = false;
        for (int i = 0; i < data.size() && !missing; i++) {
            for (int k = 0; k < data.length(); k++) {
                missing |= Double.isNaN(data.value(i, k));
            }
        }
        int channels = data.channels();
        int d = data.seriesLength();
        w.write("@problemName " + data.name().replaceAll("\\s+", "_") + "\n");
        w.write("@timeStamps false\n");
        w.write("@missing " + missing + "\n");
        w.write("@univariate " + (channels == 1) + "\n");
        if (channels > 1) {
            w.write("@dimensions " + channels + "\n");
        }
        w.write("@equalLength true\n");
        w.write("@seriesLength " + d + "\n");
        w.write("@classLabel true " + String.join(" ", data.classNames()) + "\n");
        w.write("@data\n");
        for (int i = 0; i < data.size(); i++) {
            for (int c = 0; c < channels; c++) {
                for (int t = 0; t < d; t++) {
                    if (t > 0) {
                        w.write(',');
                    }
                    double v = data.value(i, c, t);
                    w.write(Double.isNaN(v) ? "?" : Double.toString(v));
                }
                w.write(':');
            }
            w.write(data.labelOf(i));
            w.write('\n');
        }
    }

    private static void writeArff(Dataset data, Writer w) throws IOException {
        w.write("@relation " + quote(data.name()) + "\n\n");
        for (int t = 1; t <= data.length(); t++) {
            w.write("@attribute att" + t + " numeric\n");
        }
        List<String> classes = data.classNames();
        StringBuilder nominal = new StringBuilder("@attribute target {");
        for (int g = 0; g < classes.size(); g++) {
            if (g > 0) {
                nominal.append(',');
            }
            nominal.append(quote(classes.get(g)));
        }
        w.write(nominal.append("}\n\n@data\n").toString());
        for (int i = 0; i < data.size(); i++) {
            for (int t = 0; t < data.length(); t++) {
                double v = data.value(i, t);
                w.write(Double.isNaN(v) ? "?" : Double.toString(v));
                w.write(',');
            }
            w.write(quote(data.labelOf(i)));
            w.write('\n');
        }
    }

    /** ARFF quoting: single quotes, with backslash escapes, when the text holds anything but plain characters. */
    static String quote(String s) {
        boolean plain = !s.isEmpty();
        for (int k = 0; k < s.length() && plain; k++) {
            char c = s.charAt(k);
            plain = !(Character.isWhitespace(c)
                    || c == ','
                    || c == '\''
                    || c == '"'
                    || c == '{'
                    || c == '}'
                    || c == '%'
                    || c == '\\');
        }
        if (plain) {
            return s;
        }
        StringBuilder sb = new StringBuilder("'");
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == '\'' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('\'').toString();
    }
}
