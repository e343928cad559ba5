package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReselectInFoldsCommandTest {
    private static CalibrationSection train(Path data, Path out, String... more) throws Exception {
        String[] base = {
            "train", "--data", data.toString(), "--dataset", "CBF", "--out", out.toString(), "--seed", "4", "--json"
        };
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        Run r = ModelCommandsTest.run(args);
        assertEquals(0, r.exit(), r.err());
        VigilModel m = ModelFile.standard().load(out);
        return m.section(CalibrationSection.class).orElseThrow();
    }

    /**
     * {@code train --reselect-in-folds} calibrates with folds that choose their own k, γ, ℓ: the full model is the
     * same, its cross-fitted curves are not (the folds no longer reuse the full model's choice).
     */
    @Test
    void reselectingInTheFoldsChangesTheCrossFitOnly(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "30", "--test", "5", "--seed", "6", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        CalibrationSection reused = train(data, dir.resolve("reused.json"));
        CalibrationSection reselected = train(data, dir.resolve("reselected.json"), "--reselect-in-folds");
        VigilModel a = ModelFile.standard().load(dir.resolve("reused.json"));
        VigilModel b = ModelFile.standard().load(dir.resolve("reselected.json"));
        assertEquals(a.gamma(), b.gamma());
        assertEquals(a.dims(), b.dims());
        assertEquals(reused.curves().size(), reselected.curves().size());
        assertNotEquals(reused.curves(), reselected.curves());
        for (int c = 0; c < reused.curves().size(); c++) {
            assertEquals(
                    reused.curves().get(c).series(), reselected.curves().get(c).series(), "same held-out series");
        }
        Run transfer = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--out",
                dir.resolve("t.json").toString(),
                "--reducer",
                "transfer-ldg",
                "--reselect-in-folds");
        assertEquals(2, transfer.exit(), transfer.err());
        assertTrue(transfer.err().contains("--reselect-in-folds"), transfer.err());
    }
}
