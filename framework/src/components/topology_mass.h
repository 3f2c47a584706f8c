// What DiagonalMass and MeshMatrixMass (lumped) share: the mass of each point from the node's
// topology and `vertexMass`, `massDensity` or `totalMass`, in SOFA's order of precedence
// (DiagonalMass::massInitialization): totalMass first, then massDensity, then vertexMass, and
// totalMass = 1 when none is given.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// vertexMass, massDensity, totalMass and the topology link, for both masses.
std::vector<FieldSpec> TopologyMassFields();

/// The topology a mass is spread over and the object's rest points (three coordinates each).
struct MassGeometry {
  std::shared_ptr<const Topology> topology;
  std::vector<std::array<double, 3>> points;
};

/// The node's topology, checked against `object`; null after reporting. `source` names the field
/// that needs it (for the message).
std::optional<MassGeometry> MassGeometryOf(BuildContext& context, const ObjectModel& object,
                                           const char* source);

/// The mass of each point of `object`; false after reporting. When the masses were spread from
/// the topology (not a `vertexMass` list used as given), `geometry` (if not null) receives it.
bool TopologyMasses(BuildContext& context, const ObjectModel& object, std::vector<double>& masses,
                    std::optional<MassGeometry>* geometry = nullptr);

/// The point masses for `totalMass` spread over `geometry`'s elements, as TopologyMasses spreads
/// it (a density total/|elements| times each point's share of unit density: the same bits);
/// false when the topology has no elements.
bool SpreadTotalMass(const MassGeometry& geometry, double total, std::vector<double>& masses);

}  // namespace fluxion::internal
