#include "fluxion/mechanical_system.h"

#include "fluxion/errors.h"

namespace fluxion {

MechanicalSystem::~MechanicalSystem() = default;

Vector MechanicalSystem::mass_diagonal() const { return mass().diagonal(); }

void CombineMatrices(double m, const SparseMatrix& M, double b, const SparseMatrix* B, double k,
                     const SparseMatrix& K, SparseMatrix& A) {
  const Index nnz = A.nonZeros();
  if (M.nonZeros() != nnz || K.nonZeros() != nnz || (B != nullptr && B->nonZeros() != nnz) ||
      !A.isCompressed())
    throw UsageError(
        "CombineMatrices: matrices must share the system's common pattern "
        "(create them with MechanicalSystem::CreateMatrix)");
  const double* m_values = M.valuePtr();
  const double* k_values = K.valuePtr();
  double* a_values = A.valuePtr();
  if (B != nullptr && b != 0.0) {
    const double* b_values = B->valuePtr();
    for (Index i = 0; i < nnz; ++i)
      a_values[i] = m * m_values[i] + b * b_values[i] + k * k_values[i];
  } else {
    for (Index i = 0; i < nnz; ++i) a_values[i] = m * m_values[i] + k * k_values[i];
  }
}

}  // namespace fluxion
