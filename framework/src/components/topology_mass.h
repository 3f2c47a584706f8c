// What DiagonalMass and MeshMatrixMass (lumped) share: the mass of each point from the node's
// topology and `vertexMass`, `massDensity` or `totalMass`, in SOFA's order of precedence
// (DiagonalMass::massInitialization): totalMass first, then massDensity, then vertexMass, and
// totalMass = 1 when none is given.
#pragma once

#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// vertexMass, massDensity, totalMass and the topology link, for both masses.
std::vector<FieldSpec> TopologyMassFields();

/// The mass of each point of `object`; false after reporting.
bool TopologyMasses(BuildContext& context, const ObjectModel& object, std::vector<double>& masses);

}  // namespace fluxion::internal
