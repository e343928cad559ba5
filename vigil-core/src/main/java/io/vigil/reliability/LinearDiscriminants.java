package io.vigil.reliability;

import java.util.Arrays;

/**
 * Linear discriminants f_g(y) = w_gᵀy + b_g, e.g. a one-vs-all linear SVM (thesis §5.3.2). Their differences are
 * linear, so min/max over the sets have the closed forms of Prop. 2 and (5.12)–(5.13). Immutable.
 */
public final class LinearDiscriminants implements Discriminants {
    private final double[][] weights;
    private final double[] biases;

    /**
     * @param weights G×ℓ weight vectors, one row per class (copied)
     * @param biases G biases (copied)
     * @throws IllegalArgumentException on empty, ragged or mismatched input or non-finite values
     */
    public LinearDiscriminants(double[][] weights, double[] biases) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("no classes: the weight matrix has no rows");
        }
        if (biases.length != weights.length) {
            throw new IllegalArgumentException(
                    "there are " + weights.length + " weight vectors and " + biases.length + " biases");
        }
        int ell = weights[0].length;
        if (ell == 0) {
            throw new IllegalArgumentException("the weight vectors are empty");
        }
        this.weights = new double[weights.length][];
        for (int g = 0; g < weights.length; g++) {
            if (weights[g].length != ell) {
                throw new IllegalArgumentException(
                        "weight vector " + g + " has length " + weights[g].length + ", vector 0 has length " + ell);
            }
            for (int i = 0; i < ell; i++) {
                if (!Double.isFinite(weights[g][i])) {
                    throw new IllegalArgumentException("weight (" + g + "," + i + ") is " + weights[g][i]);
                }
            }
            if (!Double.isFinite(biases[g])) {
                throw new IllegalArgumentException("bias " + g + " is " + biases[g]);
            }
            this.weights[g] = weights[g].clone();
        }
        this.biases = biases.clone();
    }

    @Override
    public int numClasses() {
        return weights.length;
    }

    @Override
    public int dimension() {
        return weights[0].length;
    }

    /** Coefficient i of w_g. */
    public double weight(int g, int i) {
        return weights[g][i];
    }

    /** A copy of w_g. */
    public double[] weights(int g) {
        return weights[g].clone();
    }

    /** b_g. */
    public double bias(int g) {
        return biases[g];
    }

    @Override
    public double value(int g, double[] y) {
        double[] w = weights[g];
        checkLength(y.length, w.length);
        double s = biases[g];
        for (int i = 0; i < w.length; i++) {
            s += w[i] * y[i];
        }
        return s;
    }

    @Override
    public double expand(int g, double[] m, double[] grad, double[] curv) {
        double[] w = weights[g];
        checkLength(m.length, w.length);
        System.arraycopy(w, 0, grad, 0, w.length);
        Arrays.fill(curv, 0, w.length, 0.0);
        return value(g, m);
    }

    private static void checkLength(int got, int ell) {
        if (got != ell) {
            throw new IllegalArgumentException(
                    "the point has " + got + " entries, the discriminants have dimension " + ell);
        }
    }
}
