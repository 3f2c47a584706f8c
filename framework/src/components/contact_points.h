// The points a penalty-contact load acts on (PlaneForceField, SphereForceField): every point of
// the node's object, or SOFA's optional `localRange` of them.
#pragma once

#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The first system DOF of each point in `localRange` (SOFA: "-1 -1" for all; a begin or an end
/// of −1 leaves that side open); false after reporting.
bool ContactPoints(BuildContext& context, const ObjectModel& object, std::vector<Index>& firsts);

}  // namespace fluxion::internal
