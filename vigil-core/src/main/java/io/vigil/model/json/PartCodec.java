package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Reads and writes one core part of a model file (the pattern {@link SectionCodec} uses for optional sections):
 * each part owns a fixed set of top-level fields, which {@link ModelFile} lays out in the format's fixed order.
 *
 * @param <T> the part's type
 */
interface PartCodec<T> {
    /** The top-level fields this part owns, in file order. */
    List<String> fields();

    /** Adds this part's fields to {@code root}, nested fields in a fixed order. */
    void write(T part, ObjectNode root);

    /**
     * Reads this part from the file's top-level object.
     *
     * @throws IllegalArgumentException naming the field on a missing, unknown or malformed value
     */
    T read(JsonNode root);
}
