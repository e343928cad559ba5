package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.evaluate.Evaluation;
import io.vigil.flink.cli.Json;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
        Dataset test =
                data.loadTest(model.classNames(), model.seriesLength(), outOfRange.bounds(model, spec.commandLine()));
        outOfRange.report(spec.commandLine().getErr());
        data.checkLength(test, true, model.length(), modelFile);
        Evaluation e;
        try {
            e = Evaluation.of(model, test);
        } catch (RuntimeException failure) {
            throw outOfRange.explain(failure);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("dataset", data.datasetName());
            o.put("test_size", e.testSize());
            o.put("accuracy_3nn", e.accuracy3nn());
            o.put("accuracy_1nn", e.accuracy1nn());
            o.put("accuracy_local_qda", e.accuracyLocalQda());
            o.put("model", modelFile.toString());
            o.put("model_dataset", model.datasetName());
            o.put("dims", model.dims());
            out.println(Json.line(o));
        } else {
            out.printf(
                    Locale.ROOT,
                    "%s: %d test series; accuracy 3-NN %.4f, 1-NN %.4f, local QDA %.4f (model %s, dims %d)%n",
                    data.datasetName(),
                    e.testSize(),
                    e.accuracy3nn(),
                    e.accuracy1nn(),
                    e.accuracyLocalQda(),
                    modelFile,
                    model.dims());
        }
        out.flush();
        return 0;
    }
}
