package io.vigil.data;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads one split of a labelled univariate time-series data set in any of the UCR/UEA archive formats
 * ({@link DataFormat}), plain or gzipped, into a {@link Dataset}. Lines are streamed and numbers parsed
 * without regular expressions, so a 1,000 × 1,024 file reads in well under a second. Every problem with
 * the input is a {@link DataFormatException} naming the file, the 1-based line and the reason (ragged
 * rows, a non-numeric or infinite value with its column and token, a missing value unless interpolation
 * is requested, a missing label, an empty file, an unsupported multivariate or unequal-length file).
 */
public final class DatasetReader {
    private static final int BUFFER = 1 << 16;
    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;
    /** Lines of leading comments and blank lines looked at when detecting a format by content. */
    private static final int DETECT_LINES = 1000;

    private DatasetReader() {}

    /** Reads {@code file} with default options (missing values rejected, format detected). */
    public static Dataset read(Path file) throws IOException {
        return read(file, ReadOptions.DEFAULT);
    }

    /**
     * Reads one split. The dataset name comes from the file name ({@code CBF} from {@code CBF_TRAIN.tsv},
     * see {@link #datasetName(Path)}); the format from {@code options.format()} or, when that is null, from
     * {@link #detectFormat(Path)}.
     *
     * @throws DataFormatException when the content is unusable (file, line, reason)
     * @throws IOException when the file cannot be read
     */
    public static Dataset read(Path file, ReadOptions options) throws IOException {
        DataFormat format = options.format() != null ? options.format() : detectFormat(file);
        String name = datasetName(file);
        Rows rows = new Rows(file, options);
        try (BufferedReader in = open(file)) {
            switch (format) {
                case TSV -> readDelimited(in, file, options, rows, Separator.TAB);
                case UCR2015 -> readDelimited(in, file, options, rows, null);
                case TS -> TsParser.read(in, file, options, rows);
                case ARFF -> ArffParser.read(in, file, options, rows);
                default -> throw new IllegalStateException("unknown format " + format);
            }
        } catch (ZipException | EOFException e) {
            throw corruptGzip(file, e);
        }
        String empty = format == DataFormat.TS || format == DataFormat.ARFF
                ? "no series after @data (the file holds no data rows)"
                : "the file is empty (no series)";
        return rows.build(name, empty, format == DataFormat.TSV || format == DataFormat.UCR2015);
    }

