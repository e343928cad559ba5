package io.vigil.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.ldg.Standardizer;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes {@link VigilModel}s as versioned JSON (conventions §9, after Tribuo's model files):
 * {@code format} + {@code format_version} first, then the core parts in a fixed order, then optional typed
 * {@code sections}. Large real arrays use the exact {@link ModelJson#F64LE_BASE64} encoding, so the same
 * model always gives byte-identical files (fields in a fixed order, {@code \n} line ends, shortest
 * round-trip decimals for scalars). Loading rejects a newer format version, an unknown required section,
 * unknown fields and every dimension mismatch, naming the field and both sizes.
 *
 * <p>Layout of format version 1 (top-level fields in this order): {@code format, format_version,
 * vigil_version, created, dataset{name, classes, class_counts, train_size, length, fingerprint}, seed,
 * preprocessing{standardize[, means, scales]}, ldg{neighbors, gamma, dims, eigenvalues, basis},
 * training_points{classes, points}, local_qda{neighbors, priors}, selection{cv, neighbor_method, neighbor_cv, gamma_dims,
 * cv_accuracy, scores{ldg_neighbors, gamma, dims, qda_neighbors}}, sections{name: {version, required,
 * payload}}}.
 */
public final class ModelFile {
    private static final Set<String> TOP_FIELDS = Set.of(
            "format",
            "format_version",
            "vigil_version",
            "created",
            "dataset",
            "seed",
            "preprocessing",
            "ldg",
            "training_points",
            "local_qda",
            "selection",
            "sections");
    private static final String[] SCORE_NAMES = {"ldg_neighbors", "gamma", "dims", "qda_neighbors"};

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")));

    private final List<SectionCodec<?>> codecs;

    /** A model file reader/writer that knows the given section codecs. */
    public ModelFile(List<SectionCodec<?>> codecs) {
        this.codecs = List.copyOf(codecs);
        Set<String> names = new HashSet<>();
        for (SectionCodec<?> c : codecs) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("two codecs for section '" + c.name() + "'");
            }
        }
    }

    /** The reader/writer with every section this Vigil knows ({@link ModelSections#all()}). */
    public static ModelFile standard() {
        return new ModelFile(ModelSections.all());
    }

    /** Writes the model atomically (temporary file in the same folder, then rename). */
    public void save(VigilModel model, Path file) throws IOException {
        byte[] bytes = toBytes(model);
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        // A sibling temporary file with ordinary permissions (createTempFile would make it owner-only).
        Path tmp = (dir == null ? Path.of(".") : dir)
                .resolve("." + file.getFileName() + "."
                        + ProcessHandle.current().pid() + "." + System.nanoTime() + ".tmp");
        try {
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Loads and fully validates a model file. */
    public VigilModel load(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "model file not found");
        }
        return read(Files.readAllBytes(file), file.toString());
    }

    /** The file contents for a model: UTF-8 JSON ending in a newline. */
    public byte[] toBytes(VigilModel model) {
        try {
            byte[] json = WRITER.writeValueAsBytes(toTree(model));
            byte[] out = Arrays.copyOf(json, json.length + 1);
            out[json.length] = '\n';
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise model", e);
        }
    }

    /**
     * Parses and validates model-file bytes.
     *
     * @param source file name for messages
     * @throws ModelFormatException when the bytes are not a usable model, naming the field
     */
    public VigilModel read(byte[] bytes, String source) throws ModelFormatException {
        JsonNode root;
        try {
            root = ModelJson.readTree(MAPPER, bytes);
        } catch (IOException e) {
            throw new ModelFormatException(
                    source,
                    "not valid JSON: " + e.getMessage().lines().findFirst().orElse(""),
                    e);
        }
        try {
            return fromTree(root);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(source, e.getMessage(), e);
        }
    }

    /**
     * The size in bytes of each top-level part of a model file as the writer lays it out (for {@code vigil
     * inspect}); optional sections are listed as {@code sections.NAME}, followed by each member of their payload
     * as {@code sections.NAME.MEMBER} (e.g. {@code sections.complete_series.joint}).
     *
     * @throws ModelFormatException when the bytes are not a JSON object
     */
    public static Map<String, Long> partSizes(byte[] bytes) throws ModelFormatException {
        JsonNode root;
        try {
            root = ModelJson.readTree(MAPPER, bytes);
        } catch (IOException e) {
            throw new ModelFormatException("bytes", "not valid JSON", e);
        }
        Map<String, Long> sizes = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = root.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("sections")
                    && e.getValue().isObject()
                    && !e.getValue().isEmpty()) {
                Iterator<Map.Entry<String, JsonNode>> secs = e.getValue().fields();
                while (secs.hasNext()) {
                    Map.Entry<String, JsonNode> s = secs.next();
                    String name = "sections." + s.getKey();
                    sizes.put(name, ModelJson.serializedSize(WRITER, s.getValue()));
                    JsonNode payload = s.getValue().path("payload");
                    Iterator<Map.Entry<String, JsonNode>> members = payload.fields();
                    while (members.hasNext()) {
                        Map.Entry<String, JsonNode> m = members.next();
                        sizes.put(name + "." + m.getKey(), ModelJson.serializedSize(WRITER, m.getValue()));
                    }
                }
            } else {
                sizes.put(e.getKey(), ModelJson.serializedSize(WRITER, e.getValue()));
            }
        }
        return sizes;
    }

    private ObjectNode toTree(VigilModel m) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("format", VigilModel.FORMAT);
        root.put("format_version", VigilModel.FORMAT_VERSION);
        root.put("vigil_version", m.vigilVersion());
        root.put("created", m.created().toString());

        ObjectNode ds = root.putObject("dataset");
        ds.put("name", m.datasetName());
        ArrayNode classes = ds.putArray("classes");
        m.classNames().forEach(classes::add);
        ArrayNode counts = ds.putArray("class_counts");
        for (int c : m.classCounts()) {
            counts.add(c);
        }
        ds.put("train_size", m.trainSize());
        ds.put("length", m.length());
        ds.put("fingerprint", m.fingerprint());

        root.put("seed", m.seed());

        ObjectNode pre = root.putObject("preprocessing");
        pre.put("standardize", m.standardizer().isPresent());
        m.standardizer().ifPresent(s -> {
            pre.set("means", ModelJson.vector(s.means()));
            pre.set("scales", ModelJson.vector(s.scales()));
        });

        ObjectNode ldg = root.putObject("ldg");
        ldg.put("neighbors", m.ldgNeighbors());
        ldg.put("gamma", m.gamma());
        ldg.put("dims", m.dims());
        ldg.set("eigenvalues", ModelJson.vector(m.eigenvalues()));
        ldg.set("basis", ModelJson.matrix(m.basis()));

        ObjectNode tp = root.putObject("training_points");
        ArrayNode tc = tp.putArray("classes");
        for (int c : m.trainingClasses()) {
            tc.add(c);
        }
        tp.set("points", ModelJson.matrix(m.trainingPoints(), m.dims()));

        ObjectNode qda = root.putObject("local_qda");
        qda.put("neighbors", m.qdaNeighbors());
        ArrayNode priors = qda.putArray("priors");
        for (double p : m.priors()) {
            priors.add(p);
        }

        SelectionReport s = m.selection();
        ObjectNode sel = root.putObject("selection");
        sel.put("cv", s.cv().toString());
        sel.put("neighbor_method", s.neighborMethod());
        sel.put("neighbor_cv", s.neighborCv().toString());
        sel.put("gamma_dims", s.gammaDims());
        ModelJson.putDouble(sel, "cv_accuracy", s.cvAccuracy());
        ObjectNode scores = sel.putObject("scores");
        GridScores[] grids = {s.ldgNeighbors(), s.gamma(), s.dims(), s.qdaNeighbors()};
        for (int i = 0; i < grids.length; i++) {
            writeGrid(scores.putObject(SCORE_NAMES[i]), grids[i]);
        }

        ObjectNode secs = root.putObject("sections");
        for (ModelSection section : m.sections().values()) {
            ObjectNode wrapper = secs.putObject(section.sectionName());
            SectionCodec<?> codec = codecFor(section.sectionName());
            if (codec == null) {
                throw new IllegalStateException(
                        "no codec registered for model section '" + section.sectionName() + "'");
            }
            wrapper.put("version", codec.version());
            wrapper.put("required", section.required());
            writeSection(codec, section, wrapper.putObject("payload"));
        }
        return root;
    }

    private static <T extends ModelSection> void writeSection(SectionCodec<T> codec, ModelSection s, ObjectNode out) {
        codec.write(codec.type().cast(s), out);
    }

    private static void writeGrid(ObjectNode out, GridScores g) {
        out.put("source", g.source());
        ArrayNode cand = out.putArray("candidates");
        for (double c : g.candidates()) {
            if (g.integral()) {
                cand.add((long) c);
            } else {
                cand.add(c);
            }
        }
        ArrayNode acc = out.putArray("accuracy");
        for (double a : g.accuracy()) {
            if (Double.isNaN(a)) {
                acc.addNull();
            } else {
                acc.add(a);
            }
        }
        if (g.integral()) {
            out.put("chosen", (long) g.chosen());
        } else {
            out.put("chosen", g.chosen());
        }
    }

    private VigilModel fromTree(JsonNode root) {
        ModelJson.requireObject(root, "");
        String format = root.has("format") && root.get("format").isTextual()
                ? root.get("format").textValue()
                : null;
        if (!VigilModel.FORMAT.equals(format)) {
            throw new IllegalArgumentException("not a Vigil model file (format is "
                    + (format == null ? "missing" : "'" + format + "'") + ", expected '" + VigilModel.FORMAT + "')");
        }
        int version = ModelJson.intField(root, "format_version", "");
        if (version > VigilModel.FORMAT_VERSION) {
            throw new IllegalArgumentException("model format version " + version
                    + " is newer than this Vigil supports (" + VigilModel.FORMAT_VERSION + "); upgrade Vigil");
        }
        if (version < 1) {
            throw new IllegalArgumentException("model format version " + version + " is not a valid version");
        }
        ModelJson.checkFields(root, "", TOP_FIELDS);

        VigilModel.Builder b = VigilModel.builder()
                .vigilVersion(ModelJson.textField(root, "vigil_version", ""))
                .created(parseInstant(ModelJson.textField(root, "created", "")));

        JsonNode ds = ModelJson.field(root, "dataset", "");
        ModelJson.requireObject(ds, "dataset");
        ModelJson.checkFields(
                ds, "dataset", Set.of("name", "classes", "class_counts", "train_size", "length", "fingerprint"));
        JsonNode classesNode = ModelJson.field(ds, "classes", "dataset");
        if (!classesNode.isArray()) {
            throw new IllegalArgumentException("dataset.classes must be an array");
        }
        List<String> classes = new ArrayList<>();
        for (int i = 0; i < classesNode.size(); i++) {
            JsonNode c = classesNode.get(i);
            if (!c.isTextual()) {
                throw new IllegalArgumentException("dataset.classes[" + i + "] must be a string, got " + c);
            }
            classes.add(c.textValue());
        }
        b.datasetName(ModelJson.textField(ds, "name", "dataset"))
                .classNames(classes)
                .classCounts(ModelJson.intArray(ds, "class_counts", "dataset"))
                .trainSize(ModelJson.intField(ds, "train_size", "dataset"))
                .length(ModelJson.intField(ds, "length", "dataset"))
                .fingerprint(ModelJson.textField(ds, "fingerprint", "dataset"))
                .seed(ModelJson.longField(root, "seed", ""));

        JsonNode pre = ModelJson.field(root, "preprocessing", "");
        ModelJson.requireObject(pre, "preprocessing");
        if (ModelJson.booleanField(pre, "standardize", "preprocessing")) {
            ModelJson.checkFields(pre, "preprocessing", Set.of("standardize", "means", "scales"));
            double[] means =
                    ModelJson.readVector(ModelJson.field(pre, "means", "preprocessing"), "preprocessing.means");
            double[] scales =
                    ModelJson.readVector(ModelJson.field(pre, "scales", "preprocessing"), "preprocessing.scales");
            if (means.length != scales.length) {
                throw new IllegalArgumentException("preprocessing.means has " + means.length
                        + " values but preprocessing.scales has " + scales.length);
            }
            try {
                b.standardizer(Standardizer.of(means, scales));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("preprocessing: " + e.getMessage(), e);
            }
        } else {
            ModelJson.checkFields(pre, "preprocessing", Set.of("standardize"));
        }

        JsonNode ldg = ModelJson.field(root, "ldg", "");
        ModelJson.requireObject(ldg, "ldg");
        ModelJson.checkFields(ldg, "ldg", Set.of("neighbors", "gamma", "dims", "eigenvalues", "basis"));
        b.ldg(
                ModelJson.intField(ldg, "neighbors", "ldg"),
                ModelJson.doubleField(ldg, "gamma", "ldg"),
                ModelJson.intField(ldg, "dims", "ldg"),
                ModelJson.readVector(ModelJson.field(ldg, "eigenvalues", "ldg"), "ldg.eigenvalues"),
                ModelJson.readDMatrix(ModelJson.field(ldg, "basis", "ldg"), "ldg.basis"));

        JsonNode tp = ModelJson.field(root, "training_points", "");
        ModelJson.requireObject(tp, "training_points");
        ModelJson.checkFields(tp, "training_points", Set.of("classes", "points"));
        int[] trainClasses = ModelJson.intArray(tp, "classes", "training_points");
        double[][] points =
                ModelJson.readRows(ModelJson.field(tp, "points", "training_points"), "training_points.points");
        b.trainingPoints(points, trainClasses);

        JsonNode qda = ModelJson.field(root, "local_qda", "");
        ModelJson.requireObject(qda, "local_qda");
        ModelJson.checkFields(qda, "local_qda", Set.of("neighbors", "priors"));
        b.qdaNeighbors(ModelJson.intField(qda, "neighbors", "local_qda"))
                .priors(ModelJson.doubleArray(qda, "priors", "local_qda"));

        b.selection(readSelection(ModelJson.field(root, "selection", "")));

        VigilModel core = b.build();
        JsonNode secs = ModelJson.field(root, "sections", "");
        ModelJson.requireObject(secs, "sections");
        if (secs.isEmpty()) {
            return core;
        }
        List<String> ignored = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = secs.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            readSectionInto(b, e.getKey(), e.getValue(), core.shape(), ignored);
        }
        b.ignoredSections(ignored);
        return b.build();
    }

    private void readSectionInto(
            VigilModel.Builder b, String name, JsonNode wrapper, ModelShape shape, List<String> ignored) {
        String path = "sections." + name;
        ModelJson.requireObject(wrapper, path);
        ModelJson.checkFields(wrapper, path, Set.of("version", "required", "payload"));
        int version = ModelJson.intField(wrapper, "version", path);
        boolean required = ModelJson.booleanField(wrapper, "required", path);
        JsonNode payload = ModelJson.field(wrapper, "payload", path);
        SectionCodec<?> codec = codecFor(name);
        if (codec == null) {
            if (required) {
                throw new IllegalArgumentException(
                        "the model requires section '" + name + "', which this Vigil does not know; use a newer Vigil");
            }
            ignored.add(name);
            return;
        }
        if (version > codec.version() || version < 1) {
            throw new IllegalArgumentException(path + " has version " + version + " but this Vigil reads versions 1.."
                    + codec.version() + " of section '" + name + "'");
        }
        ModelJson.requireObject(payload, path + ".payload");
        ModelSection section = codec.read(payload, version, shape, path + ".payload");
        if (!section.sectionName().equals(name)) {
            throw new IllegalStateException(
                    "codec for '" + name + "' returned section '" + section.sectionName() + "'");
        }
        b.section(section);
    }

    private SectionCodec<?> codecFor(String name) {
        for (SectionCodec<?> c : codecs) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static SelectionReport readSelection(JsonNode sel) {
        ModelJson.requireObject(sel, "selection");
        ModelJson.checkFields(
                sel,
                "selection",
                Set.of("cv", "neighbor_method", "neighbor_cv", "gamma_dims", "cv_accuracy", "scores"));
        JsonNode scores = ModelJson.field(sel, "scores", "selection");
        ModelJson.requireObject(scores, "selection.scores");
        ModelJson.checkFields(scores, "selection.scores", Set.of(SCORE_NAMES));
        Map<String, GridScores> grids = new HashMap<>();
        for (String name : SCORE_NAMES) {
            grids.put(name, readGrid(ModelJson.field(scores, name, "selection.scores"), name));
        }
        return new SelectionReport(
                parseScheme(ModelJson.textField(sel, "cv", "selection"), "selection.cv"),
                ModelJson.textField(sel, "neighbor_method", "selection"),
                parseScheme(ModelJson.textField(sel, "neighbor_cv", "selection"), "selection.neighbor_cv"),
                ModelJson.intField(sel, "gamma_dims", "selection"),
                grids.get("ldg_neighbors"),
                grids.get("gamma"),
                grids.get("dims"),
                grids.get("qda_neighbors"),
                ModelJson.doubleField(sel, "cv_accuracy", "selection"));
    }

    private static GridScores readGrid(JsonNode g, String name) {
        String path = "selection.scores." + name;
        ModelJson.requireObject(g, path);
        ModelJson.checkFields(g, path, Set.of("source", "candidates", "accuracy", "chosen"));
        boolean integral = !name.equals("gamma");
        double[] cand = ModelJson.doubleArray(g, "candidates", path);
        double[] acc = ModelJson.doubleArray(g, "accuracy", path);
        if (cand.length != acc.length) {
            throw new IllegalArgumentException(
                    path + ".candidates has " + cand.length + " values but " + path + ".accuracy has " + acc.length);
        }
        return new GridScores(
                ModelJson.textField(g, "source", path), integral, cand, acc, ModelJson.doubleField(g, "chosen", path));
    }

    private static CvScheme parseScheme(String text, String path) {
        try {
            return CvScheme.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static Instant parseInstant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("created is not an ISO-8601 UTC instant: '" + text + "'", e);
        }
    }
}
