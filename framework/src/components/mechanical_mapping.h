// What SOFA's mechanical mappings share: the input and output objects (SOFA's Mapping::canCreate
// defaults: input "@../", the parent node's object; output "@./", the node's own), BaseMapping's
// switches, and the Jacobian of point weights.
// Source: Sofa/framework/Core/src/sofa/core/Mapping.h (canCreate), Mapping.inl (init: apply,
// applyJ, applyRestPosition), BaseMapping.cpp (mapForces, mapConstraints, mapMasses,
// mapMatrices).
#pragma once

#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The fields every mechanical mapping has: input, output, and BaseMapping's switches.
std::vector<FieldSpec> MechanicalMappingFields();

/// The parent (input) and child (output) of the mapping; {null, null} after reporting.
struct MappingEnds {
  const ObjectModel* parent = nullptr;
  const ObjectModel* child = nullptr;
};
MappingEnds ResolveMappingEnds(BuildContext& context);

/// The edges a distance mapping maps (its `topology` link, else the mapping node's topology,
/// else the input's), checked against the input's points; nullopt after reporting.
std::optional<std::vector<std::array<Index, 2>>> MappingEdges(BuildContext& context,
                                                              const ObjectModel& parent);

/// SOFA's `geometricStiffness` option (None, Exact, Stabilized, or 0, 1, 2), default Stabilized.
FieldSpec GeometricStiffnessField();
/// 0 None, 1 Exact, 2 Stabilized.
int GeometricStiffnessMode(const Parameters& parameters);

/// J for point weights: child point i = Σ w·(parent point p) on every axis, `dimension` axes.
/// `stencils[i]` lists (p, w) for child point i.
SparseMatrix PointJacobian(const std::vector<std::vector<std::pair<Index, double>>>& stencils,
                           Index parent_points, int dimension);

}  // namespace fluxion::internal
