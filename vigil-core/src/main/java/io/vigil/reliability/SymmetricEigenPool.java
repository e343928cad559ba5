package io.vigil.reliability;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * One EJML symmetric QR eigendecomposition per matrix size. EJML's {@code SymmetricQRAlgorithmDecomposition_DDRM}
 * recycles its eigenvector storage between calls and fails when a later matrix is smaller than an earlier one, so each
 * size gets its own instance, created on first use (ℓ is fixed per model, so in practice once).
 */
final class SymmetricEigenPool {
    @SuppressWarnings("unchecked")
    private final EigenDecomposition_F64<DMatrixRMaj>[] bySize;

    @SuppressWarnings("unchecked")
    SymmetricEigenPool(int maxDim) {
        bySize = (EigenDecomposition_F64<DMatrixRMaj>[]) new EigenDecomposition_F64[maxDim + 1];
    }

    /** The decomposition for k×k matrices (k ≤ maxDim). */
    EigenDecomposition_F64<DMatrixRMaj> forSize(int k) {
        EigenDecomposition_F64<DMatrixRMaj> d = bySize[k];
        if (d == null) {
            d = DecompositionFactory_DDRM.eig(k, true, true);
            bySize[k] = d;
        }
        return d;
    }
}
