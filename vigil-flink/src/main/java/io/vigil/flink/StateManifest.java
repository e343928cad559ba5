package io.vigil.flink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a state directory holds the state of ({@value StateDirectory#MANIFEST}): the job (name, topics, consumer
 * group, delivery guarantee), the state backend and the model's id and shape. A run that asks for something the
 * state cannot serve (other topics, another model shape, another backend) is refused with {@link #conflicts}
 * instead of silently starting over; a model of the same shape may take over (undecided series are replayed under
 * it by the keyed stage).
 *
 * @param formatVersion version of this file's layout ({@link #FORMAT_VERSION})
 * @param jobName the job name
 * @param input sample topic
 * @param output decisions topic
 * @param deadLetter dead-letter topic
 * @param groupId consumer group id
 * @param delivery delivery guarantee ({@code exactly-once} or {@code at-least-once}): the sinks' state differs
 * @param stateBackend {@code hashmap} or {@code rocksdb}
 * @param model the model's id and shape (the initial model when the job follows a model topic)
 * @param modelTopic the model topic the job follows for hot swaps, or null; a job that follows one keeps its live
 *     models in its checkpoints, so a model of another shape there is no conflict
 * @param truthTopic the truth topic the job compares decisions with, or null (absent in older manifests): its source
 *     and comparison stage keep checkpointed state that a job without them cannot restore, and the reverse
 * @param bounded whether the run read its input up to the offsets current at its start ({@code --bounded}), or null
 *     (absent in older manifests): the Kafka source keeps its stopping offsets in its checkpointed splits, so a
 *     bounded run resumed from an unbounded run's state would never end, and the reverse would stop at old offsets
 */
public record StateManifest(
        int formatVersion,
        String jobName,
        String input,
        String output,
        String deadLetter,
        String groupId,
        String delivery,
        String stateBackend,
        Model model,
        String modelTopic,
        String truthTopic,
        Boolean bounded) {
    /** The layout this release reads and writes. */
    public static final int FORMAT_VERSION = 1;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * The model a state was built with: its id (content hash of the model file) and its shape.
     *
     * @param id model id
     * @param length series length d
     * @param dims LDG dimension ℓ
     * @param classes class names, in the model's order
     */
    public record Model(String id, int length, int dims, List<String> classes) {
        /** Copies the class names. */
        public Model {
            Objects.requireNonNull(id, "id");
            classes = List.copyOf(classes);
        }

        /** The shape in words, e.g. {@code d = 128, ℓ = 10, classes [1, 2, 3]}. */
        public String shape() {
            return "d = " + length + ", ℓ = " + dims + ", classes " + classes;
        }
    }

    /** Validates. */
    public StateManifest {
        Objects.requireNonNull(jobName, "jobName");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(deadLetter, "deadLetter");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(stateBackend, "stateBackend");
        Objects.requireNonNull(model, "model");
    }

    /** The manifest of a job, in this release's format. */
    public static StateManifest of(JobConfig cfg, String jobName, LocalState.Backend backend, Model model) {
        return new StateManifest(
                FORMAT_VERSION,
                jobName,
                cfg.input(),
                cfg.output(),
                cfg.deadLetter(),
                cfg.groupId(),
                cfg.delivery().cliName(),
                backend.cliName(),
                model,
                cfg.modelFeed() == null ? null : cfg.modelFeed().topic(),
                cfg.truthTopic(),
                cfg.bounded());
    }

    /**
     * Why state described by this manifest cannot serve the run described by {@code wanted}: one entry per
     * difference, naming what the state holds and what the run asks for; empty when it fits. The model id and the
     * job name may differ, and so may the model's shape when both follow the same model topic (the checkpoint holds
     * the live models, and each series keeps the model it started under).
     */
    public List<String> conflicts(StateManifest wanted) {
        List<String> out = new ArrayList<>();
        differ(out, "input topic", input, wanted.input);
        differ(out, "output topic", output, wanted.output);
        differ(out, "dead-letter topic", deadLetter, wanted.deadLetter);
        differ(out, "group id", groupId, wanted.groupId);
        differ(out, "delivery", delivery, wanted.delivery);
        differ(out, "state backend", stateBackend, wanted.stateBackend);
        differ(out, "model topic", Objects.toString(modelTopic, "none"), Objects.toString(wanted.modelTopic, "none"));
        differ(out, "truth topic", Objects.toString(truthTopic, "none"), Objects.toString(wanted.truthTopic, "none"));
        if (bounded != null && wanted.bounded != null && !bounded.equals(wanted.bounded)) {
            out.add("input " + boundedness(bounded) + " there, " + boundedness(wanted.bounded) + " in this run");
        }
        if (wanted.modelTopic == null) {
            differ(out, "model shape", model.shape(), wanted.model.shape());
        }
        return out;
    }

    private static String boundedness(boolean bounded) {
        return bounded ? "bounded (--bounded)" : "unbounded";
    }

    private static void differ(List<String> out, String what, String held, String wanted) {
        if (!held.equals(wanted)) {
            out.add(what + " '" + held + "' there, '" + wanted + "' in this run");
        }
    }

    /** The manifest as JSON text. */
    public byte[] toJson() {
        try {
            return MAPPER.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the state manifest", e);
        }
    }

    /**
     * Reads a manifest.
     *
     * @param what names the file in errors
     * @throws IOException when it is not a manifest this release can read, saying why
     */
    public static StateManifest fromJson(byte[] json, String what) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IOException(what + ": not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (tree == null || !tree.isObject() || !tree.path("format_version").canConvertToInt()) {
            throw new IOException(what + ": not a Vigil state manifest (no format_version)");
        }
        int version = tree.get("format_version").asInt();
        if (version != FORMAT_VERSION) {
            throw new IOException(what + ": state format " + version + ", this Vigil reads format " + FORMAT_VERSION);
        }
        try {
            return MAPPER.treeToValue(tree, StateManifest.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(
                    what + ": incomplete state manifest ("
                            + e.getMessage().lines().findFirst().orElse("") + ")",
                    e);
        }
    }
}
