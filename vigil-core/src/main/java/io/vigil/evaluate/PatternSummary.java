package io.vigil.evaluate;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.ObservationPattern;
import java.util.List;
import java.util.Map;

/**
 * An {@link ObservationPattern} as the {@code --json} outputs of {@code evaluate}, {@code replay} and the experiments
 * write it: channel lags keyed by the channel's index, the dropped channels in order.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PatternSummary(
        double missing, Map<Integer, Integer> channelLags, List<Integer> droppedChannels, boolean shuffled, long seed) {
    /** The summary of {@code p}. */
    public static PatternSummary of(ObservationPattern p) {
        return new PatternSummary(p.missing(), p.lags(), List.copyOf(p.dropped()), p.shuffled(), p.seed());
    }
}
