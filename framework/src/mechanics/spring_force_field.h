// Springs with dashpots between points, exactly as SOFA's SpringForceField computes them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fluxion/force_field.h"
#include "mechanics/point_partition.h"

namespace fluxion::internal {

/// SOFA's activity threshold: a spring shorter than this exerts no force and no stiffness.
inline constexpr double kMinimumSpringLength = 1e-9;

/// One spring between the points whose first DOFs are `a` and `b` (system-level indices).
struct Spring {
  Index a = 0;
  Index b = 0;
  double stiffness = 0.0;    ///< ks [N/m]
  double damping = 0.0;      ///< kd [N·s/m], along the spring axis
  double rest_length = 0.0;  ///< L0 [m]
};

/// A spring as the field stores it: 32 bytes instead of 40 (32-bit DOF indices), so that the
/// loops over a large mesh's springs move a fifth less memory. The field keeps only this list;
/// a component building many springs (a mesh's) may list them so directly.
struct PackedSpring {
  std::int32_t a = 0;
  std::int32_t b = 0;
  double stiffness = 0.0;
  double damping = 0.0;
  double rest_length = 0.0;
};

/// SOFA's SpringForceField (sofa-notes §3). For a spring from a to b:
///
///   u = x_b − x_a,  d = ‖u‖,  û = u/d,  e = d − L0,  ė = û·(v_b − v_a)
///   fi = ks·e + kd·ė,  f_a += fi·û,  f_b −= fi·û              (only when d > 1e-9)
///
/// Tangent (SOFA's dfdx; fi includes the dashpot term, so damping leaks into the geometric part):
///
///   D = (ks − fi/d)·ûûᵀ + (fi/d)·I,   K_aa = K_bb = D,  K_ab = K_ba = −D   (K = −∂f/∂x)
///
/// The potential energy is Σ ½·ks·(d − L0)² over every spring, active or not (SOFA's
/// getPotentialEnergy); the dashpot stores none.
///
/// Force and stiffness are evaluated in parallel over a PointPartition of the springs' ends (one
/// range per thread, fluxion/threads.h): each point's force, and each stiffness entry (owned by
/// its column's point), receives its terms in spring order whatever the thread count, so the
/// results are the same to the bit.
///
/// By default the dashpot is explicit only (no B), as in SOFA. With `exact_damping_jacobian`
/// (a Fluxion extension) the field also provides B = −∂f/∂v: B_aa = B_bb = kd·ûûᵀ, B_ab = −kd·ûûᵀ.
class SpringForceField final : public ForceField {
 public:
  /// `min_length`: the activity threshold (SOFA's bending springs use 1e-4).
  SpringForceField(int dimension, const std::vector<Spring>& springs, bool exact_damping_jacobian,
                   double min_length = kMinimumSpringLength);
  /// The same from packed springs (no copy: the list is the field's).
  SpringForceField(int dimension, std::vector<PackedSpring> springs, bool exact_damping_jacobian,
                   double min_length = kMinimumSpringLength);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  void DampingEntries(std::vector<MatrixEntry>& entries) const override;
  void AddDamping(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

  /// Matrix-free tangent: per spring the symmetric block D above (upper triangle, row by row),
  /// then, with the exact damping Jacobian, the block kd·ûûᵀ: (K·x)_a = −D·(x_b − x_a) and
  /// (K·x)_b = D·(x_b − x_a), as SOFA's addDForce multiplies by its stored dfdx.
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void LinearizeDamping(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;

  bool exact_damping_jacobian() const { return exact_damping_jacobian_; }
  int dimension() const { return dimension_; }

  /// The springs as stored, in the order they were given.
  const std::vector<PackedSpring>& springs() const { return packed_; }
  /// Sets spring k's ks [N/m] and kd [N·s/m], between steps only: a component's field changed
  /// while the simulation runs (Simulation::SetComponentField). The matrix pattern is unchanged.
  void SetCoefficients(std::size_t k, double stiffness, double damping) {
    packed_[k].stiffness = stiffness;
    packed_[k].damping = damping;
  }

  /// Removes the springs `sorted_descending` (distinct, descending), each slot taking the spring
  /// then last, as SOFA's containers remove elements: a field whose springs are a topology's
  /// edges in order follows that topology's edge removal (build/topology_in_place.h). Between
  /// steps only. The thread partition is recomputed on its next use (with several threads).
  void RemoveSpringsMovingLast(std::span<const Index> sorted_descending);
  /// Replaces the springs by `springs`, no more than the field's capacity (its list is rewritten
  /// where it is: nothing allocated), between steps only: a field whose springs depend on the
  /// topology around them (TriangularBendingSprings) following a topological change. The thread
  /// partition is recomputed on its next use (with several threads).
  void AssignSprings(std::span<const PackedSpring> springs);
  /// Room for `count` springs (AssignSprings' capacity), between steps only: a field whose
  /// springs a topological change may add to (TriangularBendingSprings on a growing surface).
  void ReserveSprings(std::size_t count) { packed_.reserve(count); }
  /// Spring k's ends become DOFs `a` and `b` (first DOFs of their points), between steps only: a
  /// point renumbered by a topological change (the last point moved into a removed one's slot).
  void SetSpringEnds(std::size_t k, Index a, Index b) {
    packed_[k].a = static_cast<std::int32_t>(a);
    packed_[k].b = static_cast<std::int32_t>(b);
    partition_ = PointPartition();
  }

  /// K·x at `state` evaluated spring by spring from the state, storing nothing: y += k·K(state)·x
  /// with the blocks D of LinearizeStiffness, each computed when used (the same bits as a product
  /// with the stored tangent). For a few products (the stability check's power iteration), where
  /// the stored tangent would cost 48 bytes per spring.
  void AddStiffnessProductAt(const State& state, double k, const Vector& x, Vector& y) const;

 private:
  template <int kDim>
  void AddForceImpl(const State& state, Vector& f) const;
  template <int kDim>
  void AddForceRange(const State& state, Vector& f, int range) const;
  /// The partition for `tasks` ranges, built on first use for that count (it allocates then:
  /// only when the thread count changes, never in a steady run).
  const PointPartition& Partition(int tasks) const;
  /// With springs enough to split (kSpringGrain), calls loop(range) for each range of the
  /// partition, one per thread, and returns true; else returns false (the caller runs serially).
  template <class RangeLoop>
  bool RunOnRanges(RangeLoop&& loop) const;
  template <int kDim, class Term>
  void ScatterOverRange(Vector& y, int range, Term&& term) const;
  template <int kDim>
  void AddStiffnessImpl(const State& state, const Index* slots, double* values) const;
  template <int kDim>
  void AddStiffnessRange(const State& state, const Index* slots, double* values, int range) const;
  template <int kDim>
  void AddDampingImpl(const State& state, const Index* slots, double* values) const;
  template <int kDim>
  void LinearizeImpl(const State& state, bool damping, double* tangent) const;
  template <int kDim>
  void AddStiffnessProductRange(const State& state, double k, const Vector& x, Vector& y,
                                int range) const;
  template <int kDim>
  void AddTangentProductImpl(const double* tangent, double b, double k, const Vector& x,
                             Vector& y) const;
  template <int kDim>
  void AddTangentProductRange(const double* tangent, double b, double k, const Vector& x, Vector& y,
                              int range) const;
  void Entries(std::vector<MatrixEntry>& entries) const;
  std::size_t BlockSize() const {
    return static_cast<std::size_t>(dimension_ * (dimension_ + 1) / 2);
  }

  int dimension_;
  std::vector<PackedSpring> packed_;  // the springs, held once
  bool exact_damping_jacobian_;
  double min_length_;
  mutable PointPartition partition_;
};

/// Springs per thread at least: below 2 × this a spring loop stays on one thread.
inline constexpr Index kSpringGrain = 4096;

}  // namespace fluxion::internal
