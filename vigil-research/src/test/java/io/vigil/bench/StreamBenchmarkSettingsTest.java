package io.vigil.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.data.synthetic.SyntheticKind;
import org.junit.jupiter.api.Test;

/** {@link StreamBenchmark.Settings}: the observation pattern decides what the job observes in any order. */
class StreamBenchmarkSettingsTest {
    @Test
    void aUnivariateSeriesIsObservedInAnyOrderUnlessEveryValueArrivesInTimeOrder() {
        StreamBenchmark.Settings complete =
                StreamBenchmark.Settings.builder(SyntheticKind.CBF).build();
        assertFalse(complete.anyOrder());
        assertFalse(complete.session().anyOrder());
        StreamBenchmark.Settings missing = StreamBenchmark.Settings.builder(SyntheticKind.CBF)
                .pattern(ObservationPattern.builder().missing(0.2).build())
                .build();
        assertTrue(missing.anyOrder(), "a missing value must not leave a prefix waiting for it");
        assertTrue(missing.session().anyOrder());
        assertFalse(missing.shuffle());
        assertTrue(StreamBenchmark.Settings.builder(SyntheticKind.MULTI_CBF)
                .build()
                .anyOrder());
    }

    @Test
    void aPatternNamingAChannelTheKindLacksOrDroppingEveryChannelIsRefused() {
        IllegalArgumentException lag = assertThrows(
                IllegalArgumentException.class, () -> StreamBenchmark.Settings.builder(SyntheticKind.MULTI_CBF)
                        .pattern(ObservationPattern.builder().lag(3, 1).build())
                        .build());
        assertTrue(
                lag.getMessage().contains("names a channel multi-cbf does not have (channels 0..2)"), lag.getMessage());
        IllegalArgumentException all = assertThrows(
                IllegalArgumentException.class, () -> StreamBenchmark.Settings.builder(SyntheticKind.MULTI_CBF)
                        .pattern(ObservationPattern.builder()
                                .drop(0)
                                .drop(1)
                                .drop(2)
                                .build())
                        .build());
        assertEquals("the pattern drops every channel of multi-cbf", all.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StreamBenchmark.Settings.builder(SyntheticKind.CBF)
                .pattern(ObservationPattern.builder().drop(0).build())
                .build());
    }
}
