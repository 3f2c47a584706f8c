// A Tetra2TriangleTopologicalMapping's output, in a child node of a tetrahedral node whose
// removals are followed in place (build/tetrahedron_in_place.h), and what the child holds,
// followed with them instead of through the rebuild — SOFA's mapping handling the input's events
// (Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
// Tetra2TriangleTopologicalMapping.cpp, updateTopologicalMappingTopDown):
//  - TETRAHEDRAREMOVED, before the input changes: each face of a removed tetrahedron shared with
//    a tetrahedron not removed before it in the event's list is uncovered, and appended to the
//    surface as that neighbour orients it (flipNormals, smallest vertex first), Loc2GlobVec and
//    Glob2LocMap recording it (nothing with noNewTriangles);
//  - TRIANGLESREMOVED, after: the surface triangles of the removed faces go, the maps swapped as
//    SOFA swaps them;
//  - POINTSREMOVED: the surface's points follow the input's (the last point into each freed
//    slot).
// The work is that of the change: the input's shells (mechanics/tetrahedron_shells.h) give the
// faces around the removed tetrahedra, the surface's (mechanics/surface_shells.h) its edges and
// triangles around a point; the maps are SOFA's. The result is mechanics/mapped_topology_follow.h's
// FollowRemoval (the rebuild's), element for element, and the stage's FollowedMapping is kept so
// that a later rebuild starts from it (FollowedMapping::live).
// TETRAHEDRAADDED (build/addition_in_place.h, the input's addition followed in place), as
// mechanics/mapped_topology_follow.cpp's FollowAddition (the rebuild's) does it: the input's new
// edges appended to the surface's (EDGESADDED), then each face of a new tetrahedron on the
// border and not yet on the surface appended (the input's face as it is), each surface face no
// longer on the border removed (Loc2GlobVec swapped and popped as SOFA's handler does it).
// The child's components that follow:
//  - TrianglePressureForceField on the surface's triangles (SOFA's TopologySubsetData on the
//    output: the faces the mapping creates join no list; a removed face's entries dropped, the
//    moved last face's renamed): build/in_place_triangle_pressure.h, on the surface (removals
//    only: an addition with one rebuilds);
//  - TriangularFEMForceField(Optim) on the surface (SOFA's TriangleData on the child's topology:
//    the faces the mapping appends get elements from the creation callback, removed ones move
//    the last in): build/in_place_membranes.h;
//  - TriangularBendingSprings on the surface (a spring across each surface edge with two
//    triangles, in edge order: build/in_place_bending_springs.h, written again after each change,
//    in time proportional to the surface's edges, nothing allocated for removals);
//  - a collision model on the surface read by the pipeline (Triangle/Line/PointCollisionModel:
//    SOFA's updateFromTopology, build/in_place_collision.h);
//  - the container, its modifier and geometry, the mapping, BoxROI (SOFA's pressure never reads
//    its list again), visual models and their IdentityMapping (no mechanical object).
// Anything else below the child — a mechanical object of its own, another mapping rule, a field
// with values per element or without elements at the load — is refused with its reason, and the
// change goes through the rebuild; so is a change when a direct solver's matrix pattern is built
// and the surface carries stiffness, a removal freeing points while the surface has edges in no
// triangle (the rebuild reports those), an addition with a pressure on the surface, and an
// addition whose new faces could be flat at rest under a membrane.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "mechanics/tetrahedron_shells.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;

class MappedChildInPlace {
 public:
  virtual ~MappedChildInPlace() = default;
  /// True when the component at element line `line` is this child's (followed here).
  virtual bool Claims(int line) const = 0;
  /// True when field `index` of the system is followed here.
  virtual bool Follows(std::size_t index) const = 0;
  /// Before the input `input` (its shells `shells`) loses the tetrahedra `ids` (as the processor
  /// lists them; `frees_points` when points go with them): whether this child follows, the faces
  /// it uncovers found and their elements computed for BeforeRemoval. False, with `why` set and
  /// nothing changed, when the removal must rebuild.
  virtual bool PlanRemoval(const ChangingNode& node, const Topology& input,
                           const TetrahedronShells& shells, std::span<const Index> ids,
                           bool frees_points, std::string& why) = 0;
  /// TETRAHEDRAREMOVED: the planned faces appended, before the input changes.
  virtual void BeforeRemoval(ChangingNode& node) = 0;
  /// TRIANGLESREMOVED and POINTSREMOVED, after the input's removal `done`.
  virtual void AfterRemoval(Simulation& simulation, ChangingNode& node,
                            const TetrahedronRemoval& done) = 0;
  /// Before the input gains the tetrahedra `vertices` lists (4 each): whether this child
  /// follows. False, with `why` set and nothing changed, when the addition must rebuild.
  virtual bool PlanAddition(const ChangingNode& node, std::span<const Index> vertices,
                            std::string& why) = 0;
  /// EDGESADDED and TETRAHEDRAADDED, after the input `input` (its shells `shells`) gained what
  /// `done` lists.
  virtual void AfterAddition(Simulation& simulation, ChangingNode& node, const Topology& input,
                             const TetrahedronShells& shells, const ShellAddition& done) = 0;
  /// Puts the live surface in the simulation and in its FollowedMapping (once the node's
  /// follower is made).
  virtual void Install(Simulation& simulation, ChangingNode& node) = 0;
};

/// The followers of every topological mapping of `node` (a tetrahedral node), each with the
/// components of its child node, or an empty list with `why` set when one cannot follow in place.
/// `system` and `first_dof` are the node's object's, `rest_points` its rest positions as the
/// node's follower keeps them (read at each change; filled after this call). `scene` is the
/// stage's description. Nothing is changed until Install.
std::vector<std::unique_ptr<MappedChildInPlace>> CreateMappedChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, const std::vector<std::array<double, 3>>& rest_points,
    std::string& why);

}  // namespace fluxion::internal
