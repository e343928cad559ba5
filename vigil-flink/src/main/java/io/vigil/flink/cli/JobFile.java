package io.vigil.flink.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A YAML job definition ({@code jobs/*.yaml}, read by {@code --job FILE}) turned into command-line arguments, so a
 * deployment keeps its model, topics and tuning in one reviewed file while flags on the command line still win.
 *
 * <p>Top-level keys are the long option names of the command without the dashes ({@code model}, {@code tau},
 * {@code dead-letter}, ...); a {@code kafka:} mapping holds Kafka client properties that are passed through as
 * they are. Values are written as given (relative paths stay relative). A {@code true} flag becomes the bare
 * option, {@code false} leaves it out. Unknown keys, values of the wrong shape, a nested {@code job} key and an
 * unreadable file are {@link JobFileException}s whose one-line message names the file, line and key.
 *
 * <p>Use: find the file with {@link #jobPath}, {@link #load} it against the command's spec, and parse {@link
 * #withArguments}{@code (argv)} with {@code setOverwrittenOptionsAllowed(true)}: the file's arguments come first,
 * so a single-valued option given on the command line overrides the file.
 */
public final class JobFile {
    /** The top-level key whose mapping holds Kafka client properties. */
    public static final String KAFKA_KEY = "kafka";

    /** The option that names a job file; a job file cannot name another one. */
    public static final String JOB_KEY = "job";

    private static final YAMLFactory YAML = new YAMLFactory();

    private final Path file;
    private final List<String> arguments;
    private final Map<String, String> kafkaProperties;

    private JobFile(Path file, List<String> arguments, Map<String, String> kafkaProperties) {
        this.file = file;
        this.arguments = Collections.unmodifiableList(arguments);
        this.kafkaProperties = Collections.unmodifiableMap(kafkaProperties);
    }

    /** The file this job was read from, as given. */
    public Path file() {
        return file;
    }

    /** The job's options as command-line arguments, in file order, e.g. {@code [--model, m.json, --bounded]}. */
    public List<String> arguments() {
        return arguments;
    }

    /** Kafka client properties from the {@code kafka:} mapping (nested keys joined with dots), in file order. */
    public Map<String, String> kafkaProperties() {
        return kafkaProperties;
    }

    /** The job's arguments followed by {@code argv}, so that options on the command line override the file. */
    public List<String> withArguments(List<String> argv) {
        List<String> all = new ArrayList<>(arguments);
        all.addAll(argv);
        return all;
    }

    /**
     * Finds {@code --job FILE} or {@code --job=FILE} in raw arguments (before any {@code --}).
     *
     * @throws JobFileException when {@code --job} has no value or is given more than once
     */
    public static Optional<Path> jobPath(List<String> argv) {
        String found = null;
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            if (arg.equals("--")) {
                break;
            }
            String value;
            if (arg.equals("--" + JOB_KEY)) {
                if (i + 1 >= argv.size()) {
                    throw new JobFileException("--job needs a FILE");
                }
                value = argv.get(++i);
            } else if (arg.startsWith("--" + JOB_KEY + "=")) {
                value = arg.substring(JOB_KEY.length() + 3);
            } else {
                continue;
            }
            if (found != null) {
                throw new JobFileException(
                        "--job given twice (" + found + ", " + value + "); a run reads one job file");
            }
            found = value;
        }
        return Optional.ofNullable(found).map(Path::of);
    }

    /**
     * Reads a job file and checks every key against the options of {@code spec}.
     *
     * @throws JobFileException naming the file (and line and key) when the file is missing, unreadable, not
     *     YAML, or holds an unknown key or a value of the wrong shape
     */
    public static JobFile load(Path yaml, CommandSpec spec) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(yaml);
        } catch (NoSuchFileException e) {
            throw new JobFileException("job file " + yaml + ": not found", e);
        } catch (IOException e) {
            throw new JobFileException("job file " + yaml + ": cannot read it (" + e + ")", e);
        }
        try (JsonParser parser = YAML.createParser(bytes)) {
            return new Reader(yaml, parser, optionsByKey(spec)).read();
        } catch (JsonProcessingException e) {
            String reason = e.getOriginalMessage().lines().findFirst().orElse("syntax error");
            throw new JobFileException(
                    yaml + ":" + e.getLocation().getLineNr() + ": not valid YAML: " + reason.strip(), e);
        } catch (IOException e) {
            throw new JobFileException("job file " + yaml + ": cannot read it (" + e + ")", e);
        }
    }

    /** Options addressable from a job file, by every long name without its dashes; help options are not. */
    private static Map<String, OptionSpec> optionsByKey(CommandSpec spec) {
        Map<String, OptionSpec> byKey = new TreeMap<>();
        for (OptionSpec option : spec.options()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            for (String name : option.names()) {
                if (name.startsWith("--") && name.length() > 2) {
                    byKey.put(name.substring(2), option);
                }
            }
        }
        return byKey;
    }

    /** One pass over the YAML tokens; keeps the file and parser for messages that name the line. */
    private static final class Reader {
        private final Path file;
        private final JsonParser parser;
        private final Map<String, OptionSpec> options;
        private final List<String> arguments = new ArrayList<>();
        private final Map<String, String> kafka = new LinkedHashMap<>();

        Reader(Path file, JsonParser parser, Map<String, OptionSpec> options) {
            this.file = file;
            this.parser = parser;
            this.options = options;
        }

        JobFile read() throws IOException {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw error(1, "empty job file; expected a mapping of option names to values");
            }
            if (token != JsonToken.START_OBJECT) {
                throw error(line(), "expected a mapping of option names to values, found " + describe(token));
            }
            Set<String> seen = new HashSet<>();
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                int line = line();
                if (!seen.add(key)) {
                    throw error(line, "key '" + key + "' appears twice");
                }
                JsonToken value = parser.nextToken();
                if (key.equals(KAFKA_KEY)) {
                    readKafka(value, line);
                } else if (key.equals(JOB_KEY)) {
                    throw error(line, "key 'job' is not allowed: a job file cannot name another job file");
                } else {
                    OptionSpec option = options.get(key);
                    if (option == null) {
                        throw error(line, "unknown key '" + key + "'; valid keys: " + validKeys());
                    }
                    readOption(key, option, value, line);
                }
            }
            if (parser.nextToken() != null) {
                throw error(line(), "more than one YAML document; a job file holds one mapping");
            }
            return new JobFile(file, arguments, kafka);
        }

        private void readOption(String key, OptionSpec option, JsonToken value, int line) throws IOException {
            String name = "--" + key;
            if (option.arity().max() == 0) {
                if (value == JsonToken.VALUE_TRUE) {
                    arguments.add(name);
                } else if (value != JsonToken.VALUE_FALSE) {
                    throw error(line, "key '" + key + "' expects true or false, found " + describe(value));
                }
                return;
            }
            if (value == JsonToken.START_ARRAY) {
                if (!option.isMultiValue()) {
                    throw error(line, "key '" + key + "' expects a single value, found a list");
                }
                while ((value = parser.nextToken()) != JsonToken.END_ARRAY) {
                    arguments.add(name);
                    arguments.add(scalar(key, option, value, line()));
                }
            } else if (value == JsonToken.START_OBJECT) {
                if (!option.typeInfo().isMap()) {
                    String expected = option.isMultiValue() ? "a value or a list" : "a single value";
                    throw error(line, "key '" + key + "' expects " + expected + ", found a mapping");
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String entry = parser.currentName();
                    int entryLine = line();
                    arguments.add(name);
                    arguments.add(entry + "=" + scalar(key + "." + entry, option, parser.nextToken(), entryLine));
                }
            } else {
                arguments.add(name);
                arguments.add(scalar(key, option, value, line));
            }
        }

        /** The scalar's text as written; numeric options must get numbers so the error can name the line. */
        private String scalar(String key, OptionSpec option, JsonToken value, int line) throws IOException {
            if (value == null || !value.isScalarValue() || value == JsonToken.VALUE_NULL) {
                throw error(line, "key '" + key + "' expects a value, found " + describe(value));
            }
            String text = parser.getText();
            boolean converted = option.converters() != null && option.converters().length > 0;
            if (!converted && isIntegral(option.typeInfo().getType()) && value != JsonToken.VALUE_NUMBER_INT) {
                throw error(line, "key '" + key + "' expects a whole number, found '" + text + "'");
            }
            if (!converted && isDecimal(option.typeInfo().getType()) && !value.isNumeric()) {
                throw error(line, "key '" + key + "' expects a number, found '" + text + "'");
            }
            return text;
        }

        private void readKafka(JsonToken value, int line) throws IOException {
            if (value != JsonToken.START_OBJECT) {
                throw error(line, "key 'kafka' expects a mapping of Kafka client properties, found " + describe(value));
            }
            readKafka("");
        }

        /** Reads a mapping of client properties; nested mappings become dotted keys ({@code ssl: {key: v}}). */
        private void readKafka(String prefix) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = prefix + parser.currentName();
                int line = line();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.START_OBJECT) {
                    readKafka(key + ".");
                } else if (value.isScalarValue() && value != JsonToken.VALUE_NULL) {
                    if (kafka.put(key, parser.getText()) != null) {
                        throw error(line, "Kafka property 'kafka." + key + "' appears twice");
                    }
                } else {
                    throw error(line, "Kafka property 'kafka." + key + "' expects a value, found " + describe(value));
                }
            }
        }

        private String validKeys() {
            Set<String> keys = new TreeSet<>();
            for (OptionSpec option : new HashSet<>(options.values())) {
                keys.add(option.longestName().replaceFirst("^-+", ""));
            }
            keys.add(KAFKA_KEY);
            return String.join(", ", keys);
        }

        private int line() {
            return parser.currentTokenLocation().getLineNr();
        }

        private JobFileException error(int line, String message) {
            return new JobFileException(file + ":" + line + ": " + message);
        }
    }

    private static boolean isIntegral(Class<?> type) {
        return type == int.class
                || type == Integer.class
                || type == long.class
                || type == Long.class
                || type == short.class
                || type == Short.class;
    }

    private static boolean isDecimal(Class<?> type) {
        return type == double.class || type == Double.class || type == float.class || type == Float.class;
    }

    private static String describe(JsonToken token) {
        if (token == null) {
            return "the end of the file";
        }
        return switch (token) {
            case START_ARRAY -> "a list";
            case START_OBJECT -> "a mapping";
            case VALUE_NULL -> "no value";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_STRING -> "a string";
            default -> token.toString();
        };
    }
}
