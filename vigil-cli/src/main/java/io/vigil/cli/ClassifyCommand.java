package io.vigil.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.Dataset;
import io.vigil.evaluate.Evaluation;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil classify}: classifies a labelled test split with a trained model and reports accuracy of
 * 3-NN, 1-NN and local QDA in LDG space. A test split whose series length differs from the model's, or
 * with a label the model does not know, is rejected with a message naming both.
 */
@Command(
        name = "classify",
        mixinStandardHelpOptions = true,
        description = "Classify the test split with a trained model: 3-NN, 1-NN and local-QDA accuracy in LDG space.")
public final class ClassifyCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file from 'vigil train'.")
    Path modelFile;

    @Mixin
    DataOptions data;

    @Mixin
    OutOfRangeOptions outOfRange;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        VigilModel model = ModelFile.standard().load(modelFile);
        WindowModels.requireSeriesModel(model, modelFile.toString());
        Dataset test = data.loadTest(model, modelFile, outOfRange);
        Evaluation e;
        try {
            e = Evaluation.of(model, test);
        } catch (RuntimeException failure) {
            throw outOfRange.explain(failure);
        }
        Result r = new Result(
                data.datasetName(),
                e.testSize(),
                e.accuracy3nn(),
                e.accuracy1nn(),
                e.accuracyLocalQda(),
                modelFile.toString(),
                model.datasetName(),
                model.dims());
        return CommandOutput.print(spec, json, r, r.text());
    }

    /** {@code classify --json}'s object; {@link #text} the one line without it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Result(
            String dataset,
            int testSize,
            @JsonProperty("accuracy_3nn") double accuracy3nn,
            @JsonProperty("accuracy_1nn") double accuracy1nn,
            double accuracyLocalQda,
            String model,
            String modelDataset,
            int dims) {
        String text() {
            return String.format(
                    Locale.ROOT,
                    "%s: %d test series; accuracy 3-NN %.4f, 1-NN %.4f, local QDA %.4f (model %s, dims %d)",
                    dataset,
                    testSize,
                    accuracy3nn,
                    accuracy1nn,
                    accuracyLocalQda,
                    model,
                    dims);
        }
    }
}
