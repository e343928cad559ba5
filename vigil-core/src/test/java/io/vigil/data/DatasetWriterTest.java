package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DatasetWriterTest {
    @TempDir
    Path dir;

    /** Values that stress shortest-representation printing: tiny, huge, negative zero, many digits. */
    private static Dataset awkward() {
        SplittableRandom rnd = new SplittableRandom(42);
        int n = 7;
        int d = 9;
        double[][] rows = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                rows[i][t] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(-12, 12));
            }
        }
        rows[0][0] = -0.0;
        rows[1][1] = Double.MIN_VALUE;
        rows[2][2] = Double.MAX_VALUE;
        rows[3][3] = 0.1 + 0.2;
        String[] labels = {"-1", "1", "2.0", "-1", "1", "10", "2.0"};
        return Dataset.of("Awk", rows, labels);
    }

    @ParameterizedTest
    @EnumSource(DataFormat.class)
    void roundTripIsExactPlainAndGzipped(DataFormat format) throws IOException {
        Dataset ds = awkward();
        for (boolean gzip : new boolean[] {false, true}) {
            Path f = dir.resolve("Awk_TRAIN" + format.extension() + (gzip ? ".gz" : ""));
            DatasetWriter.write(ds, f, format, gzip);
            try (InputStream in = Files.newInputStream(f)) {
                int b1 = in.read();
                int b2 = in.read();
                assertEquals(gzip, b1 == 0x1f && b2 == 0x8b, "gzip magic for " + f);
            }
            Dataset back = DatasetReader.read(f);
            assertEquals(format, DatasetReader.detectFormat(f));
            assertSame(ds, back);
        }
    }

    @Test
    void arffQuotesLabelsTheTextFormatsCannotHold() throws IOException {
        Dataset ds = Dataset.of("Name with space", new double[][] {{1, 2}, {3, 4}}, new String[] {"a b", "it's"});
        Path f = dir.resolve("q.arff");
        DatasetWriter.write(ds, f, DataFormat.ARFF, false);
        Dataset back = DatasetReader.read(f);
        assertEquals(ds.classNames(), back.classNames());
        assertEquals("it's", back.labelOf(1));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DatasetWriter.write(ds, dir.resolve("q.tsv"), DataFormat.TSV, false));
        assertTrue(e.getMessage().contains("'a b'"), e.getMessage());
    }

    @Test
    void ucr2015WithoutExtensionRoundTrips() throws IOException {
        Dataset ds = awkward();
        Path f = dir.resolve("sub/Awk_TEST");
        DatasetWriter.write(ds, f, DataFormat.UCR2015, false);
        assertSame(ds, DatasetReader.read(f));
        assertEquals(List.of("-1", "1", "2.0", "10"), DatasetReader.read(f).classNames());
    }

    private static void assertSame(Dataset expected, Dataset actual) {
        assertEquals(expected.name(), actual.name());
        assertEquals(expected.classNames(), actual.classNames());
        assertArrayEquals(expected.classIndices(), actual.classIndices());
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.labelOf(i), actual.labelOf(i));
            double[] a = expected.series(i);
            double[] b = actual.series(i);
            assertEquals(a.length, b.length);
            for (int t = 0; t < a.length; t++) {
                // Bitwise equality: exact round trip, including the sign of zero.
                assertEquals(
                        Double.doubleToRawLongBits(a[t]), Double.doubleToRawLongBits(b[t]), "series " + i + " t " + t);
            }
        }
    }
}
