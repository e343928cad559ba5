package io.vigil.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Weka ARFF with numeric attributes and one nominal class attribute (the last attribute, or the only
 * nominal one): {@code @relation}, {@code @attribute name numeric|real|integer|{a,b,...}}, {@code @data},
 * dense comma-separated rows, {@code %} comments, {@code ?} for a missing value, names and nominal values
 * optionally quoted. String, date, relational (multivariate) attributes and sparse rows are rejected.
 */
final class ArffParser {
    private ArffParser() {}

    private record Attribute(String name, Set<String> nominal) {}

    static void read(BufferedReader in, Path file, ReadOptions options, Rows rows) throws IOException {
        List<Attribute> attributes = new ArrayList<>();
        int classIndex = -1;
        Values values = null;
        double[] row = null;
        String line;
        long lineNo = 0;
        List<String> fields = new ArrayList<>();
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (lineNo == 1) {
                line = DatasetReader.stripBom(line);
            }
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("%")) {
                continue;
            }
            if (values == null) {
                String lower = s.toLowerCase(Locale.ROOT);
                if (lower.startsWith("@relation")) {
                    continue;
                }
                if (lower.startsWith("@attribute")) {
                    attributes.add(attribute(
                            file, lineNo, s.substring("@attribute".length()).strip()));
                    continue;
                }
                if (lower.startsWith("@data")) {
                    classIndex = classAttribute(file, lineNo, attributes);
                    final List<Attribute> attrs = attributes;
                    values = new Values(
                            file,
                            options.interpolateMissing(),
                            c -> "attribute " + c + " '" + attrs.get(c - 1).name() + "'");
                    row = new double[attributes.size() - 1];
                    continue;
                }
                throw new DataFormatException(
                        file,
                        lineNo,
                        "expected @relation, @attribute or @data, found '" + TsParser.abbreviate(s) + "'");
            }
            if (s.startsWith("{")) {
                throw new DataFormatException(
                        file, lineNo, "sparse ARFF rows ('{index value, ...}') are not supported");
            }
            split(file, lineNo, line, fields);
            if (fields.size() != attributes.size()) {
                throw new DataFormatException(
                        file,
                        lineNo,
                        "line " + lineNo + " has " + fields.size() + " fields, the header declares " + attributes.size()
                                + " attributes");
            }
            int t = 0;
            for (int a = 0; a < fields.size(); a++) {
                if (a == classIndex) {
                    continue;
                }
                String f = fields.get(a);
                row[t++] = values.parse(f, 0, f.length(), lineNo, a + 1);
            }
            String label = fields.get(classIndex);
            Set<String> declared = attributes.get(classIndex).nominal();
            if (!Values.isMissingToken(label) && !label.isEmpty() && !declared.contains(label)) {
                throw new DataFormatException(
                        file,
                        lineNo,
                        "label '" + label + "' is not among the values " + declared + " declared for the class"
                                + " attribute '" + attributes.get(classIndex).name() + "'");
            }
            rows.add(row.clone(), label, lineNo);
        }
        if (values == null) {
            throw new DataFormatException(file, 0, "no @data line: not an ARFF file or the header is incomplete");
        }
    }

    private static Attribute attribute(Path file, long lineNo, String spec) throws DataFormatException {
        if (spec.isEmpty()) {
            throw new DataFormatException(file, lineNo, "@attribute without a name");
        }
        String name;
        String type;
        char q = spec.charAt(0);
        if (q == '\'' || q == '"') {
            int close = spec.indexOf(q, 1);
            if (close < 0) {
                throw new DataFormatException(file, lineNo, "unterminated quoted attribute name");
            }
            name = spec.substring(1, close);
            type = spec.substring(close + 1).strip();
        } else {
            int end = 0;
            while (end < spec.length() && !Character.isWhitespace(spec.charAt(end)) && spec.charAt(end) != '{') {
                end++;
            }
            name = spec.substring(0, end);
            type = spec.substring(end).strip();
        }
        if (type.startsWith("{")) {
            int close = type.lastIndexOf('}');
            if (close < 0) {
                throw new DataFormatException(file, lineNo, "nominal attribute '" + name + "' has no closing '}'");
            }
            List<String> vals = new ArrayList<>();
            split(file, lineNo, type.substring(1, close), vals);
            return new Attribute(name, new LinkedHashSet<>(vals));
        }
        String t = type.toLowerCase(Locale.ROOT);
        if (t.equals("numeric") || t.equals("real") || t.equals("integer")) {
            return new Attribute(name, null);
        }
        if (t.startsWith("relational")) {
            throw new DataFormatException(
                    file,
                    lineNo,
                    "attribute '" + name + "' is relational (multivariate data); only univariate series are"
                            + " supported");
        }
        throw new DataFormatException(
                file,
                lineNo,
                "attribute '" + name + "' has type '" + type + "'; only numeric attributes and one nominal"
                        + " class attribute are supported");
    }

    private static int classAttribute(Path file, long lineNo, List<Attribute> attributes) throws DataFormatException {
        List<Integer> nominal = new ArrayList<>();
        for (int a = 0; a < attributes.size(); a++) {
            if (attributes.get(a).nominal() != null) {
                nominal.add(a);
            }
        }
        if (nominal.isEmpty()) {
            throw new DataFormatException(
                    file,
                    lineNo,
                    "no nominal class attribute among the " + attributes.size() + " attributes: the label"
                            + " column is missing");
        }
        if (nominal.size() > 1) {
            List<String> names = new ArrayList<>();
            nominal.forEach(a -> names.add(attributes.get(a).name()));
            throw new DataFormatException(
                    file, lineNo, "several nominal attributes " + names + "; exactly one (the class) is supported");
        }
        if (attributes.size() < 2) {
            throw new DataFormatException(file, lineNo, "no numeric attributes: the series has no values");
        }
        return nominal.get(0);
    }

    /** Splits comma-separated fields, honouring single and double quotes (with backslash escapes). */
    private static void split(Path file, long lineNo, String text, List<String> out) throws DataFormatException {
        out.clear();
        int n = text.length();
        int pos = 0;
        while (true) {
            while (pos < n && Values.isBlank(text.charAt(pos))) {
                pos++;
            }
            if (pos < n && (text.charAt(pos) == '\'' || text.charAt(pos) == '"')) {
                char q = text.charAt(pos);
                StringBuilder sb = new StringBuilder();
                int k = pos + 1;
                while (k < n && text.charAt(k) != q) {
                    if (text.charAt(k) == '\\' && k + 1 < n) {
                        k++;
                    }
                    sb.append(text.charAt(k));
                    k++;
                }
                if (k >= n) {
                    throw new DataFormatException(file, lineNo, "unterminated quoted value");
                }
                out.add(sb.toString());
                pos = k + 1;
                while (pos < n && Values.isBlank(text.charAt(pos))) {
                    pos++;
                }
                if (pos < n && text.charAt(pos) != ',') {
                    throw new DataFormatException(file, lineNo, "unexpected text after a quoted value");
                }
            } else {
                int cut = text.indexOf(',', pos);
                if (cut < 0) {
                    cut = n;
                }
                out.add(text.substring(pos, cut).strip());
                pos = cut;
            }
            if (pos >= n) {
                return;
            }
            pos++;
        }
    }
}
