package io.vigil.evaluate;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.model.VigilModel;

/**
 * Test-set accuracy of a trained model with the three classifiers the thesis uses on LDG features: 3-NN
 * (§3.4–3.5, the Table 3.3 metric), 1-NN, and local QDA (§2.1.2) with the model's neighbour count.
 *
 * @param testSize number of test series
 * @param accuracy3nn fraction correct with 3-NN in LDG space
 * @param accuracy1nn fraction correct with 1-NN in LDG space
 * @param accuracyLocalQda fraction correct with local QDA in LDG space
 */
public record Evaluation(int testSize, double accuracy3nn, double accuracy1nn, double accuracyLocalQda) {
    /**
     * Classifies every test series.
     *
     * @param test series of the model's length, indexed by the model's classes
     * @throws IllegalArgumentException when the length or class list differs from the model's
     */
    public static Evaluation of(VigilModel model, Dataset test) {
        if (test.length() != model.length()) {
            throw new IllegalArgumentException("test series have length " + test.length()
                    + " but the model was trained on series of length " + model.length());
        }
        if (!test.classNames().equals(model.classNames())) {
            throw new IllegalArgumentException(
                    "test classes " + test.classNames() + " are not indexed like the model's " + model.classNames());
        }
        Knn knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        LocalQda qda = model.localQda();
        LocalQda.Workspace ws = qda.newWorkspace();
        double[] q = new double[model.dims()];
        int c3 = 0;
        int c1 = 0;
        int cq = 0;
        for (int i = 0; i < test.size(); i++) {
            model.project(test.series(i), q);
            int truth = test.classOf(i);
            c3 += knn.predict(q, 3) == truth ? 1 : 0;
            c1 += knn.predict(q, 1) == truth ? 1 : 0;
            cq += qda.predict(q, ws) == truth ? 1 : 0;
        }
        double n = test.size();
        return new Evaluation(test.size(), c3 / n, c1 / n, cq / n);
    }
}
