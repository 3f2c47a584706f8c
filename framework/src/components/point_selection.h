// Helpers shared by the built-in components for the points they act on: range checks with the
// scene author's message, SOFA's "no indices means every point", and point → system DOF.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fluxion/component.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

/// "1 point" / "3 points".
std::string PointCount(Index points);

/// "at most N points in the whole scene, for a memory budget of B: SOURCE": what a component
/// says when the points it would create exceed `limit`. When `limit` is below
/// max_scene_points(), it is a cap of the component's own (an absurd grid), and the memory budget
/// is not named.
std::string PointLimitText(const BuildContext& context, Index limit);

/// What the memory budget leaves for a mesh file the component reads: the points the scene may
/// still add to its topologies (max_scene_points() − topology_points()).
MeshBudget MeshBudgetOf(const BuildContext& context);

/// True if `index` is a point of `object`; otherwise reports "<Type> WHAT INDEX is out of range
/// (object 'id' has N points: expected 0..N-1)" and returns false. `written`, when given, is the
/// index as the scene wrote it (it may not fit an Index).
bool CheckIndex(BuildContext& context, Index index, const ObjectModel& object,
                const std::string& what, std::optional<double> written = std::nullopt);

/// The points `field` lists, or every point of `object` when it lists none (SOFA's default for
/// ConstantForceField's indices).
std::vector<Index> PointsOrAll(const Parameters& parameters, const char* field,
                               const ObjectModel& object);

/// Appends the system DOF of axis 0 of each point; false after reporting the first point out of
/// range.
bool PointDofs(BuildContext& context, const ObjectModel& object, const std::vector<Index>& points,
               std::vector<Index>& dofs);

}  // namespace fluxion::internal
