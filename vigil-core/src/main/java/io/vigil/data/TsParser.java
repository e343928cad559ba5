package io.vigil.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sktime/aeon {@code .ts} format: header tags ({@code @problemName}, {@code @timeStamps}, {@code @missing},
 * {@code @univariate}, {@code @dimensions}, {@code @equalLength}, {@code @seriesLength}, {@code @classLabel true
 * <labels>}), then after {@code @data} one series per line, its channels separated by {@code :}, the values of a
 * channel by {@code ,}, the label last: {@code a1,a2,...:b1,b2,...:label}. {@code #} starts a comment line and
 * {@code ?} marks a missing value. Unequal lengths are resolved by the read options' {@link LengthPolicy};
 * timestamped and regression files are rejected with that reason.
 */
final class TsParser {
    private TsParser() {}

    static void read(BufferedReader in, Path file, ReadOptions options, Rows rows) throws IOException {
        int[] channel = {-1}; // the channel being parsed, −1 when the line has one: named in value errors
        Values values = new Values(
                file,
                options.interpolateMissing(),
                c -> channel[0] < 0 ? "value " + c + " of the series" : "channel " + channel[0] + " value " + c);
        Set<String> declared = null;
        boolean data = false;
        double[] buf = new double[256];
        String line;
        long lineNo = 0;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (lineNo == 1) {
                line = DatasetReader.stripBom(line);
            }
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            if (!data) {
                if (!s.startsWith("@")) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "expected a header tag (@...) or @data before the series, found '" + abbreviate(s) + "'");
                }
                String[] parts = s.split("\\s+", 2);
                String tag = parts[0].toLowerCase(Locale.ROOT);
                if (tag.equals("@data")) {
                    data = true;
                } else {
                    declared = headerTag(tag, parts, file, lineNo, rows, declared);
                }
                continue;
            }
            int colon = line.lastIndexOf(':');
            if (colon < 0) {
                throw new DataFormatException(
                        file, lineNo, "the class label is missing (expected 'v1,v2,...,vd:label')");
            }
            if (line.indexOf('(') >= 0) {
                throw new DataFormatException(
                        file, lineNo, "timestamped values '(t,v)' are not supported; give plain values");
            }
            String label = line.substring(colon + 1).strip();
            if (declared != null && !label.isEmpty() && !Values.isMissingToken(label) && !declared.contains(label)) {
                throw new DataFormatException(
                        file, lineNo, "label '" + label + "' is not declared in @classLabel " + declared);
            }
            List<double[]> channels = new ArrayList<>(4);
            int pos = 0;
            boolean multi = line.indexOf(':') < colon;
            while (pos <= colon) {
                int end = line.indexOf(':', pos);
                channel[0] = multi ? channels.size() : -1;
                int n = 0;
                while (pos <= end) {
                    int cut = line.indexOf(',', pos);
                    if (cut < 0 || cut > end) {
                        cut = end;
                    }
                    if (n == buf.length) {
                        buf = Arrays.copyOf(buf, n * 2);
                    }
                    buf[n] = values.parse(line, pos, cut, lineNo, n + 1);
                    n++;
                    pos = cut + 1;
                }
                channels.add(Arrays.copyOf(buf, n));
            }
            rows.add(channels.toArray(new double[0][]), label, lineNo);
        }
        if (!data) {
            throw new DataFormatException(file, 0, "no @data line: not a .ts file or the header is incomplete");
        }
    }

    /**
     * One header tag other than {@code @data}: checks what Vigil cannot read (timestamps, regression targets, files
     * without labels) and passes declared sizes to {@code rows}.
     *
     * @return the labels {@code @classLabel} declares, or {@code declared} for any other tag
     */
    private static Set<String> headerTag(
            String tag, String[] parts, Path file, long lineNo, Rows rows, Set<String> declared)
            throws DataFormatException {
        String rest = parts.length > 1 ? parts[1].strip() : "";
        String restLower = rest.toLowerCase(Locale.ROOT);
        switch (tag) {
            case "@timestamps" -> {
                if (restLower.startsWith("true")) {
                    throw new DataFormatException(
                            file, lineNo, "timestamped series are not supported (@timeStamps true)");
                }
            }
            case "@univariate", "@equallength" -> {
                // Informational: the data lines say how many channels and values each series has.
            }
            case "@dimension", "@dimensions" -> {
                try {
                    rows.expectChannels(Integer.parseInt(rest), parts[0] + " " + rest, lineNo);
                } catch (NumberFormatException e) {
                    throw new DataFormatException(file, lineNo, parts[0] + " '" + rest + "' is not an integer");
                }
            }
            case "@serieslength" -> {
                try {
                    int d = Integer.parseInt(rest);
                    rows.expectLength(d, "@seriesLength declares " + d, lineNo);
                } catch (NumberFormatException e) {
                    throw new DataFormatException(file, lineNo, "@seriesLength '" + rest + "' is not an integer");
                }
            }
            case "@classlabel" -> {
                String[] words = rest.split("\\s+");
                if (!words[0].equalsIgnoreCase("true")) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "the file has no class labels (@classLabel " + rest
                                    + "); a labelled classification file is required");
                }
                return new HashSet<>(Arrays.asList(words).subList(1, words.length));
            }
            case "@targetlabel" -> {
                if (restLower.startsWith("true")) {
                    throw new DataFormatException(
                            file,
                            lineNo,
                            "regression targets (@targetLabel true) are not supported; class labels" + " are required");
                }
            }
            default -> {
                // @problemName, @missing and tags of later format versions carry nothing we need.
            }
        }
        return declared;
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
