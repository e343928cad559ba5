package io.vigil.stream;

import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.model.Projection;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import io.vigil.model.json.ModelFormatException;
import io.vigil.util.Failures;
import java.util.Objects;

/**
 * A model file's bytes checked for the stream job: it parses ({@link ModelFile#standard()}), its projection is
 * linear, and it builds an {@link EarlyClassifier} with the job's decision parameters. The one check shared by
 * {@code vigil run}, {@code vigil publish-model} and the keyed stage, which ignores a published model that fails it.
 *
 * @param id the model id written in decisions ({@link ModelId#of})
 * @param tag the session tag of this model and the parameters' estimator ({@link ModelId#tag})
 * @param tracker the per-series logic under this model
 */
public record StreamModel(String id, long tag, SeriesTracker tracker) {
    /** A model that cannot be used; the message is the one line to show (file or source, and the reason). */
    public static final class Unusable extends IllegalArgumentException implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        Unusable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Validates the fields. */
    public StreamModel {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tracker, "tracker");
    }

    /**
     * Checks and loads model-file bytes.
     *
     * @param source what to call the bytes in messages (a file name, a topic offset)
     * @throws Unusable with a one-line reason naming {@code source} when the model is not usable
     */
    public static StreamModel load(byte[] bytes, DecisionParams params, SessionSettings settings, String source) {
        VigilModel model = parse(bytes, source);
        EarlyClassifier classifier;
        try {
            WindowModels.requireSeriesModel(model, source);
            classifier = EarlyClassifier.of(model, params);
        } catch (IllegalArgumentException e) {
            throw new Unusable(source + ": " + e.getMessage(), e);
        }
        String id = ModelId.of(bytes);
        long tag = ModelId.tag(id, params.estimator());
        return new StreamModel(id, tag, new SeriesTracker(classifier, settings, id, tag));
    }

    /**
     * Parses model-file bytes and requires a linear projection (early decisions need the basis B).
     *
     * @throws Unusable with a one-line reason naming {@code source}
     */
    public static VigilModel parse(byte[] bytes, String source) {
        VigilModel model;
        try {
            model = ModelFile.standard().read(bytes, source);
        } catch (ModelFormatException e) {
            throw new Unusable(e.getMessage(), e);
        }
        if (!model.projection().isLinear()) {
            throw new Unusable(source + ": " + Projection.NON_LINEAR, null);
        }
        return model;
    }
}
