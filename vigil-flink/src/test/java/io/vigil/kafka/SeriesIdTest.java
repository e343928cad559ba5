package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SeriesIdTest {

    @Test
    void formatsAndParsesBothForms() {
        assertEquals("CBF/test/17", new SeriesId("CBF", "test", 17, 0).toString());
        assertEquals("CBF/test/17#2", new SeriesId("CBF", "test", 17, 2).toString());
        assertEquals(Optional.of(new SeriesId("CBF", "test", 17, 0)), SeriesId.parse("CBF/test/17"));
        assertEquals(Optional.of(new SeriesId("CBF", "train", 0, 3)), SeriesId.parse("CBF/train/0#3"));
    }

    @Test
    void parsesOnlyCanonicalIds() {
        for (String s : new String[] {
            "s-17",
            "CBF/test",
            "CBF/test/x",
            "CBF/test/-1",
            "CBF/test/017",
            "CBF/test/1#0",
            "CBF/test/1#",
            "a/b/c/1",
            "",
            "CBF/test/1#2#3"
        }) {
            assertEquals(Optional.empty(), SeriesId.parse(s), s);
        }
        assertEquals(Optional.empty(), SeriesId.parse(null));
    }

    @Test
    void rejectsPartsThatWouldNotParseBack() {
        assertThrows(IllegalArgumentException.class, () -> new SeriesId("a/b", "test", 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SeriesId("CBF", "te#st", 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SeriesId("", "test", 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SeriesId("CBF", "test", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SeriesId("CBF", "test", 1, -1));
    }
}
