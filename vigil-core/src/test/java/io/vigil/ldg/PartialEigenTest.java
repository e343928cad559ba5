package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.RandomMatrices_DDRM;
import org.junit.jupiter.api.Test;

class PartialEigenTest {
    /** Eigenvalues of two backward-stable solvers agree to ~r·ε·‖P‖ ≈ 1e-13‖P‖; 1e-10 is a safe bound. */
    private static final double VALUE_RTOL = 1e-10;

    /** Projector difference of the leading subspaces: ‖δP‖/gap with gaps ≳ 1e-3‖P‖ here → ≲ 1e-10; margin. */
    private static final double SUBSPACE_TOL = 1e-8;

    private static DMatrixRMaj withSpectrum(double[] spectrum, long seed) {
        int n = spectrum.length;
        DMatrixRMaj q = RandomMatrices_DDRM.orthogonal(n, n, new Random(seed));
        DMatrixRMaj qd = q.copy();
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) {
                qd.data[i * n + c] *= spectrum[c];
            }
        }
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransB(qd, q, a);
        Kernels.symmetrize(a);
        return a;
    }

    private static void assertAgreesWithFullQr(DMatrixRMaj a, int count) {
        Kernels.SortedEigen full = Kernels.symmetricEigen(a, true, "a");
        Kernels.SortedEigen part = PartialEigen.smallest(a, count, "a");
        double norm = CommonOps_DDRM.elementMaxAbs(a) * a.numRows;
        for (int c = 0; c < count; c++) {
            assertEquals(full.values()[c], part.values()[c], VALUE_RTOL * norm, "eigenvalue " + c);
        }
        assertTrue(PartialEigen.passesCheck(a, part), "residual and orthonormality");
        // Same leading subspace when it is separated from the rest (projectors agree).
        if (full.values()[count] - full.values()[count - 1] > 1e-6 * norm) {
            DMatrixRMaj f = CommonOps_DDRM.extract(full.vectors(), 0, a.numRows, 0, count);
            DMatrixRMaj pf = new DMatrixRMaj(a.numRows, a.numRows);
            DMatrixRMaj pp = new DMatrixRMaj(a.numRows, a.numRows);
            CommonOps_DDRM.multTransB(f, f, pf);
            CommonOps_DDRM.multTransB(part.vectors(), part.vectors(), pp);
            for (int i = 0; i < pf.data.length; i++) {
                assertEquals(pf.data[i], pp.data[i], SUBSPACE_TOL);
            }
        }
    }

    @Test
    void randomSpectrumMatchesFullDecomposition() {
        DMatrixRMaj a = RandomMatrices_DDRM.symmetric(120, -3, 2, new Random(4));
        assertNotNull(PartialEigen.tridiagonalInverseIteration(a, 20), "the partial path itself runs");
        assertTrue(PartialEigen.passesCheck(a, PartialEigen.tridiagonalInverseIteration(a, 20)));
        assertAgreesWithFullQr(a, 20);
        assertAgreesWithFullQr(a, 1);
    }

    @Test
    void clustersAndRepeatedEigenvaluesStayOrthonormal() {
        int n = 90;
        double[] spectrum = new double[n];
        for (int i = 0; i < n; i++) {
            spectrum[i] = i < 10 ? -1.0 : (i < 20 ? -0.5 + 1e-12 * i : i);
        }
        DMatrixRMaj a = withSpectrum(spectrum, 9);
        Kernels.SortedEigen part = PartialEigen.tridiagonalInverseIteration(a, 25);
        assertNotNull(part);
        assertTrue(PartialEigen.passesCheck(a, part), "inverse iteration handles the clusters itself");
        assertAgreesWithFullQr(a, 25);
        assertAgreesWithFullQr(a, 10);
    }

    @Test
    void zeroBlocksAndSmallSizesFallBackOrWork() {
        double[] spectrum = new double[40];
        spectrum[39] = 5;
        spectrum[0] = -2;
        assertAgreesWithFullQr(withSpectrum(spectrum, 2), 5);
        assertAgreesWithFullQr(RandomMatrices_DDRM.symmetric(6, -1, 1, new Random(1)), 2);
        assertAgreesWithFullQr(RandomMatrices_DDRM.symmetric(30, -1, 1, new Random(3)), 20);
    }
}
