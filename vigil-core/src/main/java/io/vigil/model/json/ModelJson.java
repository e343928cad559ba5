package io.vigil.model.json;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import org.ejml.data.DMatrixRMaj;

/**
 * JSON helpers shared by {@link ModelFile} and section codecs: exact, compact encodings of real arrays
 * ({@code {"rows":r,"cols":c,"encoding":"f64le-base64","data":"…"}}, row-major IEEE-754 binary64
 * little-endian bytes in standard Base64 — bit-exact, about 11 characters per value) and strict field
 * readers whose {@link IllegalArgumentException} messages name the field path.
 *
 * <p><b>Large arrays.</b> A low-rank complete-series factor at d = 20,000, n = 300 is 48 MB of doubles, 64 MB of
 * Base64 — beyond Jackson's 20 M-character limit on one string ({@code StreamReadConstraints}), and wasteful as a
 * string anyway. {@link #readTree} therefore builds the tree itself and decodes every {@code data} string of an
 * {@code f64le-base64} object straight from the input into bytes with {@link JsonParser#readBinaryValue}, which
 * streams the Base64 without materialising it (the limit stays in force for every other string). The encoders put
 * the bytes into a {@link BinaryNode}, which Jackson's generator encodes while writing; the output is the same text
 * as before (standard alphabet with padding, no line feeds), so model files stay byte-identical.
 */
public final class ModelJson {
    /** The encoding name of row-major little-endian IEEE-754 binary64 values in Base64. */
    static final String F64LE_BASE64 = "f64le-base64";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ModelJson() {}

    /** Encodes a row-major r×c array. */
    public static ObjectNode matrix(double[] rowMajor, int rows, int cols) {
        if ((long) rows * cols != rowMajor.length) {
            throw new IllegalArgumentException(
                    "matrix of " + rows + "×" + cols + " cannot hold " + rowMajor.length + " values");
        }
        ObjectNode n = NODES.objectNode();
        n.put("rows", rows);
        n.put("cols", cols);
        n.put("encoding", F64LE_BASE64);
        n.set("data", NODES.binaryNode(encode(rowMajor)));
        return n;
    }

    /** Encodes an EJML matrix. */
    public static ObjectNode matrix(DMatrixRMaj m) {
        double[] data =
                m.getData().length == m.getNumElements() ? m.getData() : Arrays.copyOf(m.getData(), m.getNumElements());
        return matrix(data, m.numRows, m.numCols);
    }

