package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multichannel {@code .ts} files (sktime/aeon layout), the time-major layout of {@link Dataset}, the length
 * policies for unequal lengths, and the multichannel generator.
 */
class MultichannelDataTest {
    private static final String HEAD =
            "@problemName M\n@univariate false\n@dimensions 2\n@classLabel true a b\n@data\n";

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private static DataFormatException fails(Path file, ReadOptions options) {
        return assertThrows(DataFormatException.class, () -> DatasetReader.read(file, options));
    }

    private static void assertAt(DataFormatException e, Path file, long line, String... fragments) {
        assertEquals(file, e.file(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":" + line + ": "), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.reason().contains(f), () -> "'" + e.reason() + "' lacks '" + f + "'");
        }
    }

    @Test
    void readsChannelsIntoTheTimeMajorLayout() throws IOException {
        Path f = write("M_TRAIN.ts", HEAD + "1,2,3:10,20,30:a\n4,5,6:40,50,60:b\n");
        Dataset ds = DatasetReader.read(f);
        assertEquals(2, ds.channels());
        assertEquals(List.of("0", "1"), ds.channelNames());
        assertEquals(3, ds.seriesLength());
        assertEquals(6, ds.length());
        assertArrayEquals(new double[] {1, 10, 2, 20, 3, 30}, ds.series(0));
        assertEquals(50, ds.value(1, 1, 1));
        assertEquals(6, ds.value(1, 0, 2));
        assertTrue(ds.toString().contains("C=2, d=3"), ds.toString());
    }

    @Test
    void channelErrorsNameFileAndLine() throws IOException {
        Path count = write("c.ts", HEAD + "1,2:3,4:a\n1,2:a\n");
        assertAt(fails(count, ReadOptions.DEFAULT), count, 7, "line 7 has 1 channels, @dimensions 2");
        Path bad = write("b.ts", HEAD + "1,2:3,x:a\n");
        assertAt(fails(bad, ReadOptions.DEFAULT), bad, 6, "channel 1 value 2", "'x' is not a number");
        Path dims = write("d.ts", "@dimensions two\n@data\n");
        assertAt(fails(dims, ReadOptions.DEFAULT), dims, 1, "'two' is not an integer");
        Path ragged = write("r.ts", HEAD + "1,2,3:4,5:a\n");
        assertAt(
                fails(ragged, ReadOptions.DEFAULT),
                ragged,
                6,
                "channels of the series have 2 to 3 values",
                "--length-policy");
    }

    @Test
    void unequalLengthsFollowThePolicy() throws IOException {
        Path f = write(
                "U_TRAIN.ts",
                HEAD.replace("@data", "@equalLength false\n@data") + "1,2,3:4,5,6:a\n1,2:3,4:b\n1,2,3,4:5,6,7,8:a\n");
        DataFormatException e = fails(f, ReadOptions.DEFAULT);
        assertAt(
                e,
                f,
                8,
                "line 8 has 2 values per channel, line 7 has 3",
                "shortest 2 at line 8",
                "longest 4 at line 9",
                "--length-policy truncate or pad-last");
        Dataset cut = DatasetReader.read(f, ReadOptions.DEFAULT.withLengthPolicy(LengthPolicy.TRUNCATE));
        assertEquals(2, cut.seriesLength());
        assertArrayEquals(new double[] {1, 5, 2, 6}, cut.series(2));
        Dataset pad = DatasetReader.read(f, ReadOptions.DEFAULT.withLengthPolicy(LengthPolicy.PAD_LAST));
        assertEquals(4, pad.seriesLength());
        assertArrayEquals(new double[] {1, 3, 2, 4, 2, 4, 2, 4}, pad.series(1));
        // A test split goes to the training length; what the policy cannot reach is an error at the line.
        ReadOptions toThree = ReadOptions.DEFAULT.withLength(3);
        Dataset cutTo3 = DatasetReader.read(
                write("t.ts", HEAD + "1,2,3,4:5,6,7,8:a\n"), toThree.withLengthPolicy(LengthPolicy.TRUNCATE));
        assertArrayEquals(new double[] {1, 5, 2, 6, 3, 7}, cutTo3.series(0));
        assertAt(fails(f, toThree.withLengthPolicy(LengthPolicy.TRUNCATE)), f, 8, "truncate cannot lengthen");
        // pad-last brings a longer test series to the training length by cutting it: the model has no more samples.
        Dataset padTo3 = DatasetReader.read(f, toThree.withLengthPolicy(LengthPolicy.PAD_LAST));
        assertArrayEquals(new double[] {1, 3, 2, 4, 2, 4}, padTo3.series(1));
        assertArrayEquals(new double[] {1, 5, 2, 6, 3, 7}, padTo3.series(2));
        assertEquals(LengthPolicy.PAD_LAST, LengthPolicy.fromCliName("pad-last"));
        assertThrows(IllegalArgumentException.class, () -> LengthPolicy.fromCliName("stretch"));
    }

    @Test
    void univariateRaggedRowsStillNameBothLines() throws IOException {
        Path f = write("R_TRAIN.tsv", "1\t1\t2\t3\n2\t1\t2\n1\t1\t2\t3\n");
        DataFormatException e = fails(f, ReadOptions.DEFAULT);
        assertAt(e, f, 2, "line 2 has 2 values, line 1 has 3", "--length-policy");
        Dataset pad = DatasetReader.read(f, ReadOptions.DEFAULT.withLengthPolicy(LengthPolicy.PAD_LAST));
        assertArrayEquals(new double[] {1, 2, 2}, pad.series(1));
        assertEquals(1, pad.channels());
    }

    @Test
    void generatedMultichannelCbfRoundTripsThroughTsAndGzip() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.MULTI_CBF, 12, 6, 3L);
        Dataset train = data.train();
        assertEquals(3, train.channels());
        assertEquals(128, train.seriesLength());
        assertEquals(3 * 128, train.length());
        assertArrayEquals(
                train.series(4),
                SyntheticData.generate(SyntheticKind.MULTI_CBF, 12, 6, 3L)
                        .train()
                        .series(4));
        // Each channel is z-normalised on its own, and the channels differ.
        for (int c = 0; c < 3; c++) {
            double sum = 0;
            for (int t = 0; t < 128; t++) {
                sum += train.value(0, c, t);
            }
            assertEquals(0, sum, 1e-9);
        }
        assertNotEquals(train.value(0, 0, 40), train.value(0, 1, 40));
        Path gz = dir.resolve("MultiCBF_TRAIN.ts.gz");
        DatasetWriter.write(train, gz, DataFormat.TS, true);
        Dataset back = DatasetReader.read(gz);
        assertEquals(train.channels(), back.channels());
        for (int i = 0; i < train.size(); i++) {
            assertArrayEquals(train.series(i), back.series(i));
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> DatasetWriter.write(train, dir.resolve("x.tsv"), DataFormat.TSV, false));
    }

    @Test
    void readsTheUeaSetsWhenPresent() throws IOException {
        Path uea = Path.of(System.getProperty("vigil.uea", "../shared/uea"));
        Assumptions.assumeTrue(Files.isDirectory(uea.resolve("BasicMotions")), "UEA data not found; skipping");
        TrainTest basic = DatasetFiles.resolve(uea, "BasicMotions").load(ReadOptions.DEFAULT);
        assertEquals(6, basic.train().channels());
        assertEquals(100, basic.train().seriesLength());
        assertEquals(40, basic.test().size());
        TrainTest wave = DatasetFiles.resolve(uea, "UWaveGestureLibrary").load(ReadOptions.DEFAULT);
        assertEquals(3, wave.train().channels());
        assertEquals(315, wave.test().seriesLength());
        Path vowels = DatasetFiles.resolve(uea, "JapaneseVowels").train();
        DataFormatException e = fails(vowels, ReadOptions.DEFAULT);
        assertTrue(e.reason().contains("shortest 7") && e.reason().contains("longest 26"), e.getMessage());
        TrainTest padded = DatasetFiles.resolve(uea, "JapaneseVowels")
                .load(ReadOptions.DEFAULT.withLengthPolicy(LengthPolicy.PAD_LAST));
        assertEquals(12, padded.test().channels());
        assertEquals(26, padded.test().seriesLength());
        assertEquals(370, padded.test().size());
    }
}
