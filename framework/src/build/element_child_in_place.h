// The output of a Quad2TriangleTopologicalMapping (below a quad node) or of a
// Hexa2QuadTopologicalMapping (below a hexahedral node), in a child node of a node whose removals
// are followed in place (build/quad_hexahedron_in_place.h), and what the child holds, followed
// with them instead of through the rebuild — SOFA's mapping handling the input's events
// (Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/):
//  - Quad2TriangleTopologicalMapping.cpp, updateTopologicalMappingTopDown: QUADSREMOVED, after
//    the input changes: each removed quad's two triangles go (the output's removeTriangles of the
//    pair), In2OutMap and Loc2GlobVec swapped as SOFA swaps them for the quad the input moves
//    into the removed slot;
//  - Hexa2QuadTopologicalMapping.cpp: HEXAHEDRAREMOVED, before the input changes: each quad of
//    a removed hexahedron shared with a hexahedron not removed before it in the event's list is
//    uncovered, and appended to the output as that neighbour orients it (flipNormals: reversed),
//    Loc2GlobVec and Glob2LocMap recording it; QUADSREMOVED, after: the output quads of the
//    removed input quads go, one at a time, the maps swapped as SOFA swaps them;
//  - POINTSREMOVED (both): the output's points follow the input's (the last point into each
//    freed slot).
// The work is that of the change: the input's shells (mechanics/element_shells.h) give the quads
// around the removed hexahedra, the output's (mechanics/face_surface_shells.h) its edges and
// elements around a point; In2OutMap stays SOFA's map (a few entries touched per removed quad),
// Glob2LocMap is a vector (LiveMappedOutput). The result is mechanics/mapped_topology_follow.h's
// FollowRemoval (the rebuild's), element for element, and the stage's FollowedMapping is kept
// so that a later rebuild starts from it (FollowedMapping::live).
// The child's components that follow:
//  - TriangularFEMForceField on a Quad2Triangle output's triangles in order (SOFA's TriangleData
//    of TriangleInformation on the output: the last triangle's rest data moved into each removed
//    slot, TriangularFEMForceField.inl): the elements follow the triangles, the moved points'
//    elements are renamed — what a build from the reduced output computes again;
//  - TriangularBendingSprings (Quad2Triangle) and QuadularBendingSprings (Hexa2Quad) on the
//    output: the springs of the output's edges with two elements, in edge order, written again
//    as their builds make them (components/triangular_bending_springs.cpp,
//    components/quadular_bending_springs.cpp; SOFA's handlers keep the same springs, see
//    build/topology_in_place.cpp and build/quad_hexahedron_in_place.cpp);
//  - collision models the pipeline reads on the output (build/in_place_collision.h: they re-read
//    the output, SOFA's updateFromTopology);
//  - the container, its modifier and geometry, the mapping, BoxROI, visual models and their
//    IdentityMapping (no mechanical object).
// Anything else below the child — a pressure on the output (its TopologySubsetData is followed
// for Tetra2Triangle only, build/mapped_child_in_place.h), a mechanical object of its own,
// another mapping rule — is refused with its reason, and the change goes through the rebuild.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "mechanics/element_shells.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;

/// The follower of one topological mapping's child below a quad (Shape = QuadShape) or
/// hexahedral (HexahedronShape) node.
template <class Shape>
class ElementChildInPlace {
 public:
  virtual ~ElementChildInPlace() = default;
  /// True when the component at element line `line` is this child's (followed here).
  virtual bool Claims(int line) const = 0;
  /// True when field `index` of the system is followed here.
  virtual bool Follows(std::size_t index) const = 0;
  /// True when the child follows fields with matrix entries (a direct solver's built pattern
  /// holds them: a removal then rebuilds).
  virtual bool HasMatrixEntries() const = 0;
  /// Once the node's follower has set its rest points: empty when what the child follows is
  /// what it computes again (the bending springs), else why not.
  virtual std::string Verify() = 0;
  /// Before the input `input` (its shells `shells`) loses the elements `ids` (as the processor
  /// lists them): HEXAHEDRAREMOVED.
  virtual void BeforeRemoval(ChangingNode& node, const Topology& input,
                             const ElementShells<Shape>& shells, std::span<const Index> ids) = 0;
  /// After the input's removal `done` (its points' followers done): QUADSREMOVED, POINTSREMOVED.
  virtual void AfterRemoval(Simulation& simulation, ChangingNode& node,
                            const ElementRemoval& done) = 0;
  /// Empty when the child follows an addition to its input, else why not (nothing changed).
  virtual std::string AdditionRefusal() const = 0;
  /// After the input's addition `done` (the input holding the new elements): Quad2Triangle's
  /// QUADSADDED (triangles (q0, q1, q2) and (q0, q2, q3) of each new quad appended, Loc2GlobVec
  /// and In2OutMap recording them); Hexa2Quad's mapping has no handler for added hexahedra (its
  /// output stays as it is, mechanics/mapped_topology_follow.h FollowAddition).
  virtual void AfterAddition(Simulation& simulation, ChangingNode& node, const Topology& input,
                             const ElementAddition& done) = 0;
  /// Puts the live output in the simulation and in its FollowedMapping (once the node's follower
  /// is made).
  virtual void Install(Simulation& simulation, ChangingNode& node) = 0;
};

/// The followers of every topological mapping of `node` (its level Shape's), each with the
/// components of its child node, or an empty list with `why` set when one cannot follow in
/// place. `system`, `first_dof` and `dimension` are the node's object's; `rest_points` the
/// node's follower's rest points (kept current by it through point removals). Nothing is changed
/// until Install.
template <class Shape>
std::vector<std::unique_ptr<ElementChildInPlace<Shape>>> CreateElementChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, int dimension,
    const std::vector<std::array<double, 3>>& rest_points, std::string& why);

}  // namespace fluxion::internal
