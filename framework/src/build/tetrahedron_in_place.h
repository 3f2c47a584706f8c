// A removal of tetrahedra followed in place: the running simulation's topology, elements, masses
// and system change by what the removal changes, instead of the scene being built again
// (build/topology_rebuild.cpp, the fallback). The tetrahedron counterpart of
// build/topology_in_place.h (triangles), kept in its own file so that the two sets of followers
// evolve apart. Each handler gives the bits the rebuild gives, so the two paths have the same
// trajectory:
//  - the topology: SOFA's TetrahedronSetTopologyModifier::removeItems on the live containers
//    (mechanics/tetrahedron_shells.h): the tetrahedra, then the triangles, edges and points left
//    without a tetrahedron, each removed slot taking the last element;
//  - TetrahedronFEMForceField and TetrahedralCorotationalFEMForceField on the topology's
//    tetrahedra in order (SOFA's TetrahedronData of TetrahedronInformation /
//    TetrahedronRestInformation, TetrahedronFEMForceField.inl and
//    TetrahedralCorotationalFEMForceField.inl: the last tetrahedron's rest data moved into each
//    removed slot): the elements follow the tetrahedra the same way and the moved points' elements
//    are renamed — what a build from the reduced mesh computes again from the same rest positions
//    (a Young's modulus per element or a localStiffnessFactor would not be: those rebuild);
//  - MeshSpringForceField whose springs are the topology's edges in order: the spring of each
//    removed edge goes as the edge does, the last one moved into its slot;
//  - DiagonalMass given a massDensity (SOFA's DiagonalMass::applyTetrahedronDestruction takes
//    density × volume / 4 of each removed tetrahedron from its vertices): each vertex whose
//    tetrahedra changed gets density × volume / 4 summed over its remaining tetrahedra in their
//    order, as a build sums them (not SOFA's subtraction, whose rounding the build does not
//    have), and its weight m·g follows — as the triangle path does with areas / 3;
//  - UniformMass, the projective constraints' index lists, the MechanicalObject: nothing
//    changes while no point is removed;
//  - points left without a tetrahedron (SOFA's removePointsProcess and the MechanicalObject's and
//    PointData's swap-last handlers): each, in descending order, takes the last point — its
//    state, initial vectors, M's diagonal, fixed DOFs (TopologySubsetIndices: a removed point
//    dropped, the moved one renamed), weight entries — then the elements and springs around the
//    moved point take its number, the vectors shrink where they are, and the solver follows
//    (Solver::FollowSystemChange).
// Anything else — a Tetra2TriangleTopologicalMapping or any topological mapping (its output
// would have to follow: SOFA's Tetra2TriangleTopologicalMapping::updateTopologicalMappingTopDown),
// MeshMatrixMass (its edge couplings), another component not in that set, a direct solver's
// built matrix pattern — makes the change go through the rebuild (the reason logged at debug
// level).
#pragma once

#include <memory>
#include <string>

#include "build/topology_in_place.h"

namespace fluxion::internal {

/// The in-place follower of removals of tetrahedra from `node` (its level kTetrahedron) in the
/// running `simulation`, or null with `why` set. As CreateInPlaceFollower.
std::unique_ptr<InPlaceFollower> CreateTetrahedronFollower(Simulation& simulation,
                                                           ChangingNode& node,
                                                           const SceneDescription& scene,
                                                           std::string& why);

}  // namespace fluxion::internal
