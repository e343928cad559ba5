package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.cli.VigilCli;
import io.vigil.early.EarlyFixtures;
import io.vigil.model.json.ModelFile;
import io.vigil.model.json.ModelFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric field of a model file is validated on load, naming the field: NaN/±∞ in the binary arrays (LDG
 * basis, eigenvalues, training points, complete-series mean and factor), in JSON lists (priors), and values out
 * of range (γ, neighbour counts). Before, such files loaded: {@code classify} with a NaN basis printed an accuracy
 * and {@code run}/{@code evaluate} decided every series. {@code inspect}, documented as validation, rejects them.
 */
class ModelValuesValidationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A model with every section (complete-series Gaussians and calibration) from the early-decision fixtures. */
    private static final byte[] FULL = ModelFile.standard().toBytes(EarlyFixtures.CBF_MODEL);

    @TempDir
    Path dir;

    static Stream<Arguments> poisoned() {
        return Stream.of(
                Arguments.of("NaN in ldg.basis", edit(r -> poison(obj(r, "ldg"), "basis", 7, Double.NaN)), "ldg.basis"),
                Arguments.of(
                        "+Inf in ldg.eigenvalues",
                        edit(r -> poison(obj(r, "ldg"), "eigenvalues", 0, Double.POSITIVE_INFINITY)),
                        "ldg.eigenvalues"),
                Arguments.of(
                        "NaN in training_points",
                        edit(r -> poison(obj(r, "training_points"), "points", 3, Double.NaN)),
                        "training_points.points"),
                Arguments.of(
                        "-Inf in a complete-series mean",
                        edit(r -> poison(
                                obj(obj(obj(obj(r, "sections"), "complete_series"), "payload"), "joint"),
                                "mean",
                                0,
                                Double.NEGATIVE_INFINITY)),
                        "mean"),
                Arguments.of(
                        "NaN in the complete-series factor",
                        edit(r -> {
                            ObjectNode joint = obj(obj(obj(obj(r, "sections"), "complete_series"), "payload"), "joint");
                            poison(joint, joint.has("factor") ? "factor" : "strict_lower", 0, Double.NaN);
                        }),
                        "complete_series"),
                Arguments.of(
                        "a prior that is not a number",
                        edit(r -> ((ArrayNode) obj(r, "local_qda").get("priors")).set(0, Double.NaN)),
                        "local_qda.priors"),
                Arguments.of("gamma = 5", edit(r -> obj(r, "ldg").put("gamma", 5.0)), "ldg.gamma"),
                Arguments.of(
                        "local_qda.neighbors = 1e6",
                        edit(r -> obj(r, "local_qda").put("neighbors", 1_000_000)),
                        "local_qda.neighbors"),
                Arguments.of(
                        "ldg.neighbors = 1e6", edit(r -> obj(r, "ldg").put("neighbors", 1_000_000)), "ldg.neighbors"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poisoned")
    void loadingRejectsTheValueNamingTheField(String what, byte[] file, String field) {
        ModelFormatException e = assertThrows(
                ModelFormatException.class, () -> ModelFile.standard().read(file, "edited.json"));
        assertTrue(e.getMessage().startsWith("model edited.json: "), e.getMessage());
        assertTrue(e.getMessage().contains(field), () -> "'" + field + "' named in: " + e.getMessage());
    }

    @Test
    void inspectAndRunRejectANanBasisWithExitOneAndOneLine() throws IOException {
        Path model = dir.resolve("nan-basis.model.json");
        Files.write(model, edit(r -> poison(obj(r, "ldg"), "basis", 0, Double.NaN)));
        String[][] commands = {
            {"inspect", model.toString()},
            {
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                "127.0.0.1:9",
                "--input",
                "a",
                "--output",
                "b",
                "--dead-letter",
                "c",
                "--bounded"
            }
        };
        for (String[] args : commands) {
            StringWriter err = new StringWriter();
            int code = VigilCli.commandLine()
                    .setOut(new PrintWriter(new StringWriter()))
                    .setErr(new PrintWriter(err, true))
                    .execute(args);
            assertEquals(1, code, args[0] + ": " + err);
            assertEquals(1, err.toString().strip().lines().count(), err.toString());
            assertTrue(err.toString().contains("ldg.basis[0] is NaN"), err.toString());
        }
    }

    private static byte[] edit(Consumer<ObjectNode> change) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(FULL);
            change.accept(root);
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode obj(JsonNode n, String field) {
        return (ObjectNode) n.get(field);
    }

    /** Sets element {@code index} of the f64le-base64 array {@code field} of {@code parent} to {@code value}. */
    private static void poison(ObjectNode parent, String field, int index, double value) {
        ObjectNode array = obj(parent, field);
        byte[] raw = Base64.getDecoder().decode(array.get("data").asText());
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putDouble(8 * index, value);
        array.put("data", Base64.getEncoder().encodeToString(raw));
    }
}
