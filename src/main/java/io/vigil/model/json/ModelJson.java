package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 */
public final class ModelJson {
    /** The encoding name of row-major little-endian IEEE-754 binary64 values in Base64. */
    public static final String F64LE_BASE64 = "f64le-base64";

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
        n.put("data", encode(rowMajor));
        return n;
    }

    /** Encodes an EJML matrix. */
    public static ObjectNode matrix(DMatrixRMaj m) {
        return matrix(Arrays.copyOf(m.getData(), m.getNumElements()), m.numRows, m.numCols);
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
        n.put("data", encode(v));
        return n;
    }

    /** Decodes a matrix written by {@link #matrix(double[], int, int)}, row-major. */
    public static double[] readMatrixData(JsonNode node, String path, int[] shapeOut) {
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
    public static DMatrixRMaj readDMatrix(JsonNode node, String path) {
        int[] shape = new int[2];
        double[] data = readMatrixData(node, path, shape);
        return new DMatrixRMaj(shape[0], shape[1], true, data);
    }

    /** Decodes a matrix into rows. */
    public static double[][] readRows(JsonNode node, String path) {
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

    /** The required member {@code name} of object {@code node}. */
    public static JsonNode field(JsonNode node, String name, String path) {
        JsonNode v = node.get(name);
        if (v == null || v.isMissingNode()) {
            throw new IllegalArgumentException(join(path, name) + " is missing");
        }
        return v;
    }

    /** A required integer member. */
    public static int intField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException(join(path, name) + " must be an integer, got " + v);
        }
        return v.intValue();
    }

    /** A required long member. */
    public static long longField(JsonNode node, String name, String path) {
        JsonNode v = field(node, name, path);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException(join(path, name) + " must be an integer, got " + v);
        }
        return v.longValue();
    }

    /** A required real member; JSON {@code null} reads as NaN (JSON has no NaN). */
    public static double doubleField(JsonNode node, String name, String path) {
        return toDouble(field(node, name, path), join(path, name));
    }

    /** A required string member. */
    public static String textField(JsonNode node, String name, String path) {
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
    public static int[] intArray(JsonNode node, String name, String path) {
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
    public static double[] doubleArray(JsonNode node, String name, String path) {
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
    public static void checkFields(JsonNode node, String path, Set<String> allowed) {
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
    public static void requireObject(JsonNode node, String path) {
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

    private static String encode(double[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            buf.putDouble(v);
        }
        return Base64.getEncoder().encodeToString(buf.array());
    }

    private static double[] decode(JsonNode node, String path, long count, String shape) {
        String encoding = textField(node, "encoding", path);
        if (!encoding.equals(F64LE_BASE64)) {
            throw new IllegalArgumentException(
                    join(path, "encoding") + " is '" + encoding + "'; this Vigil reads '" + F64LE_BASE64 + "'");
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(textField(node, "data", path));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(join(path, "data") + " is not valid Base64: " + e.getMessage(), e);
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
