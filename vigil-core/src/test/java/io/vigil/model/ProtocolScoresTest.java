package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.json.ModelFile;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolScoresTest {
    private static final List<String> FOUR = List.of("off/local-qda", "on/local-qda", "off/3nn", "on/3nn");
    private static final double NAN = Double.NaN;

    @Test
    void theFreshFoldMeanDecidesNotTheSelectionsOwnAccuracy() {
        // off/3nn has the best own CV (its search maximised it) but the worst fresh-fold mean. Dyadic values, so
        // that the means are exact and the tie below is a tie.
        double[] own = {0.75, 0.8125, 0.9375, 0.875};
        double[] qda = {0.75, 0.8125, 0.625, 0.875};
        assertEquals(3, ProtocolScores.best(own, new double[] {0.75, 0.75, 0.625, 0.8125}, qda));
        assertEquals(
                1,
                ProtocolScores.best(own, new double[] {0.75, 0.875, 0.625, 0.8125}, qda),
                "a tie goes to the earlier");
        // Equal fold counts averaged in another order differ in the last bits: still a tie.
        double third = (0.1 + 0.2 + 0.3) / 3;
        double other = (0.3 + 0.2 + 0.1) / 3;
        assertTrue(third != other, "the two orders round differently");
        double[] half = {0.5, 0, 0, 0.5};
        assertEquals(
                0, ProtocolScores.best(own, new double[] {Math.min(third, other), 0, 0, Math.max(third, other)}, half));
    }

    @Test
    void aCandidateWhoseDimensionCouldNotBeCheckedLosesToAnyChecked() {
        double[] own = {0.8, 0.9, 0.99, 0.7};
        assertEquals(0, ProtocolScores.best(own, new double[] {0.1, NAN, NAN, 0.05}, new double[] {0.1, 1, 1, 0.1}));
        assertEquals(
                2,
                ProtocolScores.best(own, new double[] {NAN, NAN, NAN, NAN}, new double[] {1, 1, 1, 1}),
                "nothing checked: the selections' own accuracy decides");
    }

    @Test
    void scoresAreValidatedAndOlderFilesCompareByTheirOwnAccuracy() {
        double[] a = {0.5, 0.6, 0.7, 0.8};
        assertThrows(IllegalArgumentException.class, () -> new ProtocolScores(FOUR, a, a, null, "on/3nn"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new ProtocolScores(FOUR, a, new double[] {0.5, 1.5, 0.7, 0.8}, a, "on/3nn"));
        assertTrue(e.getMessage().contains("fresh_3nn"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProtocolScores(FOUR, new double[] {NAN, 0.6, 0.7, 0.8}, a, a, "on/3nn"),
                "the selection's own accuracy is always scored");
        assertThrows(IllegalArgumentException.class, () -> new ProtocolScores(FOUR, a, a, a, "on/knn"));
        ProtocolScores older = new ProtocolScores(FOUR, a, null, null, "on/3nn");
        assertEquals(0.8, older.score(3));
        ProtocolScores fresh = new ProtocolScores(FOUR, a, new double[] {0.2, NAN, 0.4, 0.6}, a, "on/3nn");
        assertEquals((0.6 + 0.8) / 2, fresh.score(3));
        assertTrue(Double.isNaN(fresh.score(1)));
    }

    @Test
    void theCheckSurvivesTheModelFileAndOlderFilesStillLoad() throws Exception {
        VigilModel base = TestModels.small(false);
        ProtocolScores ps = new ProtocolScores(
                FOUR,
                new double[] {0.9, 0.8, 0.95, 0.85},
                new double[] {0.7, NAN, 0.75, 0.8},
                new double[] {0.72, 0.7, 0.74, 0.78},
                "on/3nn");
        VigilModel m =
                base.toBuilder().selection(base.selection().withProtocol(ps)).build();
        ModelFile file = ModelFile.standard();
        byte[] bytes = file.toBytes(m);
        VigilModel back = file.read(bytes, "memory");
        assertEquals(ps, back.selection().protocol());
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(bytes);
        ObjectNode scores = (ObjectNode) root.get("selection").get("protocol_scores");
        assertTrue(scores.get("fresh_3nn").get(1).isNull(), "NaN is written as null: " + scores);
        // A file written before the fresh-fold check has neither array.
        scores.remove(List.of("fresh_3nn", "fresh_local_qda"));
        ProtocolScores read = file.read(json.writeValueAsBytes(root), "older.json")
                .selection()
                .protocol();
        assertNull(read.fresh3nn());
        assertArrayEquals(ps.accuracy(), read.accuracy());
        assertEquals("on/3nn", read.chosen());
    }
}
