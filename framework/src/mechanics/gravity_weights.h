// Gravity acting through the masses, kept changeable between steps: each mass's weight remembers
// its point masses and the gravity it follows, so that a new gravity (fluxion-view's panel, a
// SofaPython3 controller writing the root's `gravity`) or a new mass recomputes f_i = g·m_i
// exactly as the build computed it.
// Source: Sofa/Component/Mass/src/sofa/component/mass/UniformMass.inl (addForce: f += m·g, with
// g the context's gravity, read at every step).
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "fluxion/types.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

/// The weight of one mass component on one object: F = m_i·g on every DOF of point i (every
/// axis, including those where g is 0 at load, so that any later gravity has a place to go).
/// The force field itself is owned by the system (or a mapped object's force fields) for the
/// simulation's lifetime; this only rewrites its values between steps.
class Weight {
 public:
  Weight(ConstantForce* force, int dimension, std::vector<double> point_mass)
      : force_(force),
        dimension_(dimension),
        point_mass_(std::move(point_mass)),
        values_(point_mass_.size() * static_cast<std::size_t>(dimension)) {}

  /// The values the build gives the force for gravity `g`, in its DOF order: g_a·m_i (the same
  /// product, in the same order, as a scene written with that gravity).
  const std::vector<double>& ValuesFor(const std::array<double, 3>& g) {
    for (std::size_t i = 0; i < point_mass_.size(); ++i)
      for (int a = 0; a < dimension_; ++a)
        values_[i * static_cast<std::size_t>(dimension_) + static_cast<std::size_t>(a)] =
            g[static_cast<std::size_t>(a)] * point_mass_[i];
    return values_;
  }
  /// Rewrites the force for gravity `g` (between steps).
  void Apply(const std::array<double, 3>& g) {
    gravity_ = g;
    force_->SetValues(ValuesFor(g));
  }
  /// New point masses (same count), then Apply(g).
  void SetPointMass(std::span<const double> point_mass, const std::array<double, 3>& g) {
    std::copy(point_mass.begin(), point_mass.end(), point_mass_.begin());
    Apply(g);
  }
  std::size_t num_points() const { return point_mass_.size(); }
  const std::vector<double>& point_mass() const { return point_mass_; }

  /// Point `point`'s mass changed between steps (a mesh changed in place,
  /// build/topology_in_place.cpp): its entries become g_a·m with the gravity last applied, the
  /// product the build makes.
  void SetPointMassAt(std::size_t point, double mass) {
    point_mass_[point] = mass;
    changed_in_place_ = true;
    const auto d = static_cast<std::size_t>(dimension_);
    for (std::size_t a = 0; a < d; ++a)
      force_->SetValueAt(force_->dofs()[point * d + a], gravity_[a] * mass);
  }
  /// Point `point` removed between steps, the last point moving into its slot (SOFA's
  /// removePointsProcess), in the masses and the force's entries; no reallocation.
  void RemovePointMovingLast(std::size_t point) {
    const auto d = static_cast<std::size_t>(dimension_);
    point_mass_[point] = point_mass_.back();
    point_mass_.pop_back();
    values_.resize(point_mass_.size() * d);
    force_->RemoveEntriesMovingLast(point * d, d);
    changed_in_place_ = true;
  }
  /// True once the mesh changed in place: a mass rule written for the loaded mesh (a UniformMass's
  /// or DiagonalMass's runtime field) no longer describes it.
  bool changed_in_place() const { return changed_in_place_; }

 private:
  ConstantForce* force_;
  int dimension_;
  std::vector<double> point_mass_;
  std::vector<double> values_;
  std::array<double, 3> gravity_{};  // the last applied
  bool changed_in_place_ = false;
};

/// One gravity of the scene (the root's `gravity` attribute, or a Gravity component's, which
/// overrides it in its node's subtree) and the weights of the masses under it.
struct GravitySource {
  std::array<double, 3> gravity{};
  std::vector<std::shared_ptr<Weight>> weights;

  /// Sets the gravity and rewrites every weight that follows it (between steps).
  void Set(const std::array<double, 3>& g) {
    gravity = g;
    for (const std::shared_ptr<Weight>& weight : weights) weight->Apply(g);
  }
};

/// A mass changed between steps: the new per-DOF diagonal of M for the DOFs
/// [first_dof, first_dof + dof_mass.size()) of solver node `system`. The setter fills it; the
/// simulation then writes it into the system's M and restarts that node's solver (its caches
/// of M: inverse diagonal, factorisations, history).
struct MassChange {
  int system = -1;
  Index first_dof = 0;
  Vector dof_mass;
};

}  // namespace fluxion::internal
