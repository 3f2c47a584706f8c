#include "fluxion/mechanical_system.h"

#include <string>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

namespace fluxion {

MechanicalSystem::~MechanicalSystem() = default;
TangentOperator::~TangentOperator() = default;
bool TangentOperator::FollowsSystemChanges() const { return false; }

void FollowRemovedBlocks(const SystemChange& change, Vector& values) {
  if (!change.removes_dofs() || values.size() == 0) return;
  const Index block = change.block_size;
  const auto removed = static_cast<Index>(change.removed_blocks.size());
  if (block <= 0 || values.size() < removed * block)
    throw UsageError("FollowRemovedBlocks: a vector of " + std::to_string(values.size()) +
                     " entries cannot lose " + std::to_string(removed) + " blocks of " +
                     std::to_string(block));
  Index size = values.size();
  for (const Index slot : change.removed_blocks) {
    const Index last = size - block;
    if (slot < 0 || slot > last)
      throw UsageError("FollowRemovedBlocks: block " + std::to_string(slot) +
                       " is outside the vector's " + std::to_string(size) + " entries");
    if (slot != last) values.segment(slot, block) = values.segment(last, block);
    size = last;
  }
  values.conservativeResize(size);
}

namespace {
// The tangent operator of any MechanicalSystem: K and B assembled in the common pattern, sparse
// products. The framework's own system overrides CreateTangentOperator with a matrix-free one.
class AssembledTangentOperator final : public TangentOperator {
 public:
  explicit AssembledTangentOperator(const MechanicalSystem& system)
      : system_(system),
        stiffness_(system.CreateMatrix()),
        damping_(system.has_damping_matrix() ? system.CreateMatrix() : SparseMatrix()) {}

  void LinearizeStiffness(const State& state) override {
    system_.AssembleStiffness(state, stiffness_);
  }
  void LinearizeDamping(const State& state) override {
    if (damping_.rows() != 0) system_.AssembleDamping(state, damping_);
  }
  void Multiply(double m, double b, double k, const Vector& x, Vector& y) const override {
    y.setZero(x.size());
    if (m != 0.0) y.noalias() += m * (system_.mass() * x);
    if (b != 0.0 && damping_.rows() != 0) y.noalias() += b * (damping_ * x);
    if (k != 0.0) y.noalias() += k * (stiffness_ * x);
  }

 private:
  const MechanicalSystem& system_;
  SparseMatrix stiffness_, damping_;
};
}  // namespace

std::unique_ptr<TangentOperator> MechanicalSystem::CreateTangentOperator(
    TangentEvaluation /*evaluation*/) const {
  return std::make_unique<AssembledTangentOperator>(*this);
}

Vector MechanicalSystem::mass_diagonal() const { return mass().diagonal(); }

const std::vector<Index>* MechanicalSystem::projected_dofs() const { return nullptr; }

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
  // Entry by entry, split over the threads: the same bits for any thread count.
  if (B != nullptr && b != 0.0) {
    const double* b_values = B->valuePtr();
    ParallelFor(nnz, kVectorGrain, [=](Index begin, Index end) {
      for (Index i = begin; i < end; ++i)
        a_values[i] = m * m_values[i] + b * b_values[i] + k * k_values[i];
    });
  } else {
    ParallelFor(nnz, kVectorGrain, [=](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) a_values[i] = m * m_values[i] + k * k_values[i];
    });
  }
}

}  // namespace fluxion