    /**
     * The data set name a split file stands for: the file name without {@code .gz}, without a known
     * extension ({@code .tsv .txt .ts .arff .csv}) and without a trailing {@code _TRAIN}/{@code _TEST}.
     */
    public static String datasetName(Path file) {
        String name = file.getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
            lower = lower.substring(0, lower.length() - 3);
        }
        for (String ext : new String[] {".tsv", ".txt", ".ts", ".arff", ".csv"}) {
            if (lower.endsWith(ext)) {
                name = name.substring(0, name.length() - ext.length());
                lower = lower.substring(0, lower.length() - ext.length());
                break;
            }
        }
        for (String split : new String[] {"_train", "_test"}) {
            if (lower.endsWith(split) && lower.length() > split.length()) {
                name = name.substring(0, name.length() - split.length());
                break;
            }
        }
        return name.isEmpty() ? file.getFileName().toString() : name;
    }

    /**
     * The format of {@code file}: from the extension when it names one ({@code .tsv}, {@code .ts},
     * {@code .arff}, optionally {@code .gz}), else from the first non-blank line: {@code @relation} or a
     * {@code %} comment means ARFF, another {@code @} tag or a {@code #} comment means {@code .ts}, a line
     * with a tab means TSV, anything else the UCR 2015 text format.
     */
    public static DataFormat detectFormat(Path file) throws IOException {
        var byName = DataFormat.fromFileName(file.getFileName().toString());
        if (byName.isPresent()) {
            return byName.get();
        }
        try (BufferedReader in = open(file)) {
            String line;
            int seen = 0;
            while ((line = in.readLine()) != null && seen++ < DETECT_LINES) {
                String s = stripBom(line).strip();
                if (s.isEmpty()) {
                    continue;
                }
                String lower = s.toLowerCase(Locale.ROOT);
                if (s.startsWith("%") || lower.startsWith("@relation")) {
                    return DataFormat.ARFF;
                }
                if (s.startsWith("#") || s.startsWith("@")) {
                    return DataFormat.TS;
                }
                return separatorOf(s) == Separator.TAB ? DataFormat.TSV : DataFormat.UCR2015;
            }
        } catch (ZipException | EOFException e) {
            throw corruptGzip(file, e);
        }
        return DataFormat.UCR2015;
    }

    private static DataFormatException corruptGzip(Path file, IOException e) {
        String detail = e.getMessage() == null ? "the compressed data ends early" : e.getMessage();
        return new DataFormatException(file, 0, "corrupt or truncated gzip data (" + detail + ")");
    }

    /** Opens a text file, transparently decompressing gzip (recognised by its magic bytes, not its name). */
    static BufferedReader open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new DataFormatException(file, 0, "is a directory, not a data file");
        }
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such file");
        }
        InputStream in = new BufferedInputStream(Files.newInputStream(file), BUFFER);
        try {
            in.mark(2);
            int b1 = in.read();
            int b2 = in.read();
            in.reset();
            if (b1 == GZIP_MAGIC_1 && b2 == GZIP_MAGIC_2) {
                in = new GZIPInputStream(in, BUFFER);
            }
        } catch (IOException e) {
            in.close();
            throw e;
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), BUFFER);
    }

    static String stripBom(String line) {
        return !line.isEmpty() && line.charAt(0) == '\uFEFF' ? line.substring(1) : line;
    }

    /**
     * How the fields of a line are separated: fixed by the format for TSV (a label may then contain blanks,
     * e.g. {@code class one}); for the UCR 2015 text format, which allows commas, tabs or blanks, decided once
     * per file from its first line.
     */
    enum Separator {
        TAB,
        COMMA,
        WHITESPACE
    }

    /**
     * The separator of a UCR 2015 text line: a comma when it has one; tabs when the tab-separated fields after
     * the label are single tokens and the label is not itself the start of blank-separated values (so a label
     * such as {@code class one} survives); otherwise runs of blanks.
     */
    static Separator separatorOf(String line) {
        if (line.indexOf(',') >= 0) {
            return Separator.COMMA;
        }
        if (line.indexOf('\t') < 0) {
            return Separator.WHITESPACE;
        }
        String[] fields = line.split("\t", -1);
        for (int i = 1; i < fields.length; i++) {
            if (hasInteriorBlank(fields[i].strip())) {
                return Separator.WHITESPACE;
            }
        }
        String[] labelTokens = fields[0].strip().split("\\s+");
        if (labelTokens.length > 1 && Values.isNumber(labelTokens[labelTokens.length - 1])) {
            return Separator.WHITESPACE;
        }
        return Separator.TAB;
    }

    private static boolean hasInteriorBlank(String field) {
        for (int i = 0; i < field.length(); i++) {
            if (Values.isBlank(field.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * UCR 2018 TSV and 2015 text: label first, then the values. Tab- and comma-separated files have one
     * field per separator (an empty field is a missing value); whitespace-separated files use runs of
     * blanks.
     *
     * @param fixed the separator the format prescribes, or null to guess it from the first line
     */
    private static void readDelimited(BufferedReader in, Path file, ReadOptions options, Rows rows, Separator fixed)
            throws IOException {
        Values values = new Values(file, options.interpolateMissing(), c -> "column " + c);
        double[] buf = new double[256];
        Separator sep = fixed;
        String line;
        long lineNo = 0;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (lineNo == 1) {
                line = stripBom(line);
            }
            if (line.isBlank()) {
                continue;
            }
            if (sep == null) {
                sep = separatorOf(line);
            }
            int n = 0;
            String label;
            if (sep == Separator.WHITESPACE) {
                int len = line.length();
                int pos = skipBlanks(line, 0);
                int end = tokenEnd(line, pos);
                label = line.substring(pos, end);
                pos = skipBlanks(line, end);
                while (pos < len) {
                    end = tokenEnd(line, pos);
                    if (n == buf.length) {
                        buf = Arrays.copyOf(buf, n * 2);
                    }
                    buf[n] = values.parse(line, pos, end, lineNo, n + 2);
                    n++;
                    pos = skipBlanks(line, end);
                }
            } else {
                char c = sep == Separator.TAB ? '\t' : ',';
                line = withoutTrailingSeparator(line, c);
                int cut = line.indexOf(c);
                if (cut < 0) {
                    cut = line.length();
                }
                label = line.substring(0, cut).strip();
                int pos = cut + 1;
                while (pos <= line.length() && cut < line.length()) {
                    cut = line.indexOf(c, pos);
                    if (cut < 0) {
                        cut = line.length();
                    }
                    if (n == buf.length) {
                        buf = Arrays.copyOf(buf, n * 2);
                    }
                    buf[n] = values.parse(line, pos, cut, lineNo, n + 2);
                    n++;
                    pos = cut + 1;
                }
            }
            if (n == 0) {
                throw new DataFormatException(
                        file,
                        lineNo,
                        "line has a single field '" + label + "' and no values; expected the class label"
                                + " followed by the series values ("
                                + sep.name().toLowerCase(Locale.ROOT)
                                + " separated)");
            }
            rows.add(Arrays.copyOf(buf, n), label, lineNo);
        }
    }

    /**
     * The line without one separator at its end (and the blanks after it): spreadsheets and {@code paste} often end a
     * row with a tab, which is not an empty last value — counting it would make the row one value longer, or, with
     * interpolation, silently pad the series. An empty field anywhere else is still a missing value.
     */
    static String withoutTrailingSeparator(String line, char sep) {
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) != sep && Values.isBlank(line.charAt(end - 1))) {
            end--;
        }
        return end > 0 && line.charAt(end - 1) == sep ? line.substring(0, end - 1) : line;
    }

    private static int skipBlanks(String line, int pos) {
        while (pos < line.length() && Values.isBlank(line.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    private static int tokenEnd(String line, int pos) {
        while (pos < line.length() && !Values.isBlank(line.charAt(pos))) {
            pos++;
        }
        return pos;
    }
}
