package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class LdgBasisTest {
    private static LdgBasis fitted() {
        int[] y = LdgReference.blocks(3, 7);
        double[][] x = LdgReference.randomData(y, 3, 9, 1.0, 31L);
        return Ldg.fit(x, y, 3, new LdgParams(3, 0.5));
    }

    @Test
    void rebuildFromMatrixGivesTheSameProjections() {
        LdgBasis basis = fitted();
        LdgBasis copy = LdgBasis.of(basis.basis(basis.rank()), basis.eigenvalues());
        assertEquals(basis.rank(), copy.rank());
        assertEquals(basis.inputDim(), copy.inputDim());
        assertArrayEquals(basis.eigenvalues(), copy.eigenvalues(), 0.0);
        double[] x = {1, -2, 3, 0.5, 0, 7, -1, 2, 4};
        double[] a = new double[4];
        double[] b = new double[4];
        basis.project(x, 4, a);
        copy.project(x, 4, b);
        assertArrayEquals(a, b, 0.0);
    }

    @Test
    void truncateKeepsTheLeadingDirections() {
        LdgBasis basis = fitted();
        LdgBasis head = basis.truncate(2);
        assertEquals(2, head.rank());
        assertArrayEquals(basis.basis(2).data, head.basis(2).data, 0.0);
        assertArrayEquals(new double[] {basis.eigenvalues()[0], basis.eigenvalues()[1]}, head.eigenvalues(), 0.0);
        LdgBasis reloaded = LdgBasis.of(head.basis(2), head.eigenvalues());
        assertArrayEquals(head.basis(2).data, reloaded.basis(2).data, 0.0);
    }

    @Test
    void rejectsWrongShapesNonOrthonormalColumnsAndUnsortedEigenvalues() {
        LdgBasis basis = fitted();
        DMatrixRMaj b = basis.basis(3);
        double[] ev = Arrays.copyOf(basis.eigenvalues(), 3);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> LdgBasis.of(b, new double[] {1, 2}));
        assertTrue(e.getMessage().contains("3 columns") && e.getMessage().contains("2 eigenvalues"), e.getMessage());
        DMatrixRMaj skewed = b.copy();
        skewed.set(0, 1, skewed.get(0, 1) + 1e-6);
        e = assertThrows(IllegalArgumentException.class, () -> LdgBasis.of(skewed, ev));
        assertTrue(e.getMessage().contains("not orthonormal"), e.getMessage());
        double[] unsorted = {ev[1], ev[0], ev[2]};
        e = assertThrows(IllegalArgumentException.class, () -> LdgBasis.of(b, unsorted));
        assertTrue(e.getMessage().contains("ascending"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LdgBasis.of(new DMatrixRMaj(2, 3), new double[3]));
        DMatrixRMaj nan = b.copy();
        nan.set(1, 1, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> LdgBasis.of(nan, ev));
    }

    @Test
    void projectionChecksSizes() {
        LdgBasis basis = fitted();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> basis.project(new double[][] {new double[8]}, 2));
        assertTrue(e.getMessage().contains("8 values") && e.getMessage().contains("9 rows"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> basis.project(new double[9], 3, new double[2]));
        assertTrue(e.getMessage().contains("length 2") && e.getMessage().contains("3 dims"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> basis.basis(0));
    }
}
