package io.vigil.model.json;

import java.io.IOException;

/**
 * A model file that cannot be used: unreadable JSON, a missing or malformed field, an unsupported format
 * version, an unknown required section, or dimensions that do not fit together (docs/data-and-training.md, "Model files"). The
 * message names the file and the offending field.
 */
public final class ModelFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param source file name or other description of where the model came from
     * @param reason what is wrong, naming the field (and both sizes for a dimension mismatch)
     */
    public ModelFormatException(String source, String reason) {
        super("model " + source + ": " + reason);
    }

    /** As {@link #ModelFormatException(String, String)} with the underlying cause. */
    public ModelFormatException(String source, String reason, Throwable cause) {
        super("model " + source + ": " + reason, cause);
    }
}
