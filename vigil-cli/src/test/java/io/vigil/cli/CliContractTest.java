package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's outputs are a contract: for the cases in {@code contract/cases.txt} (generate, train, inspect, evaluate,
 * classify and usage errors on small generated CBF and three-channel CBF) stdout, stderr, the exit code and the model
 * file's bytes equal the fixtures beside it, which were written by the release before the embedding API and the thin
 * CLI (the single-module build at e59c5f4, run as {@code java -jar vigil.jar}), so the refactoring changed no byte;
 * the cases listed after them (generate's {@code --json}, kernel and refined models) by the build before the commands
 * printed result records, so that change changed no byte either.
 * Fixtures rather than a comparison of two code paths in one build: the old path no longer exists, and the fixtures
 * keep guarding every later change.
 *
 * <p>Before comparing, both sides are normalised: wall-clock figures ({@code fit_seconds}, {@code us_per_sample}, train's
 * "in X s", the µs/sample column of evaluate's table), creation times (ISO instants), the Vigil version (the jar's, "dev" from classes) and the sizes its length changes in inspect and the test directory ($DIR).
 * A model file is compared by the SHA-256 of its bytes with the creation time and the version blanked.
 *
 * <p>After an intended change of an output, regenerate the fixtures with {@code mvn -o -q test -pl vigil-cli -am
 * -Dtest=CliContractTest -Dsurefire.failIfNoSpecifiedTests=false -Dvigil.contract.update=true} and review the diff.
 */
class CliContractTest {
    private static final String FIXTURES = "contract/";
    private static final Pattern SECONDS = Pattern.compile("\"(fit_seconds|us_per_sample)\":[-0-9.eE]+");
    private static final Pattern TRAIN_TIME = Pattern.compile(" in [0-9]+\\.[0-9] s$", Pattern.MULTILINE);
    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    private static final Pattern MODEL_CREATED = Pattern.compile("\"created\": ?\"[^\"]*\"");
    /** The version is the jar's, "dev" when run from classes as here. */
    private static final Pattern VERSION = Pattern.compile("\"vigil_version\": ?\"[^\"]*\"");

    private static final Pattern WRITTEN_BY = Pattern.compile("written by Vigil [^)]*\\)");

    /** What the version's length changes in inspect: the file's size and its vigil_version part. */
    private static final Pattern VERSION_BYTES = Pattern.compile(
            "file size \\d+ bytes|\"file_bytes\":\\d+|\"vigil_version\":\\d+|(?m)^  vigil_version +\\d+ bytes$");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> everyCaseMatchesItsFixture() throws IOException {
        boolean update = Boolean.getBoolean("vigil.contract.update");
        Path sources = Path.of(System.getProperty("vigil.module.dir", "vigil-cli"), "src/test/resources", FIXTURES);
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : resource("cases.txt").lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] words = line.replace("$DIR", dir.toString()).split(" ");
            String name = words[0];
            // The cases run in file order (later ones read what earlier ones wrote), so each runs as it is listed.
            if (name.equals("@model")) {
                String hash = modelHash(Path.of(words[2]));
                if (update) {
                    Files.writeString(sources.resolve(words[1] + ".sha256"), hash + "\n");
                }
                String expected = resource(words[1] + ".sha256").strip();
                tests.add(DynamicTest.dynamicTest(words[1], () -> assertEquals(expected, hash, words[2])));
                continue;
            }
            String[] args = java.util.Arrays.copyOfRange(words, 1, words.length);
            Run r = Run.of(args);
            String out = r.out().replace(dir.toString(), "$DIR");
            String err = r.err().replace(dir.toString(), "$DIR");
            if (update) {
                Files.writeString(sources.resolve(name + ".out"), out);
                Files.writeString(sources.resolve(name + ".err"), err);
                Files.writeString(sources.resolve(name + ".exit"), r.exit() + "\n");
            }
            String wantOut = resource(name + ".out");
            String wantErr = resource(name + ".err");
            int wantExit = Integer.parseInt(resource(name + ".exit").strip());
            tests.add(DynamicTest.dynamicTest(name, () -> {
                assertEquals(wantExit, r.exit(), name + " exit code; stderr: " + r.err());
                assertEquals(normalise(wantOut), normalise(out), name + " stdout");
                assertEquals(normalise(wantErr), normalise(err), name + " stderr");
            }));
        }
        return tests.stream();
    }

    /** Blanks what differs between runs of the same build (see the class comment). */
    static String normalise(String text) {
        String s = SECONDS.matcher(text).replaceAll("\"$1\":X");
        s = TRAIN_TIME.matcher(s).replaceAll(" in X s");
        s = INSTANT.matcher(s).replaceAll("INSTANT");
        s = VERSION.matcher(s).replaceAll("\"vigil_version\":\"V\"");
        s = WRITTEN_BY.matcher(s).replaceAll("written by Vigil V)");
        s = VERSION_BYTES.matcher(s).replaceAll("SIZE");
        StringBuilder b = new StringBuilder();
        int column = -1;
        for (String line : s.split("\n", -1)) {
            if (line.startsWith("|") && line.contains("µs/sample")) {
                List<String> cells = List.of(line.split("\\|", -1));
                column = cells.indexOf(" µs/sample ");
            } else if (!line.startsWith("|")) {
                column = -1;
            } else if (column > 0 && !line.startsWith("|---")) {
                String[] cells = line.split("\\|", -1);
                if (column < cells.length) {
                    cells[column] = " X ";
                }
                line = String.join("|", cells);
            }
            b.append(line).append('\n');
        }
        return b.substring(0, b.length() - 1);
    }

    private static String modelHash(Path model) throws IOException {
        String text = MODEL_CREATED.matcher(Files.readString(model)).replaceAll("\"created\":\"X\"");
        text = VERSION.matcher(text).replaceAll("\"vigil_version\":\"V\"");
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = CliContractTest.class.getClassLoader().getResourceAsStream(FIXTURES + name)) {
            if (in == null) {
                throw new IOException("no fixture " + FIXTURES + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
