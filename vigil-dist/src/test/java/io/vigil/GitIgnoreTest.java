package io.vigil;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What the README walkthrough writes at the top of a clone (generated data, a trained model) is ignored by git,
 * while the model fixtures under {@code src/test/resources} stay tracked. Asked of git itself ({@code git
 * check-ignore}), so the rule is tested as git applies it.
 */
class GitIgnoreTest {
    @Test
    void walkthroughOutputsAreIgnoredAndFixturesAreNot() throws Exception {
        Assumptions.assumeTrue(
                Files.isDirectory(Path.of(".git")) || Files.isRegularFile(Path.of(".git")), "not a git checkout");
        for (String path : List.of("data/CBF/CBF_TRAIN.tsv", "cbf.model.json", "target/vigil.jar")) {
            assertEquals(0, checkIgnore(path), path + " is ignored");
        }
        for (String path :
                List.of("src/test/resources/fixtures/new.model.json", "src/main/java/io/vigil/data/X.java")) {
            assertEquals(1, checkIgnore(path), path + " is not ignored");
        }
    }

    /** {@code git check-ignore -q --no-index PATH}: 0 when ignored, 1 when not. */
    private static int checkIgnore(String path) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("git", "check-ignore", "-q", "--no-index", path)
                    .redirectErrorStream(true)
                    .start();
        } catch (java.io.IOException noGit) {
            Assumptions.abort("git is not installed");
            return -1;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS), "git check-ignore timed out");
        return p.exitValue();
    }
}
