package io.vigil.model.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.model.ModelSection;
import io.vigil.model.ModelShape;

/**
 * Reads and writes one {@link ModelSection} type. The payload is a JSON object; {@link ModelJson} has the
 * exact matrix encodings and strict field readers. Each codec versions its own payload independently of
 * the file's format version.
 *
 * @param <T> the section type
 */
public interface SectionCodec<T extends ModelSection> {
    /** The section name, equal to {@link ModelSection#sectionName()} of its instances. */
    String name();

    /** The section class. */
    Class<T> type();

    /** The newest payload version this codec writes and reads. */
    int version();

    /**
     * The payload version {@code section} is written with: by default {@link #version()}; a codec whose newer version
     * only adds what some sections need writes the others with the older one, so older Vigils keep reading them and
     * refuse only what they would misread.
     */
    default int versionOf(T section) {
        return version();
    }

    /** Writes the payload into {@code out} (an empty object), fields in a fixed order. */
    void write(T section, ObjectNode out);

    /**
     * Reads a payload of the given version (≤ {@link #version()}).
     *
     * @param path field path for messages, e.g. {@code sections.complete_series}
     * @throws IllegalArgumentException naming the field on a missing or malformed value
     */
    T read(JsonNode payload, int version, ModelShape shape, String path);
}
