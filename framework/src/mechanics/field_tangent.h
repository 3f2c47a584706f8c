// The matrix-free tangent operator of the framework's mechanical system, force field by field.
#pragma once

#include <memory>
#include <vector>

#include <Eigen/SparseCore>

#include "fluxion/force_field.h"
#include "fluxion/mechanical_system.h"

namespace fluxion::internal {

class SpringForceField;

/// y = (m·M + b·B + k·K)·x evaluated as SOFA's `addMBKdx` does: the mass term point by point,
/// then each force field's own product in the system's field order. No sparse pattern exists:
///
///  - a field with a product of its own (ForceField::TangentSize() ≥ 0, e.g. springs: one
///    symmetric block per spring) stores its tangent in a slice of one array and multiplies
///    with it;
///  - any other field is assembled into a private list of (row, column, value) entries — its
///    StiffnessEntries and DampingEntries — and multiplied entry by entry. Correct for every
///    field; the cost is the field's own entry count, not a global pattern.
///
/// With TangentEvaluation::kRecomputed, springs without an exact damping Jacobian store nothing:
/// LinearizeStiffness keeps the state and each product evaluates their blocks from it
/// (SpringForceField::AddStiffnessProductAt).
///
/// Sizes are fixed at construction: Linearize* and Multiply never allocate — except after a
/// field with a product of its own grew between steps (an addition of elements followed in place,
/// build/addition_in_place.h): the next Linearize* finds a TangentSize beyond the field's slice,
/// gives it twice its slice (amortised: the next additions fit) and lays the slices out again,
/// which invalidates every stored tangent. Both linearisations must then come before a product
/// that uses them, as every step of the implicit solvers does (K and, with a damping matrix, B
/// at the step's start).
class FieldTangent final : public TangentOperator {
 public:
  /// `mass_diagonal`: M's diagonal; `mass_couplings`: its off-diagonal entries (both triangles).
  /// The fields must outlive the operator.
  FieldTangent(const Vector& mass_diagonal,
               const std::vector<Eigen::Triplet<double, int>>& mass_couplings,
               const std::vector<std::unique_ptr<ForceField>>& fields,
               TangentEvaluation evaluation = TangentEvaluation::kStored);

  void LinearizeStiffness(const State& state) override;
  void LinearizeDamping(const State& state) override;
  void Multiply(double m, double b, double k, const Vector& x, Vector& y) const override;
  /// True when every field keeps its own tangent (native: TangentSize ≥ 0, written at each
  /// linearisation, which a field whose springs were removed or renumbered writes shorter) or
  /// has none, and M has no couplings: nothing here is then indexed by DOF, and M's diagonal is
  /// the system's own. A field stored as entries (rows and columns taken at construction) or a
  /// coupled mass would be stale after DOFs are renumbered.
  bool FollowsSystemChanges() const override;

 private:
  // The entries of one field without a product of its own, and their values at the last
  // linearisation.
  struct AssembledEntries {
    std::vector<Index> rows, cols;
    std::vector<double> values;
  };
  struct Part {
    const ForceField* field = nullptr;
    bool native = false;
    const SpringForceField* recomputed = nullptr;  // kRecomputed springs: products from state_
    std::size_t offset = 0;                        // native: where its tangent starts in native_
    std::size_t capacity = 0;                      // native: the length of its slice
    AssembledEntries stiffness, damping;
  };

  // Lays the native slices out again when a field's tangent outgrew its slice (see above).
  void FollowGrowth();

  const Vector& mass_diagonal_;
  std::vector<Eigen::Triplet<double, int>> mass_couplings_;
  std::vector<Part> parts_;
  std::vector<double> native_;
  const State* state_ = nullptr;       // the state last linearised, for recomputed parts
  std::vector<Index> identity_slots_;  // 0, 1, 2, …: AddStiffness writes entry k at values[k]
};

}  // namespace fluxion::internal
