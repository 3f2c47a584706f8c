// What SOFA's lumped masses share: point masses and gravity acting through them.
// Source: Sofa/Component/Mass/src/sofa/component/mass/UniformMass.inl (addForce), DiagonalMass.inl
#pragma once

#include <memory>
#include <vector>

#include "fluxion/component.h"
#include "mechanics/gravity_weights.h"

namespace fluxion::internal {

/// Gravity acts through the masses, as SOFA's Mass::addForce: f += m_i·g per point, with g the
/// gravity of the mass's node. Adds that force and sets the point masses; returns the weight
/// (AddWeight).
std::shared_ptr<Weight> ApplyPointMasses(BuildContext& context, const ObjectModel& object,
                                         const std::vector<double>& point_mass);

/// Only the weight: f += m_i·g per point (for a consistent mass, m_i is its lumped row sum).
/// Built by the framework's context, the weight follows later changes of the gravity between
/// steps (on every axis, so it exists even while g = 0) and is returned; another context (none
/// today) gets a fixed force on the axes where g ≠ 0, and null.
std::shared_ptr<Weight> AddWeight(BuildContext& context, const ObjectModel& object,
                                  const std::vector<double>& point_mass);

}  // namespace fluxion::internal
