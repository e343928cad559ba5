package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetFilesTest {
    @TempDir
    Path dir;

    private static final Dataset TRAIN =
            Dataset.of("Toy", new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, new String[] {"1", "2", "1"});
    private static final Dataset TEST =
            Dataset.of("Toy", new double[][] {{0, 1, 2}, {3, 3, 3}}, new String[] {"2", "2"});

    private void layout(String trainRel, String testRel, DataFormat format, boolean gzip) throws IOException {
        DatasetWriter.write(TRAIN, dir.resolve(trainRel), format, gzip);
        DatasetWriter.write(TEST, dir.resolve(testRel), format, gzip);
    }

    @Test
    void resolvesEveryLayoutExtensionAndCompression() throws IOException {
        String[][] cases = {
            {"Toy/Toy_TRAIN.tsv", "Toy/Toy_TEST.tsv", "TSV"},
            {"Toy_TRAIN.tsv", "Toy_TEST.tsv", "TSV"},
            {"Toy/Toy_TRAIN.txt", "Toy/Toy_TEST.txt", "UCR2015"},
            {"Toy_TRAIN", "Toy_TEST", "UCR2015"},
            {"Toy/Toy_TRAIN.ts", "Toy/Toy_TEST.ts", "TS"},
            {"Toy_TRAIN.arff", "Toy_TEST.arff", "ARFF"},
        };
        for (String[] c : cases) {
            for (boolean gzip : new boolean[] {false, true}) {
                Path root = Files.createTempDirectory(dir, "case");
                String suffix = gzip ? ".gz" : "";
                DatasetWriter.write(TRAIN, root.resolve(c[0] + suffix), DataFormat.valueOf(c[2]), gzip);
                DatasetWriter.write(TEST, root.resolve(c[1] + suffix), DataFormat.valueOf(c[2]), gzip);
                DatasetFiles files = DatasetFiles.resolve(root, "Toy");
                assertEquals(root.resolve(c[0] + suffix), files.train());
                assertEquals(root.resolve(c[1] + suffix), files.test());
                TrainTest tt = files.load(ReadOptions.DEFAULT);
                assertEquals("Toy", tt.name());
                assertEquals(List.of("1", "2"), tt.test().classNames());
                assertEquals(1, tt.test().classOf(0));
            }
        }
    }

    @Test
    void missingFileListsEveryPathTried() throws IOException {
        DatasetWriter.write(TRAIN, dir.resolve("Toy/Toy_TRAIN.tsv"), DataFormat.TSV, false);
        FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> DatasetFiles.resolve(dir, "Toy"));
        assertTrue(e.getMessage().startsWith("no test file for dataset 'Toy'"), e.getMessage());
        for (Path p : DatasetFiles.candidates(dir, "Toy", "TEST")) {
            assertTrue(e.getMessage().contains(p.toString()), p + " missing from " + e.getMessage());
        }
        assertEquals(20, DatasetFiles.candidates(dir, "Toy", "TEST").size());
        FileNotFoundException none = assertThrows(FileNotFoundException.class, () -> DatasetFiles.resolve(dir, "Nope"));
        assertTrue(none.getMessage().contains(dir.resolve("Nope/Nope_TRAIN.tsv").toString()), none.getMessage());
        assertTrue(none.getMessage().contains(dir.resolve("Nope_TRAIN.arff.gz").toString()), none.getMessage());
        FileNotFoundException noDir =
                assertThrows(FileNotFoundException.class, () -> DatasetFiles.resolve(dir.resolve("absent"), "Toy"));
        assertTrue(noDir.getMessage().contains("does not exist"), noDir.getMessage());
    }

    @Test
    void ambiguityListsTheMatches() throws IOException {
        layout("Toy/Toy_TRAIN.tsv", "Toy/Toy_TEST.tsv", DataFormat.TSV, false);
        DatasetWriter.write(TRAIN, dir.resolve("Toy_TRAIN.arff"), DataFormat.ARFF, false);
        DataFormatException e = assertThrows(DataFormatException.class, () -> DatasetFiles.resolve(dir, "Toy"));
        assertTrue(e.getMessage().contains("ambiguous"), e.getMessage());
        assertTrue(e.getMessage().contains(dir.resolve("Toy/Toy_TRAIN.tsv").toString()), e.getMessage());
        assertTrue(e.getMessage().contains(dir.resolve("Toy_TRAIN.arff").toString()), e.getMessage());
    }

    @Test
    void singleTrainingClassIsRejected() throws IOException {
        Path train = dir.resolve("S_TRAIN.tsv");
        Path test = dir.resolve("S_TEST.tsv");
        Files.writeString(train, "1\t1\t2\n1\t3\t4\n");
        Files.writeString(test, "1\t1\t2\n");
        DataFormatException e =
                assertThrows(DataFormatException.class, () -> TrainTest.load(train, test, ReadOptions.DEFAULT));
        assertEquals(train, e.file());
        assertTrue(e.reason().contains("single class '1'"), e.getMessage());
    }

    @Test
    void unseenTestLabelNamesLabelFileAndLine() throws IOException {
        Path train = dir.resolve("U_TRAIN.tsv");
        Path test = dir.resolve("U_TEST.tsv");
        Files.writeString(train, "1\t1\t2\n2\t3\t4\n");
        Files.writeString(test, "1\t1\t2\n\n7\t3\t4\n");
        DataFormatException e =
                assertThrows(DataFormatException.class, () -> TrainTest.load(train, test, ReadOptions.DEFAULT));
        assertEquals(test, e.file());
        assertEquals(3, e.line());
        assertTrue(e.reason().contains("label '7' does not occur in the training split"), e.getMessage());
    }

    @Test
    void trainTestLengthMismatchIsRejectedAtTheTestLine() throws IOException {
        Path train = dir.resolve("L_TRAIN.tsv");
        Path test = dir.resolve("L_TEST.tsv");
        Files.writeString(train, "1\t1\t2\t3\n2\t3\t4\t5\n");
        Files.writeString(test, "1\t1\t2\n");
        DataFormatException e =
                assertThrows(DataFormatException.class, () -> TrainTest.load(train, test, ReadOptions.DEFAULT));
        assertEquals(test, e.file());
        assertEquals(1, e.line());
        assertTrue(e.reason().contains("line 1 has 2 values, the training split has 3"), e.getMessage());
        Path ts = dir.resolve("L_TEST.ts");
        Files.writeString(ts, "@seriesLength 2\n@classLabel true 1 2\n@data\n1,2:1\n");
        DataFormatException h =
                assertThrows(DataFormatException.class, () -> TrainTest.load(train, ts, ReadOptions.DEFAULT));
        assertEquals(1, h.line());
        assertTrue(h.reason().contains("@seriesLength declares 2 but the training split has length 3"), h.getMessage());
    }

    @Test
    void recordRejectsMisalignedSplits() {
        Dataset other = Dataset.of("Toy", new double[][] {{1, 2, 3}}, new String[] {"2"});
        assertThrows(IllegalArgumentException.class, () -> new TrainTest(TRAIN, other));
        assertEquals(
                TRAIN.classNames(),
                new TrainTest(TRAIN, other.withClasses(TRAIN.classNames()))
                        .test()
                        .classNames());
        Dataset shorter =
                Dataset.of("Toy", new double[][] {{1, 2}}, new String[] {"1"}).withClasses(List.of("1", "2"));
        assertThrows(IllegalArgumentException.class, () -> new TrainTest(TRAIN, shorter));
    }

    @Test
    void datasetsUnderListsTheFoldersSortedAndRefusesAFile() throws IOException {
        Path archive = Files.createDirectories(dir.resolve("archive"));
        Files.createDirectories(archive.resolve("Wafer"));
        Files.createDirectories(archive.resolve("CBF"));
        Files.writeString(archive.resolve("README"), "not a dataset");
        assertEquals(List.of("CBF", "Wafer"), DatasetFiles.datasetsUnder(archive));
        IOException e = assertThrows(IOException.class, () -> DatasetFiles.datasetsUnder(archive.resolve("README")));
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
    }
}
