package io.vigil.flink.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper the CLI uses for {@code --json} output: one object on one line, fields in the
 * order the command put them (use a {@link java.util.LinkedHashMap} or a record).
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Serialises a map or record on one line. */
    public static String line(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }
}
