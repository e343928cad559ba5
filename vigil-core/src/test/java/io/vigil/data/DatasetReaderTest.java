package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetReaderTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private Path writeGz(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    private DataFormatException fails(Path file) {
        return fails(file, ReadOptions.DEFAULT);
    }

    private DataFormatException fails(Path file, ReadOptions options) {
        return assertThrows(DataFormatException.class, () -> DatasetReader.read(file, options));
    }

    /** Asserts the exception names file, line and a reason fragment, both in accessors and in the message. */
    private static void assertNames(DataFormatException e, Path file, long line, String reason) {
        assertEquals(file, e.file(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reason), () -> "reason '" + e.reason() + "' lacks '" + reason + "'");
        String where = line > 0 ? file + ":" + line + ": " : file + ": ";
        assertTrue(e.getMessage().startsWith(where), e.getMessage());
    }

    @Test
    void readsTsvWithVerbatimLabelsAndNameFromFile() throws IOException {
        Path f = write("CBF_TRAIN.tsv", "1\t0.5\t-1.25\t3\n-1\t2\t1e-3\t-0.0\n2.0\t7\t8\t9\n");
        Dataset ds = DatasetReader.read(f);
        assertEquals("CBF", ds.name());
        assertEquals(3, ds.size());
        assertEquals(3, ds.length());
        assertEquals(List.of("-1", "1", "2.0"), ds.classNames());
        assertEquals("2.0", ds.labelOf(2));
        assertArrayEquals(new double[] {2, 1e-3, -0.0}, ds.series(1));
        assertEquals(DataFormat.TSV, DatasetReader.detectFormat(f));
    }

    @Test
    void tsvLabelsMayContainBlanksWhateverTheRowOrder() throws IOException {
        String a = "class one\t1\t2\t3\n";
        String b = "two\t4\t5\t6\n";
        for (String content : List.of(a + b, b + a)) {
            Path f = write("Spaced_TRAIN.tsv", content);
            Dataset ds = DatasetReader.read(f);
            assertEquals(List.of("class one", "two"), ds.classNames(), content);
            assertEquals(3, ds.length());
        }
        Path noTabs = write("NoTabs_TRAIN.tsv", "1 2 3\n");
        DataFormatException e = fails(noTabs);
        assertNames(e, noTabs, 1, "tab separated");
    }

    @Test
    void readsUcr2015CommaAndWhitespaceWithOrWithoutExtension() throws IOException {
        Path comma = write("Foo_TRAIN", "1.0000000e+00, 1.5,2.5 ,3.5\n2.0000000e+00,4,5,6\n");
        Path blank = write("Foo_TEST.txt", "  1   1.5  2.5\t 3.5  \n 2 4 5 6\n\n");
        Dataset a = DatasetReader.read(comma);
        Dataset b = DatasetReader.read(blank);
        assertEquals("Foo", a.name());
        assertEquals("Foo", b.name());
        assertEquals(List.of("1.0000000e+00", "2.0000000e+00"), a.classNames());
        assertArrayEquals(new double[] {1.5, 2.5, 3.5}, a.series(0));
        assertArrayEquals(new double[] {1.5, 2.5, 3.5}, b.series(0));
        assertArrayEquals(new double[] {4, 5, 6}, b.series(1));
        assertEquals(DataFormat.UCR2015, DatasetReader.detectFormat(comma));
    }

    @Test
    void readsTsHonouringHeader() throws IOException {
        Path f = write(
                "X_TRAIN.ts",
                "# comment\n@problemName X\n@timeStamps false\n@missing false\n@univariate true\n"
                        + "@equalLength true\n@seriesLength 3\n@classLabel true a b\n@data\n"
                        + "1,2,3:a\n4.5,5,6:b\n");
        Dataset ds = DatasetReader.read(f);
        assertEquals("X", ds.name());
        assertEquals(List.of("a", "b"), ds.classNames());
        assertArrayEquals(new double[] {4.5, 5, 6}, ds.series(1));
    }

    @Test
    void rejectsUnlabelledUndeclaredAndWronglySizedTs() throws IOException {
        String head = "@problemName X\n";
        Path unlabelled = write("n.ts", head + "@classLabel false\n@data\n1,2\n");
        assertNames(fails(unlabelled), unlabelled, 2, "no class labels");
        Path undeclared = write("d.ts", head + "@classLabel true a b\n@data\n1,2:a\n1,2:c\n");
        assertNames(fails(undeclared), undeclared, 5, "label 'c' is not declared in @classLabel");
        Path wrongLength = write("l.ts", head + "@seriesLength 3\n@classLabel true a\n@data\n1,2,3:a\n1,2:a\n");
        assertNames(fails(wrongLength), wrongLength, 6, "line 6 has 2 values, @seriesLength declares 3");
        Path noLabel = write("nl.ts", head + "@classLabel true a\n@data\n1,2,3\n");
        assertNames(fails(noLabel), noLabel, 4, "the class label is missing");
    }

    @Test
    void readsArffWithCommentsQuotesAndClassLast() throws IOException {
        Path f = write(
                "Y_TEST.arff",
                "% a comment\n@RELATION 'Y data'\n\n@ATTRIBUTE att1 NUMERIC\n@attribute 'att 2' real\n"
                        + "@attribute target {'-1', 1, 'big class'}\n@DATA\n% data comment\n"
                        + "0.5,1.5,'-1'\n2,3,1\n4,5,'big class'\n");
        Dataset ds = DatasetReader.read(f);
        assertEquals("Y", ds.name());
        assertEquals(List.of("-1", "1", "big class"), Dataset.orderClasses(ds.classNames()));
        assertEquals("big class", ds.labelOf(2));
        assertArrayEquals(new double[] {2, 3}, ds.series(1));
    }

    @Test
    void arffWithoutClassOrWithStringAttributeIsRejected() throws IOException {
        Path noClass = write("a.arff", "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1,2\n");
        assertNames(fails(noClass), noClass, 4, "the label column is missing");
        Path str = write("s.arff", "@relation r\n@attribute a string\n@attribute c {x,y}\n@data\n");
        assertNames(fails(str), str, 2, "attribute 'a' has type 'string'");
        Path rel = write("r.arff", "@relation r\n@attribute bag relational\n");
        assertNames(fails(rel), rel, 2, "multivariate");
        Path fields = write("f.arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n1,2,x\n");
        assertNames(fails(fields), fields, 6, "line 6 has 3 fields, the header declares 2 attributes");
        Path undeclared = write("u.arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,z\n");
        assertNames(fails(undeclared), undeclared, 5, "label 'z' is not among the values [x, y]");
        Path bad = write("b.arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\nabc,x\n");
        assertNames(fails(bad), bad, 5, "attribute 1 'a': 'abc' is not a number");
    }

    @Test
    void gzipIsDetectedByMagicBytesAndByName() throws IOException {
        String content = "1\t1\t2\n2\t3\t4\n";
        Path named = writeGz("G_TRAIN.tsv.gz", content);
        Path unnamed = writeGz("G_TRAIN.tsv", content);
        Path noExt = writeGz("G_TRAIN", "1,1,2\n2,3,4\n");
        for (Path f : List.of(named, unnamed, noExt)) {
            Dataset ds = DatasetReader.read(f);
            assertEquals("G", ds.name());
            assertArrayEquals(new double[] {3, 4}, ds.series(1), f.toString());
        }
        assertEquals(DataFormat.UCR2015, DatasetReader.detectFormat(noExt));
        Path corrupt = write("c.tsv.gz", "");
        Files.write(corrupt, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3});
        assertTrue(fails(corrupt).reason().contains("gzip"));
    }

    @Test
    void formatIsDetectedByContentWhenTheNameIsAmbiguous() throws IOException {
        Path arff =
                write("A_TRAIN.txt", "%c\n@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n");
        Path ts = write("B_TRAIN", "@problemName B\n@classLabel true x y\n@data\n1,2:x\n3,4:y\n");
        Path tsv = write("C_TRAIN.txt", "x\t1\t2\ny\t3\t4\n");
        assertEquals(DataFormat.ARFF, DatasetReader.detectFormat(arff));
        assertEquals(DataFormat.TS, DatasetReader.detectFormat(ts));
        assertEquals(DataFormat.TSV, DatasetReader.detectFormat(tsv));
        assertEquals(2, DatasetReader.read(arff).size());
        assertArrayEquals(new double[] {3, 4}, DatasetReader.read(ts).series(1));
        assertArrayEquals(new double[] {3, 4}, DatasetReader.read(tsv).series(1));
    }

    @Test
    void raggedRowsNameBothLengths() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            sb.append(i % 2 + 1);
            int d = i == 17 ? 127 : 128;
            for (int t = 0; t < d; t++) {
                sb.append('\t').append(t);
            }
            sb.append('\n');
        }
        Path f = write("R_TRAIN.tsv", sb.toString());
        assertNames(fails(f), f, 17, "line 17 has 127 values, line 1 has 128");
    }

    @Test
    void nonNumericValueNamesColumnAndToken() throws IOException {
        Path f = write("N_TRAIN.tsv", "1\t1\t2\t3\n2\t4\tfive\t6\n");
        assertNames(fails(f), f, 2, "column 3: 'five' is not a number");
        Path suffix = write("S_TRAIN.tsv", "1\t1\t2d\t3\n");
        assertNames(fails(suffix), suffix, 1, "column 3: '2d' is not a number");
    }

    @Test
    void infiniteValuesAreRejected() throws IOException {
        for (String token : List.of("Inf", "-inf", "Infinity", "+INFINITY")) {
            Path f = write("I_TRAIN.tsv", "1\t1\t2\n2\t1\t" + token + "\n");
            assertNames(fails(f), f, 2, "column 3: infinite value '" + token + "' is not allowed");
        }
        Path overflow = write("O_TRAIN.tsv", "1\t1e999\t2\n");
        assertNames(fails(overflow), overflow, 1, "column 2: value '1e999' overflows to infinity");
    }

    @Test
    void missingValuesAreRejectedByDefaultWithTheOptInFlag() throws IOException {
        for (String token : List.of("NaN", "nan", "?", "")) {
            Path f = write("M_TRAIN.tsv", "1\t1\t2\t3\n2\t4\t" + token + "\t6\n");
            DataFormatException e = fails(f);
            assertNames(e, f, 2, "column 3: missing value");
            assertTrue(e.reason().contains("--interpolate-missing"), e.reason());
        }
        Path comma = write("M2_TRAIN.txt", "1,1,,3\n");
        assertNames(fails(comma), comma, 1, "column 3: missing value (an empty field)");
    }

    /** One separator ending a row is not an empty last value: no missing value, and no extra sample. */
    @Test
    void aTrailingSeparatorIsNotAMissingValue() throws IOException {
        Path tab = write("TT_TRAIN.tsv", "1\t1\t2\t3\t\n2\t4\t5\t6\t \r\n");
        for (boolean interpolate : new boolean[] {false, true}) {
            Dataset ds = DatasetReader.read(tab, ReadOptions.DEFAULT.withInterpolateMissing(interpolate));
            assertEquals(3, ds.length(), "interpolate " + interpolate);
            assertArrayEquals(new double[] {1, 2, 3}, ds.series(0));
            assertArrayEquals(new double[] {4, 5, 6}, ds.series(1));
        }
        Path comma = write("TC_TRAIN.txt", "1,1,2,3,\n2,4,5,6\n");
        assertEquals(3, DatasetReader.read(comma, ReadOptions.DEFAULT).length());
        Path two = write("T2_TRAIN.tsv", "1\t1\t2\t\t\n");
        assertNames(fails(two), two, 1, "column 4: missing value (an empty field)");
    }

    @Test
    void missingValuesAreInterpolatedWhenAsked() throws IOException {
        Path f = write("M_TRAIN.tsv", "1\tNaN\t?\t2\tnan\tnan\t8\t\t\t\n2\t1\t2\t3\t4\t5\t6\t7\t8\n");
        Dataset ds = DatasetReader.read(f, ReadOptions.DEFAULT.withInterpolateMissing(true));
        assertArrayEquals(new double[] {2, 2, 2, 4, 6, 8, 8, 8}, ds.series(0));
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8}, ds.series(1));
        Path ts = write("T.ts", "@classLabel true a\n@missing true\n@data\n1,?,?,?,5:a\n");
        assertArrayEquals(
                new double[] {1, 2, 3, 4, 5},
                DatasetReader.read(ts, ReadOptions.DEFAULT.withInterpolateMissing(true))
                        .series(0));
        Path allMissing = write("A_TRAIN.tsv", "1\t1\t2\n2\tNaN\t?\n");
        assertNames(
                fails(allMissing, ReadOptions.DEFAULT.withInterpolateMissing(true)),
                allMissing,
                2,
                "no observed value");
    }

    @Test
    void emptyFilesAreRejected() throws IOException {
        Path empty = write("E_TRAIN.tsv", "");
        assertNames(fails(empty), empty, 0, "the file is empty");
        Path blank = write("B_TRAIN.tsv", "\n  \n");
        assertNames(fails(blank), blank, 0, "the file is empty");
        Path noRows = write("E.arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n");
        assertNames(fails(noRows), noRows, 0, "no series after @data");
        Path noData = write("E.ts", "@problemName E\n");
        assertNames(fails(noData), noData, 0, "no @data line");
    }

    @Test
    void missingLabelColumnIsRecognised() throws IOException {
        Path f = write("L_TRAIN.tsv", "0.5\t1\t2\n-0.25\t3\t4\n0.75\t5\t6\n");
        assertNames(fails(f), f, 1, "the label column is missing");
        Path emptyLabel = write("E_TRAIN.tsv", "1\t1\t2\n\t3\t4\n");
        assertNames(fails(emptyLabel), emptyLabel, 2, "the class label is missing");
        Path onlyLabel = write("O_TRAIN.tsv", "1\t1\t2\n2\n");
        assertNames(fails(onlyLabel), onlyLabel, 2, "no values");
    }

    @Test
    void labelsOutsideAGivenClassListAreRejectedAtTheirLine() throws IOException {
        Path f = write("T_TEST.tsv", "1\t1\t2\n3\t3\t4\n");
        DataFormatException e = fails(f, ReadOptions.DEFAULT.withClasses(List.of("1", "2")));
        assertNames(e, f, 2, "label '3' does not occur in the training split");
        Dataset ok = DatasetReader.read(
                write("U_TEST.tsv", "2\t1\t2\n"), ReadOptions.DEFAULT.withClasses(List.of("1", "2")));
        assertEquals(List.of("1", "2"), ok.classNames());
        assertEquals(1, ok.classOf(0));
    }

    @Test
    void datasetNamesStripExtensionsAndSplit() {
        assertEquals("CBF", DatasetReader.datasetName(Path.of("x/CBF_TRAIN.tsv")));
        assertEquals("CBF", DatasetReader.datasetName(Path.of("CBF_TEST.tsv.gz")));
        assertEquals("Two_Patterns", DatasetReader.datasetName(Path.of("Two_Patterns_TRAIN")));
        assertEquals("Beef", DatasetReader.datasetName(Path.of("Beef_TEST.arff")));
        assertEquals("data", DatasetReader.datasetName(Path.of("data.ts")));
    }

    @Test
    void largeFileReadsQuickly() throws IOException {
        int n = 1000;
        int d = 1024;
        StringBuilder sb = new StringBuilder(n * d * 12);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            sb.append(i % 3);
            for (int t = 0; t < d; t++) {
                sb.append('\t').append(rnd.nextGaussian());
            }
            sb.append('\n');
        }
        Path f = write("Big_TRAIN.tsv", sb.toString());
        DatasetReader.read(f); // warm-up
        long start = System.nanoTime();
        Dataset ds = DatasetReader.read(f);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(n, ds.size());
        assertEquals(d, ds.length());
        // Generous bound for a shared 2-core CI machine; a regex-per-value reader takes several seconds.
        assertTrue(seconds < LARGE_FILE_SECONDS, "reading 1000x1024 took " + seconds + " s");
    }

    /** Upper bound for reading 1,000 × 1,024 values; typical is ~0.3 s, leaves room for a busy machine. */
    private static final double LARGE_FILE_SECONDS = 5.0;
}
