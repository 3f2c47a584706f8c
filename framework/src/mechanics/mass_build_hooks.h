// What the framework's scene builder offers the framework's own mass components beyond the
// public BuildContext: weights that follow gravity changes and masses changeable between steps.
// Components reach it by dynamic_cast from their BuildContext (a context that is not the
// framework's has none, and its masses stay fixed). Kept out of fluxion/component.h: the hooks
// hand out internal types (Weight) and no plugin needs them.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fluxion/model.h"
#include "mechanics/gravity_weights.h"

namespace fluxion::internal {

class MassBuildHooks {
 public:
  /// The weight of `point_mass` (one per point of `object`) under the gravity of the
  /// component's node: f = m_i·g on every DOF (a ConstantForce given to the object's system),
  /// which follows any later change of that gravity (Simulation::SetComponentField on the
  /// root's or a Gravity component's `gravity`). Null for a static object.
  virtual std::shared_ptr<Weight> AddWeight(const ObjectModel& object,
                                            const std::vector<double>& point_mass) = 0;

  /// Turns a changeable mass field's value into per-point masses; throws ConfigError "what is
  /// wrong (what was expected)" to refuse it.
  using PointMassRule = std::function<std::vector<double>(std::span<const double> values)>;
  /// Declares the component's field `field` changeable between steps: the rule's point masses
  /// replace the object's diagonal of M and `weight`'s masses, and the system's solver restarts
  /// from the current state (rebuilding what it cached from M). Only for an object a solver
  /// moves directly (not mapped) and without consistent-mass couplings: otherwise nothing is
  /// declared and the field stays fixed.
  virtual void AddRuntimeMass(const ObjectModel& object, const std::string& field,
                              std::shared_ptr<Weight> weight, PointMassRule rule) = 0;

 protected:
  ~MassBuildHooks() = default;
};

}  // namespace fluxion::internal
