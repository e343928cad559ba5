package io.vigil.model.json;

import java.util.List;

/**
 * The registry of optional model-file sections this Vigil understands, one line per section type, so
 * adding a section touches one line here plus its own codec.
 */
public final class ModelSections {
    private ModelSections() {}

    /** Every known section codec. */
    public static List<SectionCodec<?>> all() {
        return List.of(
                new CompleteSeriesCodec(),
                new LinearSvmCodec(),
                new CalibrationCodec(),
                new WindowCodec(),
                new WatchCertificateCodec());
    }
}
