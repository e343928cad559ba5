package io.vigil.model;

/**
 * An optional, typed part of a model file beyond the core (e.g. {@code complete_series}: the
 * complete-series Gaussian of thesis §5.4). Sections let the format grow without a version bump: files
 * without a section still load, and a reader that meets a section it does not know skips it when the
 * section is optional and rejects the file when the section is {@linkplain #required() required}. Each
 * section type has a codec registered in {@code io.vigil.model.json.ModelSections#all()}.
 */
public interface ModelSection {
    /** Name of the section in the file's {@code sections} object, lower_snake_case. */
    String sectionName();

    /**
     * Whether a Vigil that does not know this section must refuse the file (true when using the model
     * without the section would give wrong answers).
     */
    boolean required();

    /**
     * Checks the section's dimensions against the core model.
     *
     * @throws IllegalArgumentException naming the field and both sizes on a mismatch
     */
    void checkShape(ModelShape shape);
}
