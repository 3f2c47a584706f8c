// What SOFA's lumped masses share: point masses and gravity acting through them.
// Source: Sofa/Component/Mass/src/sofa/component/mass/UniformMass.inl (addForce), DiagonalMass.inl
#pragma once

#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// Gravity acts through the masses, as SOFA's Mass::addForce: f += m_i·g per point, with g the
/// gravity of the mass's node. Adds that force (nothing when g = 0) and sets the point masses.
void ApplyPointMasses(BuildContext& context, const ObjectModel& object,
                      const std::vector<double>& point_mass);

/// Only the weight: f += m_i·g per point (for a consistent mass, m_i is its lumped row sum).
void AddWeight(BuildContext& context, const ObjectModel& object,
               const std::vector<double>& point_mass);

}  // namespace fluxion::internal
