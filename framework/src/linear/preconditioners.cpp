#include "linear/preconditioners.h"

#include <Eigen/Dense>
#include <cmath>

#include "core/text_parsing.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

// SOFA's matrix template and linear-system link, accepted on every preconditioner.
std::vector<FieldSpec> PreconditionerFields(const char* default_template) {
  return {FieldSpec::Text("template", default_template,
                          "SOFA matrix template (accepted for compatibility)"),
          FieldSpec::Link("linearSystem",
                          "SOFA's link to the component storing the system: accepted; Fluxion "
                          "gives the preconditioner the PCG's assembled matrix")};
}

LinearSolveResult FailedFactorization(std::string message) {
  LinearSolveResult result;
  result.ok = false;
  result.message = std::move(message);
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// JacobiPreconditioner

ComponentSpec JacobiPreconditioner::Spec() {
  return ComponentSpec{
      .name = "JacobiPreconditioner",
      .kind = ComponentKind::kLinearSolver,
      .summary = "Diagonal (Jacobi) preconditioner for PCGLinearSolver: z = diag(A)⁻¹·r",
      .fields = PreconditionerFields("DiagonalMatrix"),
      .aliases = {}};
}

JacobiPreconditioner::JacobiPreconditioner(const Parameters& /*parameters*/) {}

LinearSolveResult JacobiPreconditioner::Factorize(const SparseMatrix& A) {
  const Index n = A.rows();
  if (inverse_diagonal_.size() != n) inverse_diagonal_.setZero(n);  // first call only
  factorized_ = false;
  for (Index i = 0; i < n; ++i) {
    const double d = A.coeff(i, i);
    if (d == 0.0 || !std::isfinite(d))
      return FailedFactorization("JacobiPreconditioner: the diagonal entry of row " +
                                 std::to_string(i) + " is " + FormatReal(d) +
                                 " (expected a finite non-zero number)");
    inverse_diagonal_[i] = 1.0 / d;
  }
  factorized_ = true;
  return {};
}

LinearSolveResult JacobiPreconditioner::Solve(const Vector& b, Vector& x) {
  if (inverse_diagonal_.size() == 0 && !factorized_)
    throw UsageError("JacobiPreconditioner::Solve called before Factorize");
  if (!factorized_)
    return FailedFactorization(
        "JacobiPreconditioner: no valid diagonal (the last Factorize failed)");
  if (x.size() != b.size()) x.resize(b.size());
  x.array() = b.array() * inverse_diagonal_.array();
  return {};
}

// ---------------------------------------------------------------------------------------------
// BlockJacobiPreconditioner

ComponentSpec BlockJacobiPreconditioner::Spec() {
  return ComponentSpec{
      .name = "BlockJacobiPreconditioner",
      .kind = ComponentKind::kLinearSolver,
      .summary = "Block-diagonal (3×3 block Jacobi) preconditioner for PCGLinearSolver",
      .fields = PreconditionerFields("BlockDiagonal3"),
      .aliases = {}};
}

BlockJacobiPreconditioner::BlockJacobiPreconditioner(const Parameters& /*parameters*/) {}

LinearSolveResult BlockJacobiPreconditioner::Factorize(const SparseMatrix& A) {
  const Index n = A.rows();
  const Index blocks = (n + 2) / 3;
  if (size_ != n) {  // first call only
    size_ = n;
    inverse_blocks_.assign(static_cast<std::size_t>(9 * blocks), 0.0);
  }
  factorized_ = false;
  // Gather A's diagonal blocks (entries (i, j) with i/3 == j/3) into inverse_blocks_, then invert
  // each in place.
  std::fill(inverse_blocks_.begin(), inverse_blocks_.end(), 0.0);
  for (Index j = 0; j < A.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it)
      if (it.row() / 3 == j / 3)
        inverse_blocks_[static_cast<std::size_t>(9 * (j / 3) + 3 * (it.row() % 3) + j % 3)] =
            it.value();
  for (Index k = 0; k < blocks; ++k) {
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> block(
        &inverse_blocks_[static_cast<std::size_t>(9 * k)]);
    const Index rows = std::min<Index>(3, n - 3 * k);  // a last block of 1 or 2 rows
    const Eigen::Matrix3d m = block;
    double determinant = 0.0;
    Eigen::Matrix3d inverse = Eigen::Matrix3d::Zero();
    if (rows == 3) {
      determinant = m.determinant();
      if (determinant != 0.0) inverse = m.inverse();
    } else if (rows == 2) {
      const Eigen::Matrix2d m2 = m.topLeftCorner<2, 2>();
      determinant = m2.determinant();
      if (determinant != 0.0) inverse.topLeftCorner<2, 2>() = m2.inverse();
    } else {
      determinant = m(0, 0);
      if (determinant != 0.0) inverse(0, 0) = 1.0 / determinant;
    }
    if (determinant == 0.0 || !std::isfinite(determinant) || !inverse.allFinite())
      return FailedFactorization("BlockJacobiPreconditioner: the diagonal block of rows " +
                                 std::to_string(3 * k) + "–" + std::to_string(3 * k + rows - 1) +
                                 " is singular or not finite (determinant " +
                                 FormatReal(determinant) + ")");
    block = inverse;
  }
  factorized_ = true;
  return {};
}

LinearSolveResult BlockJacobiPreconditioner::Solve(const Vector& b, Vector& x) {
  if (size_ == 0 && !factorized_)
    throw UsageError("BlockJacobiPreconditioner::Solve called before Factorize");
  if (!factorized_)
    return FailedFactorization(
        "BlockJacobiPreconditioner: no valid blocks (the last Factorize failed)");
  if (x.size() != b.size()) x.resize(b.size());
  for (Index k = 0; 3 * k < size_; ++k) {
    const double* block = &inverse_blocks_[static_cast<std::size_t>(9 * k)];
    const Index rows = std::min<Index>(3, size_ - 3 * k);
    for (Index i = 0; i < rows; ++i) {
      double sum = 0.0;
      for (Index j = 0; j < rows; ++j) sum += block[3 * i + j] * b[3 * k + j];
      x[3 * k + i] = sum;
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// SsorPreconditioner

ComponentSpec SsorPreconditioner::Spec() {
  return ComponentSpec{
      .name = "SSORPreconditioner",
      .kind = ComponentKind::kLinearSolver,
      .summary =
          "Symmetric successive over-relaxation preconditioner for PCGLinearSolver: "
          "z = (2 − ω)·(D/ω + L)⁻¹·(D/ω)·(D/ω + U)⁻¹·r (SOFA's sweeps)",
      .fields = {FieldSpec::Text("template", "CompressedRowSparseMatrixd",
                                 "SOFA matrix template: CompressedRowSparseMatrixd, or "
                                 "CompressedRowSparseMatrixMat3x3d (3×3 blocks: SOFA's sums in "
                                 "block order, no final 2 − ω scaling)"),
                 FieldSpec::Real("omega", 1.0, "relaxation coefficient ω"),
                 FieldSpec::Link("linearSystem",
                                 "SOFA's link to the component storing the system: accepted; "
                                 "Fluxion gives the preconditioner the PCG's assembled matrix")},
      .aliases = {}};
}

SsorPreconditioner::SsorPreconditioner(const Parameters& parameters)
    : omega_(parameters.real("omega")) {
  const std::string& type = parameters.text("template");
  blocks_ = type.find("Mat3x3") != std::string::npos;
  if (!blocks_ && type.find("CompressedRowSparseMatrix") == std::string::npos)
    throw ConfigError("template", "'" + type +
                                      "' is not supported (expected CompressedRowSparseMatrixd "
                                      "or CompressedRowSparseMatrixMat3x3d)");
}

LinearSolveResult SsorPreconditioner::Factorize(const SparseMatrix& A) {
  const Index n = A.rows();
  factorized_ = false;
  if (blocks_ && n % 3 != 0)
    return FailedFactorization("SSORPreconditioner: a matrix of " + std::to_string(n) +
                               " rows has no 3×3 blocks (expected a multiple of 3 with template "
                               "CompressedRowSparseMatrixMat3x3d)");
  matrix_ = A;  // values kept: reuses the storage while the pattern fits
  if (!matrix_.isCompressed()) matrix_.makeCompressed();
  if (inverse_diagonal_.size() != n) inverse_diagonal_.setZero(n);
  for (Index i = 0; i < n; ++i) {
    const double d = matrix_.coeff(i, i);
    if (d == 0.0 || !std::isfinite(d))
      return FailedFactorization("SSORPreconditioner: the diagonal entry of row " +
                                 std::to_string(i) + " is " + FormatReal(d) +
                                 " (expected a finite non-zero number)");
    inverse_diagonal_[i] = 1.0 / d;
  }
  factorized_ = true;
  return {};
}

LinearSolveResult SsorPreconditioner::Solve(const Vector& b, Vector& x) {
  if (inverse_diagonal_.size() == 0 && !factorized_)
    throw UsageError("SSORPreconditioner::Solve called before Factorize");
  if (!factorized_)
    return FailedFactorization("SSORPreconditioner: no valid matrix (the last Factorize failed)");
  const Index n = matrix_.rows();
  if (x.size() != n) x.resize(n);
  const int* starts = matrix_.outerIndexPtr();
  const int* rows = matrix_.innerIndexPtr();
  const double* values = matrix_.valuePtr();
  const double w = omega_;
  // Backward: (D/ω + U)·t = r, row j from the last (row j of the symmetric A is its column j).
  for (Index j = n - 1; j >= 0; --j) {
    double sum = 0.0;
    if (blocks_) {
      const Index block_end = (j / 3 + 1) * 3;  // the blocks right of j's diagonal block first
      for (int k = starts[j]; k < starts[j + 1]; ++k)
        if (rows[k] >= block_end) sum += x[rows[k]] * values[k];
      for (int k = starts[j]; k < starts[j + 1]; ++k)
        if (rows[k] > j && rows[k] < block_end) sum += x[rows[k]] * values[k];
    } else {
      for (int k = starts[j]; k < starts[j + 1]; ++k)
        if (rows[k] > j) sum += x[rows[k]] * values[k];
    }
    x[j] = (b[j] - sum) * w * inverse_diagonal_[j];
  }
  // Forward: (I + ω·D⁻¹·L)·z = t, in place (z_i for i < j is already the new one). Both
  // templates sum by increasing column here.
  for (Index j = 0; j < n; ++j) {
    double sum = 0.0;
    for (int k = starts[j]; k < starts[j + 1] && rows[k] < j; ++k) sum += x[rows[k]] * values[k];
    x[j] -= sum * w * inverse_diagonal_[j];
  }
  if (!blocks_ && w != 1.0) x *= 2.0 - w;
  return {};
}

// ---------------------------------------------------------------------------------------------
// AsyncSparseLDLSolver

ComponentSpec AsyncSparseLdlSolver::Spec() {
  ComponentSpec spec = LdlLinearSolver::Spec();
  spec.name = "AsyncSparseLDLSolver";
  spec.summary =
      "SparseLDLSolver whose factorisation SOFA runs in a background thread; Fluxion completes "
      "it before use (deterministic results)";
  spec.fields.push_back(FieldSpec::Bool(
      "enableAssembly", true,
      "SOFA's internal switch that stops assembly while a background factorisation runs: "
      "accepted; Fluxion's synchronous factorisation always allows assembly"));
  spec.aliases = {};
  return spec;
}

AsyncSparseLdlSolver::AsyncSparseLdlSolver(const Parameters& /*parameters*/) : ldl_(Parameters()) {}

LinearSolveResult AsyncSparseLdlSolver::Factorize(const SparseMatrix& A) {
  ++factorizations_;
  LinearSolveResult result = ldl_.Factorize(A);
  if (!result.ok) result.message = "AsyncSparseLDLSolver: " + result.message;
  return result;
}

LinearSolveResult AsyncSparseLdlSolver::FactorizeMass(const SparseMatrix& M) {
  ++factorizations_;
  LinearSolveResult result = ldl_.FactorizeMass(M);
  if (!result.message.empty()) result.message = "AsyncSparseLDLSolver: " + result.message;
  return result;
}

LinearSolveResult AsyncSparseLdlSolver::Solve(const Vector& b, Vector& x) {
  if (factorizations_ == 0) throw UsageError("AsyncSparseLDLSolver::Solve called before Factorize");
  return ldl_.Solve(b, x);
}

}  // namespace fluxion::internal
