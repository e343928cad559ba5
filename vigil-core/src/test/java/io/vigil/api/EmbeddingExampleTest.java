package io.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.examples.EmbeddingExample;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/embedding.md's example is this test tree's {@link EmbeddingExample}, and it runs and decides. */
class EmbeddingExampleTest {
    private static final Path SOURCE = Path.of(
            System.getProperty("vigil.module.dir", "vigil-core"),
            "src/test/java/io/vigil/examples/EmbeddingExample.java");
    private static final Path DOC = Path.of("docs/embedding.md");

    @TempDir
    Path dir;

    @Test
    void theDocsExampleIsTheCompiledOneAndLoadsAndDecidesWithinTwentyLines() throws Exception {
        String source = Files.readString(SOURCE);
        String example = source.substring(source.indexOf("import "));
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(DOC));
        assertTrue(m.find(), "docs/embedding.md has a java block");
        assertEquals(example, m.group(1), "docs/embedding.md's first java block must be EmbeddingExample.java");
        long body = example.lines()
                .filter(l -> !l.startsWith("import ") && !l.isBlank())
                .count();
        assertTrue(body <= 20, body + " lines besides the imports");
    }

    @Test
    void theExampleDecidesAStreamAsASessionDoes() throws Exception {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 40, 5, 8L);
        VigilModel model = VigilSessionTest.train(data, io.vigil.data.ObservationPattern.complete());
        Path file = dir.resolve("cbf.model");
        ModelFile.standard().save(model, file);
        double[] x = data.test().series(0);
        String input = Arrays.stream(x).mapToObj(Double::toString).collect(Collectors.joining("\n"));
        String printed = run(file, input);
        VigilSession s = Vigil.of(model).newSession();
        Optional<EarlyDecision> d = Optional.empty();
        for (int j = 0; j < x.length && d.isEmpty(); j++) {
            d = s.observe(x[j]);
        }
        EarlyDecision want = d.orElseThrow();
        assertEquals(want.label() + " at t=" + want.t() + (want.certified() ? ", certified" : "") + "\n", printed);
        String cut = run(file, Double.toString(x[0]));
        assertTrue(cut.endsWith("when the series ended at t=1\n"), cut);
    }

    private static String run(Path model, String input) throws Exception {
        InputStream in = System.in;
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            EmbeddingExample.main(new String[] {model.toString()});
        } finally {
            System.setIn(in);
            System.setOut(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
