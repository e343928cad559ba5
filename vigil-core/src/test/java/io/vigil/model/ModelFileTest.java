package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.classify.qda.LocalQda;
import io.vigil.model.json.ModelFile;
import io.vigil.model.json.ModelFormatException;
import io.vigil.model.json.ModelJson;
import io.vigil.model.json.SectionCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ModelFileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void roundTripKeepsEveryFieldAndPrediction(boolean standardize) throws IOException {
        VigilModel model = TestModels.small(standardize);
        Path file = dir.resolve("m.json");
        ModelFile.standard().save(model, file);
        VigilModel loaded = ModelFile.standard().load(file);

        assertEquals(model, loaded);
        assertEquals(model.standardizer().isPresent(), loaded.standardizer().isPresent());
        if (standardize) {
            assertArrayEquals(
                    model.standardizer().get().means(),
                    loaded.standardizer().get().means(),
                    0);
            assertArrayEquals(
                    model.standardizer().get().scales(),
                    loaded.standardizer().get().scales(),
                    0);
        }
        assertArrayEquals(model.eigenvalues(), loaded.eigenvalues(), 0);
        assertArrayEquals(model.basis().data, loaded.basis().data, 0);
        assertEquals(model.selection(), loaded.selection());
        assertEquals(model.created(), loaded.created());

        SplittableRandom rnd = new SplittableRandom(11);
        double[] y1 = new double[model.dims()];
        double[] y2 = new double[model.dims()];
        LocalQda.Workspace w1 = model.localQda().newWorkspace();
        LocalQda.Workspace w2 = loaded.localQda().newWorkspace();
        for (int trial = 0; trial < 50; trial++) {
            double[] x = new double[model.length()];
            for (int t = 0; t < x.length; t++) {
                x[t] = rnd.nextGaussian() * 3;
            }
            model.project(x, y1);
            loaded.project(x, y2);
            assertArrayEquals(y1, y2, 0);
            assertEquals(model.localQda().predict(y1, w1), loaded.localQda().predict(y2, w2));
        }
        byte[] again = ModelFile.standard().toBytes(loaded);
        assertArrayEquals(Files.readAllBytes(file), again, "re-saving a loaded model must give the same bytes");
    }

    @Test
    void fileIsReadableJsonWithFormatFirstAndExactMatrices() throws IOException {
        String text = new String(ModelFile.standard().toBytes(TestModels.small(true)), StandardCharsets.UTF_8);
        assertTrue(text.startsWith("{\n  \"format\": \"vigil-model\",\n  \"format_version\": 1,\n"), text);
        assertTrue(text.endsWith("}\n"));
        JsonNode basis = JSON.readTree(text).path("ldg").path("basis");
        assertEquals(5, basis.path("rows").intValue());
        assertEquals(2, basis.path("cols").intValue());
        assertEquals("f64le-base64", basis.path("encoding").textValue());
        // 1e-300 in the eigenvalues survives exactly (a decimal writer could round it).
        assertEquals(
                1e-300,
                ModelFile.standard()
                        .read(text.getBytes(StandardCharsets.UTF_8), "t")
                        .eigenvalues()[3]);
    }

    @Test
    void newerFormatVersionIsRejectedClearly() {
        ModelFormatException e =
                assertThrows(ModelFormatException.class, () -> mutated(root -> root.put("format_version", 7)));
        assertTrue(
                e.getMessage().contains("model format version 7 is newer than this Vigil supports (1)"),
                e.getMessage());
        ModelFormatException zero =
                assertThrows(ModelFormatException.class, () -> mutated(root -> root.put("format_version", 0)));
        assertTrue(zero.getMessage().contains("format version 0"), zero.getMessage());
    }

    @Test
    void otherFilesAreRejectedClearly() {
        assertMessage(root -> root.put("format", "tribuo"), "not a Vigil model file");
        assertMessage(root -> root.remove("format_version"), "format_version is missing");
        assertMessage(root -> root.put("extra", 1), "unknown field extra");
        assertMessage(root -> root.remove("ldg"), "ldg is missing");
        assertMessage(root -> ((ObjectNode) root.get("ldg")).remove("gamma"), "ldg.gamma is missing");
        assertMessage(root -> root.put("created", "yesterday"), "created is not an ISO-8601");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.standard()
                .read("{\"format\" 1}".getBytes(StandardCharsets.UTF_8), "x.json"));
        assertTrue(e.getMessage().startsWith("model x.json: not valid JSON at line 1"), e.getMessage());
        assertFalse(e.getMessage().contains("REDACTED"), e.getMessage());
    }

    /** A file cut short anywhere (in a field name, a number, the Base64 of a matrix) says "truncated", once. */
    @Test
    void aTruncatedFileSaysTruncatedOnce() {
        byte[] full = ModelFile.standard().toBytes(TestModels.small(true));
        for (int cut : new int[] {9, full.length / 3, full.length / 2, full.length - 3}) {
            byte[] part = java.util.Arrays.copyOf(full, cut);
            ModelFormatException e = assertThrows(
                    ModelFormatException.class, () -> ModelFile.standard().read(part, "m.json"));
            String m = e.getMessage();
            assertTrue(m.startsWith("model m.json: the file is truncated: it ends after " + cut + " bytes"), m);
            assertEquals(m.indexOf("truncated"), m.lastIndexOf("truncated"), m);
            assertFalse(m.contains("REDACTED") || m.contains("Source:") || m.contains("end-of-input"), m);
        }
    }

    @Test
    void everyDimensionMismatchIsRejectedNamingTheField() {
        assertMessage(root -> obj(root, "dataset").put("length", 6), "ldg.basis has 5 rows but dataset.length is 6");
        assertMessage(root -> obj(root, "ldg").put("dims", 1), "ldg.basis has 2 columns but ldg.dims is 1");
        assertMessage(
                root -> obj(root, "dataset").put("train_size", 10),
                "training_points.points has 9 rows but dataset.train_size is 10");
        assertMessage(
                root -> obj(root, "training_points").set("points", ModelJson.matrix(new double[27], 9, 3)),
                "training_points.points row 0 has 3 columns but ldg.dims is 2");
        assertMessage(
                root -> ((ArrayNode) obj(root, "training_points").get("classes")).remove(0),
                "training_points.classes has 8 entries but dataset.train_size is 9");
        assertMessage(
                root -> ((ArrayNode) obj(root, "local_qda").get("priors")).add(0.0),
                "local_qda.priors has 4 entries but dataset.classes is 3");
        assertMessage(
                root -> ((ArrayNode) obj(root, "dataset").get("classes")).add("d"),
                "dataset.class_counts has 3 entries but dataset.classes is 4");
        assertMessage(
                root -> obj(root, "preprocessing").set("means", ModelJson.vector(new double[4])),
                "preprocessing.means has 4 values but preprocessing.scales has 5");
        assertMessage(
                root -> {
                    obj(root, "preprocessing").set("means", ModelJson.vector(new double[4]));
                    obj(root, "preprocessing").set("scales", ModelJson.vector(new double[] {1, 1, 1, 1}));
                },
                "preprocessing.means has 4 values but dataset.length is 5");
        assertMessage(
                root -> obj(root, "ldg").set("eigenvalues", ModelJson.vector(new double[1])),
                "ldg.eigenvalues has 1 values but ldg.dims is 2");
        assertMessage(
                root -> ((ArrayNode) obj(root, "training_points").get("classes")).set(0, 3),
                "training_points.classes[0] is 3 but dataset.classes has 3 labels");
        assertMessage(
                root -> obj(obj(root, "ldg"), "basis").put("rows", 4),
                "ldg.basis.data holds 10 values but the declared size 4×2 needs 8");
        assertMessage(
                root -> ((ArrayNode) obj(root, "local_qda").get("priors")).set(0, 0.5), "local_qda.priors[0] is 0.5");
        assertMessage(
                root -> ((ArrayNode) obj(root, "dataset").get("class_counts")).set(0, 4),
                "dataset.class_counts [4, 3, 3] do not match training_points.classes [3, 3, 3]");
        assertMessage(
                root -> obj(obj(obj(root, "selection"), "scores"), "gamma")
                        .putArray("accuracy")
                        .add(0.1),
                "selection.scores.gamma.candidates has 2 values but selection.scores.gamma.accuracy has 1");
    }

    /**
     * save() never writes a file that does not read back as the model: a section whose codec writes what it cannot
     * read stops the save with the target named, and neither the file nor a temporary file is left behind.
     */
    @Test
    void aModelThatCannotBeReadBackIsNeverWritten(@TempDir Path tmp) throws IOException {
        SectionCodec<Note> broken = new NoteCodec() {
            @Override
            public Note read(JsonNode payload, int version, ModelShape shape, String path) {
                throw new IllegalArgumentException(path + ".values: written by a codec that cannot read it");
            }
        };
        ModelFile file = new ModelFile(List.of(broken));
        VigilModel m = TestModels.small(false).toBuilder()
                .section(new Note(false, new double[TestModels.small(false).dims()]))
                .build();
        Path out = tmp.resolve("m.json");
        IOException e = assertThrows(IOException.class, () -> file.save(m, out));
        assertTrue(
                e.getMessage().contains(out.toString()) && e.getMessage().contains("cannot be read back"),
                e.getMessage());
        try (var files = Files.list(tmp)) {
            assertEquals(0, files.count(), "nothing written, no temporary file left");
        }
        Path notAFolder = tmp.resolve("plain-file");
        Files.writeString(notAFolder, "x");
        IOException f = assertThrows(IOException.class, () -> ModelFile.standard()
                .save(TestModels.small(false), notAFolder.resolve("m.json")));
        assertTrue(
                f.getMessage().contains("is a file, not a folder")
                        && !f.getMessage().contains(".tmp"),
                f.getMessage());
    }

    @Test
    void unknownRequiredSectionIsRejectedAndUnknownOptionalSectionSkipped() throws IOException {
        ModelFile extended = new ModelFile(List.of(new NoteCodec()));
        VigilModel base = TestModels.small(false);

        VigilModel withRequired =
                base.toBuilder().section(new Note(true, new double[] {1.5, -2})).build();
        byte[] bytes = extended.toBytes(withRequired);
        ModelFormatException e = assertThrows(
                ModelFormatException.class, () -> ModelFile.standard().read(bytes, "r.json"));
        assertTrue(e.getMessage().contains("requires section 'note'"), e.getMessage());
        VigilModel back = extended.read(bytes, "r.json");
        assertEquals(withRequired, back);
        assertArrayEquals(
                new double[] {1.5, -2}, back.section(Note.class).orElseThrow().values(), 0);
        assertArrayEquals(bytes, extended.toBytes(back));

        VigilModel withOptional =
                base.toBuilder().section(new Note(false, new double[] {3, 4})).build();
        VigilModel skipped = ModelFile.standard().read(extended.toBytes(withOptional), "o.json");
        assertEquals(List.of("note"), skipped.ignoredSections());
        assertTrue(skipped.section(Note.class).isEmpty());
        assertEquals(base, skipped);

        // Old files (no section) still load with the extended reader.
        assertEquals(base, extended.read(ModelFile.standard().toBytes(base), "old.json"));
    }

    @Test
    void sectionDimensionsAreCheckedAndNewerSectionVersionsRejected() throws IOException {
        ModelFile extended = new ModelFile(List.of(new NoteCodec()));
        VigilModel base = TestModels.small(false);
        IllegalArgumentException shape = assertThrows(
                IllegalArgumentException.class,
                () -> base.toBuilder().section(new Note(true, new double[3])).build());
        assertTrue(shape.getMessage().contains("note.values has 3 values but ldg.dims is 2"), shape.getMessage());

        ObjectNode root = (ObjectNode) JSON.readTree(extended.toBytes(
                base.toBuilder().section(new Note(true, new double[2])).build()));
        obj(obj(root, "sections"), "note").put("version", 2);
        ModelFormatException e =
                assertThrows(ModelFormatException.class, () -> extended.read(JSON.writeValueAsBytes(root), "v.json"));
        assertTrue(
                e.getMessage().contains("sections.note has version 2 but this Vigil reads versions 1..1"),
                e.getMessage());
    }

    @Test
    void saveReplacesAtomicallyAndLoadReportsMissingFile() throws IOException {
        Path file = dir.resolve("sub/m.json");
        ModelFile.standard().save(TestModels.small(false), file);
        ModelFile.standard().save(TestModels.small(true), file);
        assertTrue(ModelFile.standard().load(file).standardizer().isPresent());
        try (var list = Files.list(file.getParent())) {
            assertEquals(1, list.count(), "no temporary files left behind");
        }
        assertThrows(IOException.class, () -> ModelFile.standard().load(dir.resolve("nope.json")));
    }

    @Test
    void differentModelsGiveDifferentBytes() {
        assertNotEquals(
                new String(ModelFile.standard().toBytes(TestModels.small(false)), StandardCharsets.UTF_8),
                new String(ModelFile.standard().toBytes(TestModels.small(true)), StandardCharsets.UTF_8));
    }

    private static ObjectNode obj(JsonNode node, String name) {
        return (ObjectNode) node.get(name);
    }

    private static VigilModel mutated(Consumer<ObjectNode> edit) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(ModelFile.standard().toBytes(TestModels.small(true)));
        edit.accept(root);
        return ModelFile.standard().read(JSON.writeValueAsBytes(root), "edited.json");
    }

    private static void assertMessage(Consumer<ObjectNode> edit, String expected) {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> mutated(edit));
        assertTrue(e.getMessage().startsWith("model edited.json: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }

    /** A test section: one value per LDG dimension. */
    record Note(boolean required, double[] values) implements ModelSection {
        @Override
        public String sectionName() {
            return "note";
        }

        @Override
        public void checkShape(ModelShape shape) {
            if (values.length != shape.dims()) {
                throw new IllegalArgumentException(
                        "note.values has " + values.length + " values but ldg.dims is " + shape.dims());
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Note n && n.required == required && Arrays.equals(n.values, values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }
    }

    static class NoteCodec implements SectionCodec<Note> {
        @Override
        public String name() {
            return "note";
        }

        @Override
        public Class<Note> type() {
            return Note.class;
        }

        @Override
        public int version() {
            return 1;
        }

        @Override
        public void write(Note section, ObjectNode out) {
            out.put("required", section.required());
            out.set("values", ModelJson.vector(section.values()));
        }

        @Override
        public Note read(JsonNode payload, int version, ModelShape shape, String path) {
            return new Note(
                    ModelJson.booleanField(payload, "required", path),
                    ModelJson.readVector(ModelJson.field(payload, "values", path), path + ".values"));
        }
    }
}
