package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.model.json.ModelFile;
import io.vigil.model.json.ModelFormatException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowSectionTest {
    @Test
    void windowModelRoundTripsAndIsRequired() throws ModelFormatException {
        VigilModel base = TestModels.small(false);
        VigilModel window = base.toBuilder()
                .section(new WindowSection(2, "c", 50.0, "windows-closed"))
                .build();
        byte[] bytes = ModelFile.standard().toBytes(window);
        VigilModel back = ModelFile.standard().read(bytes, "w.json");
        assertEquals(window, back);
        assertEquals(
                new WindowSection(2, "c", 50.0, "windows-closed"),
                WindowModels.window(back).orElseThrow());
        String json = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(json.contains("\"background_label\""), json);
        assertTrue(json.replaceAll("\\s", "").contains("\"window\":{\"version\":1,\"required\":true"), json);

        VigilModel noRate = base.toBuilder()
                .section(new WindowSection(5, "a", Double.NaN, "refractory:40"))
                .build();
        VigilModel noRateBack = ModelFile.standard().read(ModelFile.standard().toBytes(noRate), "n.json");
        assertTrue(Double.isNaN(
                noRateBack.section(WindowSection.class).orElseThrow().samplingRateHz()));
    }

    @Test
    void labellingIsWrittenAsVersionTwoAndVersionOneReadsAsTheOriginal() throws ModelFormatException {
        VigilModel base = TestModels.small(false);
        WindowLabelling labelling = new WindowLabelling(true, 2, List.of("b"));
        VigilModel window = base.toBuilder()
                .section(new WindowSection(2, "c", 50.0, "windows-closed", labelling))
                .build();
        byte[] bytes = ModelFile.standard().toBytes(window);
        String json = new String(bytes, StandardCharsets.UTF_8).replaceAll("\\s", "");
        assertTrue(json.contains("\"window\":{\"version\":2,\"required\":true"), json);
        assertTrue(json.contains("\"near_events\":\"exclude\",\"event_offsets\":2"), json);
        assertTrue(json.contains("\"background_classes\":[\"b\"]"), json);
        WindowSection back = ModelFile.standard()
                .read(bytes, "w.json")
                .section(WindowSection.class)
                .orElseThrow();
        assertEquals(labelling, back.labelling());
        assertEquals(List.of("c", "b"), back.silentClasses());
        assertTrue(new WindowSection(2, "c", 50.0, "immediate").labelling().original());
        assertMessage(
                () -> new WindowSection(2, "c", 50.0, "immediate", new WindowLabelling(false, 0, List.of("c"))),
                "repeats the background label");
        assertMessage(
                () -> new WindowSection(1, "c", 50, "immediate", new WindowLabelling(false, 0, List.of("z")))
                        .checkClasses(List.of("a", "b", "c")),
                "background_classes 'z' is not one of the model's classes");
        assertMessage(() -> new WindowLabelling(false, -1, List.of()), "event_offsets must be ≥ 0");
    }

    @Test
    void foldsByRecordingAreWrittenAsVersionThreeAndOlderVersionsReadAsNotGrouped() throws ModelFormatException {
        VigilModel base = TestModels.small(false);
        WindowSection grouped = new WindowSection(2, "c", 50.0, "windows-closed", WindowLabelling.ORIGINAL, true);
        byte[] bytes =
                ModelFile.standard().toBytes(base.toBuilder().section(grouped).build());
        String json = new String(bytes, StandardCharsets.UTF_8).replaceAll("\\s", "");
        assertTrue(json.contains("\"window\":{\"version\":3,\"required\":true"), json);
        assertTrue(json.contains("\"folds\":\"recording\""), json);
        WindowSection back = ModelFile.standard()
                .read(bytes, "w.json")
                .section(WindowSection.class)
                .orElseThrow();
        assertEquals(grouped, back);
        assertTrue(back.foldsByRecording());
        assertTrue(!new WindowSection(2, "c", 50.0, "immediate").foldsByRecording());
        String bad = new String(bytes, StandardCharsets.UTF_8).replace("\"recording\"", "\"random\"");
        assertThrows(ModelFormatException.class, () -> ModelFile.standard()
                .read(bad.getBytes(StandardCharsets.UTF_8), "w.json"));
    }

    @Test
    void invalidSectionsAreRejectedNamingTheField() {
        assertMessage(() -> new WindowSection(0, "bg", 50, "immediate"), "window.stride must be ≥ 1");
        assertMessage(() -> new WindowSection(1, " ", 50, "immediate"), "window.background_label");
        assertMessage(() -> new WindowSection(1, "bg", -1, "immediate"), "window.sampling_rate_hz");
        assertMessage(() -> new WindowSection(1, "bg", 50, "refractory:0"), "window.rearm");
        VigilModel base = TestModels.small(false);
        assertMessage(
                () -> base.toBuilder()
                        .section(new WindowSection(6, "a", 50, "immediate"))
                        .build(),
                "window.stride 6 exceeds the window length 5");
        assertMessage(
                () -> new WindowSection(1, "z", 50, "immediate").checkClasses(List.of("a", "b")),
                "'z' is not one of the model's classes");
    }

    @Test
    void seriesAndWatchModesRefuseEachOthersModels() {
        VigilModel series = TestModels.small(false);
        VigilModel window = series.toBuilder()
                .section(new WindowSection(2, "c", 50, "immediate"))
                .build();
        WindowModels.requireSeriesModel(series, "s.json");
        assertEquals(2, WindowModels.requireWindowModel(window, "w.json").stride());
        assertMessage(() -> WindowModels.requireSeriesModel(window, "w.json"), "w.json is a window model");
        assertMessage(() -> WindowModels.requireWindowModel(series, "s.json"), "vigil train --recordings");
    }

    private static void assertMessage(Runnable r, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
