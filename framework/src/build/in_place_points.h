// The part of a removal followed in place that concerns the object's points, shared by the
// triangle and tetrahedron followers (build/topology_in_place.cpp, build/tetrahedron_in_place.cpp).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"

namespace fluxion::internal {

class AssembledSystem;
class ConstantForce;

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
