// Removals of quads and of hexahedra followed in place: the running simulation's topology,
// elements, springs, masses and system change by what the removal changes, instead of the scene
// being built again (build/topology_rebuild.cpp, the fallback). The quad and hexahedron
// counterpart of build/topology_in_place.h (triangles) and build/tetrahedron_in_place.h
// (tetrahedra): one follower written over the element kind (ElementShells<Shape>,
// mechanics/element_shells.h), each handler giving the bits the rebuild gives, so the two paths
// have the same trajectory:
//  - the topology: SOFA's QuadSetTopologyModifier / HexahedronSetTopologyModifier::removeItems
//    on the live containers: the elements, then the quads (of hexahedra), edges and points left
//    without an element, each removed slot taking the last element;
//  - HexahedronFEMForceField and HexahedralFEMForceField on the topology's hexahedra in order
//    (SOFA's HexahedronData of HexahedronInformation, HexahedronFEMForceField.inl and
//    HexahedralFEMForceField.inl: the last hexahedron's rest data moved into each removed slot):
//    the elements follow the hexahedra the same way, their shared stiffness index with them, and
//    the moved points' elements are renamed — what a build from the reduced mesh computes again
//    from the same rest positions, when the elements sharing a stiffness have the same shape to
//    the bit (HexahedronFem::SharedStiffnessesExact; otherwise the build's shared matrix is the
//    first element's, which a removal changes: the rebuild). (SOFA's HexahedronFEMForceField has
//    no per-element handler: its handleTopologyChange makes its next step compute every element
//    again from the rest positions — the same values.)
//  - MeshSpringForceField whose springs are the topology's edges in order: the spring of each
//    removed edge goes as the edge does, the last one moved into its slot;
//  - QuadularBendingSprings (SOFA's applyQuadDestruction: an edge losing one of its two quads
//    loses its two springs): the springs of the edges left with two quads, in edge order, as
//    its build makes them (components/quadular_bending_springs.cpp), written again into the
//    field's list — work proportional to the edges (the springs' order is the edges' rank
//    among those with two quads, which a removal shifts), no allocation;
//  - DiagonalMass given a massDensity (SOFA's DiagonalMass::applyQuadDestruction /
//    applyHexahedronDestruction take density × area / 4, density × volume / 8 of each removed
//    element from its vertices): each vertex whose elements changed gets that share summed over
//    its remaining elements in their order, as a build sums them (not SOFA's subtraction, whose
//    rounding the build does not have), and its weight m·g follows;
//  - UniformMass, the projective constraints' and BoxROI's index lists, the MechanicalObject:
//    nothing changes while no point is removed;
//  - points left without an element (SOFA's removePointsProcess and the MechanicalObject's and
//    PointData's swap-last handlers): build/in_place_points.h, then the elements and springs
//    around each moved point take its number, and the solver follows
//    (Solver::FollowSystemChange).
//  - a Quad2TriangleTopologicalMapping (below quads) or Hexa2QuadTopologicalMapping (below
//    hexahedra) child and its components: build/element_child_in_place.h, told before the input
//    changes (HEXAHEDRAREMOVED) and after (QUADSREMOVED, POINTSREMOVED);
//  - collision models the pipeline reads on the topology: build/in_place_collision.h.
// Anything else — MeshMatrixMass (its edge couplings), a direct solver's built matrix pattern
// with a FEM or bending springs, a component of a mapped child that element_child_in_place.h does
// not follow, another component — makes the change go through the rebuild (the reason logged at
// debug level).
#pragma once

#include <memory>
#include <string>

#include "build/topology_in_place.h"

namespace fluxion::internal {

/// The in-place follower of removals of quads or hexahedra from `node` (its level kQuad or
/// kHexahedron) in the running `simulation`, or null with `why` set. As CreateInPlaceFollower.
std::unique_ptr<InPlaceFollower> CreateQuadHexahedronFollower(Simulation& simulation,
                                                              ChangingNode& node,
                                                              const SceneDescription& scene,
                                                              std::string& why);

}  // namespace fluxion::internal
