package io.vigil.model.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ModelSection;
import io.vigil.model.ModelShape;
import io.vigil.model.VigilModel;
import io.vigil.util.Failures;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes {@link VigilModel}s as versioned JSON (docs/data-and-training.md, "Model files", after Tribuo's):
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
    private static final ProvenanceCodec PROVENANCE = new ProvenanceCodec();
    private static final DatasetCodec DATASET = new DatasetCodec();
    private static final ProjectionCodec PROJECTION = new ProjectionCodec();
    private static final ClassifierCodec CLASSIFIER = new ClassifierCodec();

    /** The core parts' top-level fields in the order of format version 1 (between format_version and sections). */
    private static final List<String> LAYOUT = List.of(
            "vigil_version",
            "created",
            "dataset",
            "seed",
            "preprocessing",
            "ldg",
            "training_points",
            "local_qda",
            "selection");

    private static final Set<String> TOP_FIELDS = topFields();

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")));

    private final List<SectionCodec<?>> codecs;

    private static Set<String> topFields() {
        Set<String> all = new HashSet<>(List.of("format", "format_version", "sections"));
        for (PartCodec<?> c : List.of(PROVENANCE, DATASET, PROJECTION, CLASSIFIER)) {
            all.addAll(c.fields());
        }
        if (!all.containsAll(LAYOUT) || all.size() != LAYOUT.size() + 3) {
            throw new IllegalStateException("the part codecs' fields " + all + " do not match the layout " + LAYOUT);
        }
        return Set.copyOf(all);
    }

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

    /**
     * Writes the model atomically (temporary file in the same folder, then rename), after checking that the bytes
     * read back as this very model — a file no command could load is never written.
     *
     * @throws IOException naming {@code file} (not the temporary file) and the reason
     */
    public void save(VigilModel model, Path file) throws IOException {
        byte[] bytes = toBytes(model);
        VigilModel back;
        try {
            back = read(bytes, file.toString());
        } catch (ModelFormatException e) {
            throw new IOException(
                    "the trained model cannot be read back, so " + file + " was not written: " + e.getMessage(), e);
        }
        if (!back.equals(model)) {
            throw new IOException("the trained model does not read back as written, so " + file + " was not written");
        }
        Path dir = file.toAbsolutePath().getParent();
        try {
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new IOException("cannot write model " + file + ": " + e.getFile() + " is a file, not a folder");
        } catch (IOException e) {
            throw new IOException("cannot write model " + file + ": " + Failures.describe(e), e);
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
        } catch (IOException e) {
            String reason = e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                    ? fs.getReason()
                    : Failures.describe(e).replace(tmp.toString(), "").replaceFirst("^: ", "");
            throw new IOException("cannot write model " + file + ": " + plain(e, reason), e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A file-system failure in plain words (the JDK's messages are often only a path). */
    private static String plain(IOException e, String reason) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "the folder does not exist";
        }
        return reason == null || reason.isBlank() ? e.getClass().getSimpleName() : reason;
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
            // jsonProblem says everything; the parser's exception is kept as suppressed (shown by VIGIL_DEBUG stack
            // traces) rather than as the cause, whose message would be appended again with its location suffix.
            ModelFormatException notJson = new ModelFormatException(source, jsonProblem(e, bytes.length));
            notJson.addSuppressed(e);
            throw notJson;
        }
        try {
            return fromTree(root);
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(source, e.getMessage(), e);
        }
    }

    /**
     * What is wrong with bytes that are not JSON, said once and in plain words: a file that ends inside a value is
     * "truncated" (a copy cut short), anything else "not valid JSON"; with the parser's line and column, without its
     * own location suffix (which names no source and would repeat the message).
     */
    static String jsonProblem(IOException e, int size) {
        boolean truncated = false;
        for (Throwable c = e; c != null; c = c.getCause()) {
            truncated |= c instanceof com.fasterxml.jackson.core.io.JsonEOFException
                    || (c.getMessage() != null && c.getMessage().contains("end-of-input"));
        }
        String at = "";
        String message = e.getMessage();
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            message = j.getOriginalMessage();
            if (j.getLocation() != null && j.getLocation().getLineNr() > 0) {
                at = " at line " + j.getLocation().getLineNr() + ", column "
                        + j.getLocation().getColumnNr();
            }
        }
        String first = message == null ? "" : message.lines().findFirst().orElse("");
        if (truncated) {
            int cut = first.indexOf(" is not valid Base64");
            String inside = cut > 0 ? " inside " + first.substring(0, cut) : "";
            return "the file is truncated: it ends after " + size + " bytes" + at + inside
                    + " (an incomplete copy or download?)";
        }
        return "not valid JSON" + at + ": " + first;
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
        ObjectNode parts = JsonNodeFactory.instance.objectNode();
        PROVENANCE.write(m.provenance(), parts);
        DATASET.write(m.dataset(), parts);
        PROJECTION.write(m.projection(), parts);
        CLASSIFIER.write(m.classifier(), parts);
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", VigilModel.FORMAT);
        root.put("format_version", VigilModel.FORMAT_VERSION);
        for (String field : LAYOUT) {
            root.set(field, parts.get(field));
        }
        ObjectNode secs = root.putObject("sections");
        for (ModelSection section : m.sections().values()) {
            ObjectNode wrapper = secs.putObject(section.sectionName());
            SectionCodec<?> codec = codecFor(section.sectionName());
            if (codec == null) {
                throw new IllegalStateException(
                        "no codec registered for model section '" + section.sectionName() + "'");
            }
            wrapper.put("version", versionOf(codec, section));
            wrapper.put("required", section.required());
            writeSection(codec, section, wrapper.putObject("payload"));
        }
        return root;
    }

    private static <T extends ModelSection> int versionOf(SectionCodec<T> codec, ModelSection s) {
        return codec.versionOf(codec.type().cast(s));
    }

    private static <T extends ModelSection> void writeSection(SectionCodec<T> codec, ModelSection s, ObjectNode out) {
        codec.write(codec.type().cast(s), out);
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
                .provenance(PROVENANCE.read(root))
                .dataset(DATASET.read(root))
                .projection(PROJECTION.read(root))
                .classifier(CLASSIFIER.read(root));
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
}
