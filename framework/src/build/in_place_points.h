// What the triangle and tetrahedron followers of a removal in place share
// (build/topology_in_place.cpp, build/tetrahedron_in_place.cpp): the components that need no
// follow, the lookups of a component's scene element and force field, and the part of a removal
// that concerns the object's points.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/force_field.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;
class ConstantForce;

/// True for the components that follow a removal freeing no point with nothing to do (their data
/// index points, which keep their numbers) and the loaders; when points go, the node's index
/// lists and the system rename or drop them (AssembledSystem::RemovePointMovingLast,
/// mechanics/point_list_follower.h), whatever the elements.
bool FollowsRemovalUnchanged(std::string_view type);

/// The scene element at `line` in `node`'s subtree, or null.
const ElementDescription* FindElementAt(const NodeDescription& node, int line);

/// The force field of component `path` (its only stiffness source when `sources` comes back 1),
/// or null.
const ForceField* FieldOf(const Simulation& simulation, const std::string& path, int& sources);

/// A point's mass summed again by a follower: into M's diagonal (its `dimension` DOFs from
/// `first_dof`), and onto the lists Solver::FollowSystemChange takes (`mass_dofs`, `masses`).
void SetPointMass(AssembledSystem& system, Index first_dof, int dimension, double mass,
                  std::vector<Index>& mass_dofs, std::vector<double>& masses);

/// What a follower indexes by the object's points.
struct PointIndexedState {
  AssembledSystem& system;
  Index first_dof;  ///< the object's first DOF in the system
  int dimension;
  std::span<ConstantForce* const> point_forces;  ///< loads with an entry (or a weight) per point
  std::vector<std::array<double, 3>>& rest_points;
  std::vector<Index>& touched;  ///< vertices whose mass is summed again after the removal
};

/// SOFA's removePointsProcess (PointSetTopologyModifier.cpp, and the MechanicalObject's and
/// PointData's swap-last handlers) for everything indexed by the object's points, point by point
/// in the descending order of the removal, `removed[i]` taking the point then last, `moved[i]`:
/// the system's DOFs (M, fixed DOFs), the loads' entries or weights, the rest points, the touched
/// vertices, the node's initial vectors and constrained index lists (TopologySubsetIndices: the
/// removed point dropped, the order kept, the moved one renamed); then the initial vectors shrink
/// to `remaining` points and the simulation's state follows (SimulationAccess::
/// RemoveObjectPoints). The elements around each moved point are the caller's to rename.
void RemovePointsMovingLast(Simulation& simulation, ChangingNode& node, PointIndexedState state,
                            std::span<const Index> removed, std::span<const Index> moved,
                            Index remaining);

}  // namespace fluxion::internal
