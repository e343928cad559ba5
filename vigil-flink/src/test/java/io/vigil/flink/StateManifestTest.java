package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The state manifest: JSON round trip, what makes state not fit a run, and files it cannot read. */
class StateManifestTest {
    static StateManifest manifest(String input, String modelId, int length) {
        return manifest(input, modelId, length, null);
    }

    static StateManifest manifest(String input, String modelId, int length, String modelTopic) {
        return manifest(input, modelId, length, modelTopic, null);
    }

    static StateManifest manifest(String input, String modelId, int length, String modelTopic, String truthTopic) {
        return manifest(input, modelId, length, modelTopic, truthTopic, false);
    }

    static StateManifest manifest(
            String input, String modelId, int length, String modelTopic, String truthTopic, Boolean bounded) {
        return new StateManifest(
                StateManifest.FORMAT_VERSION,
                input + "-to-out",
                input,
                "out",
                "dead",
                "vigil-" + input,
                "exactly-once",
                "hashmap",
                new StateManifest.Model(modelId, length, 10, List.of("1", "2", "3")),
                modelTopic,
                truthTopic,
                bounded);
    }

    @Test
    void roundTripsThroughJsonWithSnakeCaseFields() throws Exception {
        StateManifest m = manifest("samples", "abc", 128);
        String json = new String(m.toJson(), StandardCharsets.UTF_8);
        for (String field : List.of(
                "\"format_version\" : 1",
                "\"job_name\" : \"samples-to-out\"",
                "\"dead_letter\" : \"dead\"",
                "\"group_id\"",
                "\"state_backend\" : \"hashmap\"",
                "\"classes\" : [ \"1\", \"2\", \"3\" ]")) {
            assertTrue(json.contains(field), field + " in " + json);
        }
        assertEquals(m, StateManifest.fromJson(m.toJson(), "m.json"));
    }

    @Test
    void anotherModelOfTheSameShapeFitsAnotherShapeOrTopicDoesNotNamingBothSides() {
        StateManifest held = manifest("samples", "m1", 128);
        assertEquals(List.of(), held.conflicts(manifest("samples", "m2", 128)), "same shape, another model id");
        List<String> c = held.conflicts(manifest("other", "m1", 64));
        assertEquals(3, c.size(), c.toString());
        assertEquals("input topic 'samples' there, 'other' in this run", c.get(0));
        assertEquals("group id 'vigil-samples' there, 'vigil-other' in this run", c.get(1));
        assertTrue(c.get(2).startsWith("model shape 'd = 128, ℓ = 10, classes [1, 2, 3]' there, 'd = 64"), c.get(2));
        StateManifest rocks = new StateManifest(
                1,
                "x",
                "samples",
                "out",
                "dead",
                "vigil-samples",
                "exactly-once",
                "rocksdb",
                held.model(),
                null,
                null,
                false);
        assertEquals(List.of("state backend 'hashmap' there, 'rocksdb' in this run"), held.conflicts(rocks));
    }

    @Test
    void aJobFollowingAModelTopicMayHoldAModelOfAnotherShapeButNotSwitchTopics() {
        StateManifest held = manifest("samples", "m1", 128, "models");
        assertEquals(List.of(), held.conflicts(manifest("samples", "m2", 64, "models")), "swapped to another shape");
        assertEquals(
                List.of("model topic 'models' there, 'none' in this run"),
                held.conflicts(manifest("samples", "m1", 128, null)));
        assertEquals(
                List.of("model topic 'none' there, 'models' in this run"),
                manifest("samples", "m1", 128).conflicts(held));
    }

    @Test
    void aTruthTopicMustStayAsItWasBecauseItsSourceAndComparisonHoldState() {
        StateManifest held = manifest("samples", "m1", 128, null, "truth");
        assertEquals(List.of(), held.conflicts(manifest("samples", "m1", 128, null, "truth")));
        assertEquals(
                List.of("truth topic 'truth' there, 'none' in this run"),
                held.conflicts(manifest("samples", "m1", 128, null, null)));
        assertEquals(
                List.of("truth topic 'none' there, 'truth' in this run"),
                manifest("samples", "m1", 128).conflicts(held));
    }

    @Test
    void aBoundedRunCannotResumeAnUnboundedRunsStateNorTheReverse() {
        StateManifest unbounded = manifest("samples", "m1", 128, null, null, false);
        StateManifest bounded = manifest("samples", "m1", 128, null, null, true);
        assertEquals(List.of("input unbounded there, bounded (--bounded) in this run"), unbounded.conflicts(bounded));
        assertEquals(List.of("input bounded (--bounded) there, unbounded in this run"), bounded.conflicts(unbounded));
        assertEquals(List.of(), bounded.conflicts(bounded), "a crashed bounded run resumes bounded");
        StateManifest older = manifest("samples", "m1", 128, null, null, null);
        assertEquals(List.of(), older.conflicts(bounded), "a manifest from before the field says nothing");
    }

    @Test
    void aManifestWrittenBeforeModelAndTruthTopicsReadsAsFollowingNone() throws Exception {
        String old = new String(manifest("samples", "m1", 128).toJson(), StandardCharsets.UTF_8)
                .replace(",\n  \"model_topic\" : null", "")
                .replace(",\n  \"truth_topic\" : null", "")
                .replace(",\n  \"bounded\" : false", "");
        assertTrue(!old.contains("model_topic") && !old.contains("truth_topic") && !old.contains("bounded"), old);
        StateManifest read = StateManifest.fromJson(old.getBytes(StandardCharsets.UTF_8), "old.json");
        assertEquals(null, read.modelTopic());
        assertEquals(manifest("samples", "m1", 128, null, null, null), read);
    }

    @Test
    void aFileOfAnotherFormatOrNotAManifestIsAnErrorNamingTheFile() {
        IOException newer = assertThrows(
                IOException.class,
                () -> StateManifest.fromJson("{\"format_version\":2}".getBytes(StandardCharsets.UTF_8), "s.json"));
        assertEquals("s.json: state format 2, this Vigil reads format 1", newer.getMessage());
        IOException junk = assertThrows(
                IOException.class, () -> StateManifest.fromJson("[1]".getBytes(StandardCharsets.UTF_8), "s.json"));
        assertTrue(junk.getMessage().startsWith("s.json: not a Vigil state manifest"), junk.getMessage());
        IOException partial = assertThrows(
                IOException.class,
                () -> StateManifest.fromJson(
                        "{\"format_version\":1,\"input\":\"a\"}".getBytes(StandardCharsets.UTF_8), "s.json"));
        assertTrue(partial.getMessage().startsWith("s.json: incomplete state manifest"), partial.getMessage());
    }
}
