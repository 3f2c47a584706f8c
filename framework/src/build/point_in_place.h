// A removal of points (PointSetTopologyModifier) followed in place: the running simulation's
// state, masses, constraints and springs change by what the removal changes, instead of the
// scene being built again (build/topology_rebuild.cpp, the fallback). The point counterpart of
// build/topology_in_place.h (triangles) and build/tetrahedron_in_place.h (tetrahedra); the same
// rules, each giving the bits the rebuild gives:
//  - the points: SOFA's PointSetTopologyModifier::removePoints (PointSetTopologyModifier.cpp:
//    the indices past the end skipped, the rest sorted descending, each removed point taking the
//    point then last — removePointsProcess and the MechanicalObject's and PointData's swap-last
//    handlers), on the live container's points, the state and initial vectors, M's diagonal,
//    the fixed DOFs and index lists (TopologySubsetIndices), the weights (build/in_place_points.h);
//  - UniformMass: each point's mass moves with it (`updateMassOnResize`, as the rebuild's
//    `vertexMass`);
//  - a SpringForceField with an end on the object, in any node (SOFA's
//    SpringForceField::applyRemovedPoints, SpringForceField.inl): the springs on a removed point
//    erased, the others kept in order, those on the moved point renamed — the records the
//    rebuild writes (RemoveSpringPoints), written into the field again. That costs the field's
//    springs, as SOFA's erase from its vector does, not the scene;
//  - the solver: Solver::FollowSystemChange with the removed blocks.
// Anything else — another component on the node, a topological mapping, a direct solver's built
// pattern, points that are not the system's last — makes the change go through the rebuild (the
// reason logged at debug level).
#pragma once

#include <memory>
#include <string>

#include "build/topology_in_place.h"

namespace fluxion::internal {

/// The in-place follower of removals of points from `node` (its level kPoint) in the running
/// `simulation`, or null with `why` set. As CreateInPlaceFollower.
std::unique_ptr<InPlaceFollower> CreatePointFollower(Simulation& simulation, ChangingNode& node,
                                                     const SceneDescription& scene,
                                                     std::string& why);

}  // namespace fluxion::internal