    /** Encodes rows of equal length (an n×0 array is allowed only with cols given by the caller). */
    public static ObjectNode matrix(double[][] rows, int cols) {
        double[] flat = new double[rows.length * cols];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != cols) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values, expected " + cols);
            }
            System.arraycopy(rows[i], 0, flat, i * cols, cols);
        }
        return matrix(flat, rows.length, cols);
    }

    /** Encodes a vector as {@code {"length":n,"encoding":…,"data":…}}. */
    public static ObjectNode vector(double[] v) {
        ObjectNode n = NODES.objectNode();
        n.put("length", v.length);
        n.put("encoding", F64LE_BASE64);
        n.set("data", NODES.binaryNode(encode(v)));
        return n;
    }

    /** Decodes a matrix written by {@link #matrix(double[], int, int)}, row-major. */
    static double[] readMatrixData(JsonNode node, String path, int[] shapeOut) {
        requireObject(node, path);
        checkFields(node, path, Set.of("rows", "cols", "encoding", "data"));
        int rows = intField(node, "rows", path);
        int cols = intField(node, "cols", path);
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException(path + " has negative size " + rows + "×" + cols);
        }
        double[] data = decode(node, path, (long) rows * cols, rows + "×" + cols);
        shapeOut[0] = rows;
        shapeOut[1] = cols;
        return data;
    }

    /** Decodes a matrix into an EJML matrix. */
    static DMatrixRMaj readDMatrix(JsonNode node, String path) {
        int[] shape = new int[2];
        double[] data = readMatrixData(node, path, shape);
        return new DMatrixRMaj(shape[0], shape[1], true, data);
    }

    /** Decodes a matrix into rows. */
    static double[][] readRows(JsonNode node, String path) {
        int[] shape = new int[2];
        double[] data = readMatrixData(node, path, shape);
        double[][] rows = new double[shape[0]][shape[1]];
        for (int i = 0; i < shape[0]; i++) {
            System.arraycopy(data, i * shape[1], rows[i], 0, shape[1]);
        }
        return rows;
    }

    /** Decodes a vector written by {@link #vector}. */
    public static double[] readVector(JsonNode node, String path) {
        requireObject(node, path);
        checkFields(node, path, Set.of("length", "encoding", "data"));
        int length = intField(node, "length", path);
        if (length < 0) {
            throw new IllegalArgumentException(path + ".length is negative: " + length);
        }
        return decode(node, path, length, Integer.toString(length));
    }

    /**
     * Parses one JSON document into a tree like {@link ObjectMapper#readTree(byte[])} (same node types, the
     * mapper's parser features, trailing tokens rejected), except that the {@code data} member of an object whose
     * earlier {@code encoding} member is {@value #F64LE_BASE64} becomes a {@link BinaryNode} decoded straight from
     * the input (see the class comment), so arrays of any size load.
     *
     * @throws IOException when the input is not one valid JSON value; a malformed Base64 {@code data} string is
     *     reported with its field path
     */
    public static JsonNode readTree(ObjectMapper mapper, byte[] bytes) throws IOException {
        try (JsonParser p = mapper.createParser(bytes)) {
            if (p.nextToken() == null) {
                throw new JsonParseException(p, "no JSON content");
            }
            JsonNode root = build(p, mapper.getNodeFactory(), "");
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "trailing content after the JSON value: " + p.currentToken());
            }
            return root;
        }
    }

    /** The tree for the value at the parser's current token (depth is bounded by the parser's constraints). */
    private static JsonNode build(JsonParser p, JsonNodeFactory f, String path) throws IOException {
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                ObjectNode o = f.objectNode();
                boolean binary = false;
                long declared = -1;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken v = p.nextToken();
                    String childPath = join(path, name);
                    if (binary && v == JsonToken.VALUE_STRING && name.equals("data")) {
                        o.set(name, f.binaryNode(readBase64(p, declared, childPath)));
                        continue;
                    }
                    JsonNode child = build(p, f, childPath);
                    o.set(name, child);
                    if (name.equals("encoding")) {
                        binary = F64LE_BASE64.equals(child.textValue());
                    } else if ((name.equals("length") || name.equals("rows") || name.equals("cols"))
                            && child.canConvertToLong()) {
                        declared = declaredBytes(o);
                    }
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = f.arrayNode();
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(build(p, f, path + "[" + i++ + "]"));
                }
                return a;
            }
            case VALUE_STRING:
                return f.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return f.numberNode(p.getIntValue());
                    case LONG:
                        return f.numberNode(p.getLongValue());
                    default:
                        return f.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return f.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return f.booleanNode(true);
            case VALUE_FALSE:
                return f.booleanNode(false);
            case VALUE_NULL:
                return f.nullNode();
            default:
                throw new JsonParseException(
                        p, "unexpected token " + token + " at " + (path.isEmpty() ? "the top" : path));
        }
    }

    /** 8·length or 8·rows·cols from the members seen so far, or −1 when not (yet) known. */
    private static long declaredBytes(ObjectNode o) {
        JsonNode length = o.get("length");
        if (length != null && length.canConvertToLong()) {
            return Double.BYTES * length.longValue();
        }
        JsonNode rows = o.get("rows");
        JsonNode cols = o.get("cols");
        if (rows != null && cols != null && rows.canConvertToLong() && cols.canConvertToLong()) {
            return Double.BYTES * rows.longValue() * cols.longValue();
        }
        return -1;
    }

    /** Decodes the current Base64 string into bytes, into a buffer of the declared size when one is known. */
    private static byte[] readBase64(JsonParser p, long declared, String path) throws IOException {
        ExactSizeOutput out =
                new ExactSizeOutput(declared >= 0 && declared <= Integer.MAX_VALUE - 8 ? (int) declared : -1);
        try {
            p.readBinaryValue(Base64Variants.MIME_NO_LINEFEEDS, out);
        } catch (JsonParseException e) {
            throw new JsonParseException(p, path + " is not valid Base64: " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new JsonParseException(p, path + " is not valid Base64: " + e.getMessage(), e);
        }
        return out.bytes();
    }

    /**
     * Collects bytes into an array of the expected size without the doubling and final copy of a {@link
     * java.io.ByteArrayOutputStream} (a 48 MB factor would otherwise need 150 MB transiently); grows like it when
     * the size is unknown or the input disagrees with it (the caller reports the mismatch).
     */
    private static final class ExactSizeOutput extends OutputStream {
        private byte[] buf;
        private int count;

        ExactSizeOutput(int expected) {
            buf = new byte[expected >= 0 ? expected : 1 << 12];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void ensure(int extra) {
            if (count + extra > buf.length) {
                long grown = Math.max((long) count + extra, 2L * buf.length);
                buf = Arrays.copyOf(buf, (int) Math.min(grown, Integer.MAX_VALUE - 8));
            }
        }

        byte[] bytes() {
            return count == buf.length ? buf : Arrays.copyOf(buf, count);
        }
    }

    /** The number of bytes {@code writer} produces for {@code node}, counted without materialising them. */
    static long serializedSize(ObjectWriter writer, JsonNode node) {
        long[] count = {0};
        OutputStream counter = new OutputStream() {
            @Override
            public void write(int b) {
                count[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                count[0] += len;
            }
        };
        try {
            writer.writeValue(counter, node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
        return count[0];
    }

    /** The required member {@code name} of object {@code node}. */
    public static JsonNode field(JsonNode node, String name, String path) {
        JsonNode v = node.get(name);
        if (v == null || v.isMissingNode()) {
            throw new IllegalArgumentException(join(path, name) + " is missing");
        }
        return v;
    }

    /** A required integer member. */
    static int intField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException(join(path, name) + " must be an integer, got " + v);
        }
        return v.intValue();
    }

    /** A required long member. */
    static long longField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException(join(path, name) + " must be an integer, got " + v);
        }
        return v.longValue();
    }

    /** A required real member; JSON {@code null} reads as NaN (JSON has no NaN). */
    static double doubleField(JsonNode node, String name, String path) {
        return toDouble(field(node, name, path), join(path, name));
    }

    /** A required string member. */
    static String textField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isTextual()) {
            throw new IllegalArgumentException(join(path, name) + " must be a string, got " + v);
        }
        return v.textValue();
    }

    /** A required boolean member. */
    public static boolean booleanField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(join(path, name) + " must be true or false, got " + v);
        }
        return v.booleanValue();
    }

    /** A required array of integers. */
    static int[] intArray(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        String p = join(path, name);
        if (!v.isArray()) {
            throw new IllegalArgumentException(p + " must be an array, got " + v.getNodeType());
        }
        int[] out = new int[v.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode e = v.get(i);
            if (!e.isIntegralNumber() || !e.canConvertToInt()) {
                throw new IllegalArgumentException(p + "[" + i + "] must be an integer, got " + e);
            }
            out[i] = e.intValue();
        }
        return out;
    }

    /** A required array of reals ({@code null} entries read as NaN). */
    static double[] doubleArray(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        String p = join(path, name);
        if (!v.isArray()) {
            throw new IllegalArgumentException(p + " must be an array, got " + v.getNodeType());
        }
        double[] out = new double[v.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = toDouble(v.get(i), p + "[" + i + "]");
        }
        return out;
    }

    /** Writes a real, NaN as JSON {@code null}. */
    public static void putDouble(ObjectNode node, String name, double value) {
        if (Double.isNaN(value)) {
            node.putNull(name);
        } else {
            node.put(name, value);
        }
    }

    /** Rejects members other than {@code allowed}, naming the first unknown one. */
    static void checkFields(JsonNode node, String path, Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException(
                        "unknown field " + join(path, name) + " (known: " + new TreeSet<>(allowed) + ")");
            }
        }
    }

    /** Requires {@code node} to be a JSON object. */
    static void requireObject(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException((path.isEmpty() ? "the model" : path) + " must be a JSON object, got "
                    + (node == null ? "nothing" : node.getNodeType()));
        }
    }

    /** {@code path.name}, or {@code name} at the top level. */
    public static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static double toDouble(JsonNode v, String path) {
        if (v.isNull()) {
            return Double.NaN;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException(path + " must be a number, got " + v);
        }
        return v.doubleValue();
    }

    private static byte[] encode(double[] values) {
        if ((long) values.length * Double.BYTES > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(values.length + " values exceed one encodable array");
        }
        ByteBuffer buf = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asDoubleBuffer().put(values);
        return buf.array();
    }

    private static double[] decode(JsonNode node, String path, long count, String shape) {
        String encoding = textField(node, "encoding", path);
        if (!encoding.equals(F64LE_BASE64)) {
            throw new IllegalArgumentException(
                    join(path, "encoding") + " is '" + encoding + "'; this Vigil reads '" + F64LE_BASE64 + "'");
        }
        byte[] bytes;
        JsonNode data = field(node, "data", path);
        if (data.isBinary()) {
            try {
                bytes = data.binaryValue();
            } catch (IOException e) {
                throw new IllegalStateException("a binary node without bytes", e);
            }
        } else {
            try {
                bytes = Base64.getDecoder().decode(textField(node, "data", path));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(join(path, "data") + " is not valid Base64: " + e.getMessage(), e);
            }
        }
        if (bytes.length % Double.BYTES != 0) {
            throw new IllegalArgumentException(
                    join(path, "data") + " holds " + bytes.length + " bytes, not a whole number of 8-byte values");
        }
        if (bytes.length / Double.BYTES != count) {
            throw new IllegalArgumentException(join(path, "data") + " holds " + bytes.length / Double.BYTES
                    + " values but the declared size " + shape + " needs " + count);
        }
        double[] out = new double[(int) count];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }
}
