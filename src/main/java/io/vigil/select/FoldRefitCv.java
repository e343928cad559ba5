package io.vigil.select;

import io.vigil.classify.Knn;
import io.vigil.data.Folds;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LdgParams;
import io.vigil.util.Progress;

/** Straightforward 3-NN CV with LDG refitted per fold and γ (method notes §1 pitfall). */
final class FoldRefitCv {
    private FoldRefitCv() {}

    static double[][] knnAccuracy(
            double[][] x,
            int[] y,
            int numClasses,
            int neighbors,
            double[] gammas,
            int[] dims,
            int knnK,
            int[][] testFolds,
            Progress progress) {
        int[][] correct = new int[gammas.length][dims.length];
        int total = 0;
        for (int[] test : testFolds) {
            int[] train = Folds.complement(test, x.length);
            double[][] xTrain = Folds.rows(x, train);
            int[] yTrain = Folds.labels(y, train);
            for (int gi = 0; gi < gammas.length; gi++) {
                LdgBasis basis = Ldg.fit(xTrain, yTrain, numClasses, new LdgParams(neighbors, gammas[gi]));
                for (int di = 0; di < dims.length; di++) {
                    int l = Math.min(dims[di], basis.rank());
                    Knn knn = Knn.fit(basis.project(xTrain, l), yTrain, numClasses);
                    double[] q = new double[l];
                    for (int i : test) {
                        basis.project(x[i], l, q);
                        if (knn.predict(q, knnK) == y[i]) {
                            correct[gi][di]++;
                        }
                    }
                }
                progress.step();
            }
            total += test.length;
        }
        double[][] acc = new double[gammas.length][dims.length];
        for (int gi = 0; gi < gammas.length; gi++) {
            for (int di = 0; di < dims.length; di++) {
                acc[gi][di] = (double) correct[gi][di] / total;
            }
        }
        return acc;
    }
}
