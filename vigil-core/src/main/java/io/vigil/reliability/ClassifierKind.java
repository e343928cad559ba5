package io.vigil.reliability;

import io.vigil.util.EnumNames;

/**
 * The classifier whose complete-series label an early decision must match (thesis §5.6): local QDA with
 * diagonal class Gaussians found around the conditional mean (§5.6.1), a one-vs-rest linear SVM (Prop. 2,
 * eqs 5.12–5.13), or 3-NN in LDG space (probability rule only).
 */
public enum ClassifierKind {
    /** Local QDA in LDG space (the model's core classifier). */
    LOCAL_QDA("local-qda"),
    /** One-vs-rest linear SVM in LDG space (the model's {@code linear_svm} section). */
    LINEAR_SVM("linear-svm"),
    /**
     * 3-nearest-neighbours in LDG space (the thesis's scoring classifier, §3.4): no discriminant functions, so only
     * the probability rule can decide with it.
     */
    KNN("knn");

    private final String cliName;

    ClassifierKind(String cliName) {
        this.cliName = cliName;
    }

    /** Whether the classifier has discriminant functions the set rule can bound (all but {@link #KNN}). */
    public boolean hasDiscriminants() {
        return this != KNN;
    }

    /** The command-line name: {@code local-qda}, {@code linear-svm} or {@code knn}. */
    public String cliName() {
        return cliName;
    }

    /**
     * Parses a command-line name (case-insensitive).
     *
     * @throws IllegalArgumentException for an unknown name, listing the valid ones
     */
    public static ClassifierKind fromCliName(String name) {
        return EnumNames.parse(ClassifierKind.class, name, ClassifierKind::cliName, "classifier");
    }
}
