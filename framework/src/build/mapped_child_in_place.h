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
// The child's components that follow:
//  - TrianglePressureForceField on the surface's triangles (SOFA's TopologySubsetData on the
//    output: the faces the mapping creates join no list; a removed face's entries dropped, the
//    moved last face's renamed): build/in_place_triangle_pressure.h, on the surface;
//  - the container, its modifier and geometry, the mapping, BoxROI (SOFA's pressure never reads
//    its list again), visual models and their IdentityMapping (no mechanical object).
// Anything else below the child — TriangularFEMForceField and TriangularBendingSprings on the
// surface (they would take elements on the faces a removal uncovers: appending elements in place
// is not done here), a mechanical object of its own, another mapping rule — is refused with its
// reason, and the change goes through the rebuild.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "mechanics/tetrahedron_shells.h"

namespace fluxion::internal {

class AssembledSystem;

class MappedChildInPlace {
 public:
  virtual ~MappedChildInPlace() = default;
  /// True when the component at element line `line` is this child's (followed here).
  virtual bool Claims(int line) const = 0;
  /// True when field `index` of the system is followed here.
  virtual bool Follows(std::size_t index) const = 0;
  /// TETRAHEDRAREMOVED: before the input `input` (its shells `shells`) loses the tetrahedra
  /// `ids` (as the processor lists them).
  virtual void BeforeRemoval(ChangingNode& node, const Topology& input,
                             const TetrahedronShells& shells, std::span<const Index> ids) = 0;
  /// TRIANGLESREMOVED and POINTSREMOVED, after the input's removal `done`.
  virtual void AfterRemoval(ChangingNode& node, const TetrahedronRemoval& done) = 0;
  /// Puts the live surface in the simulation and in its FollowedMapping (once the node's
  /// follower is made).
  virtual void Install(Simulation& simulation, ChangingNode& node) = 0;
};

/// The followers of every topological mapping of `node` (a tetrahedral node), each with the
/// components of its child node, or an empty list with `why` set when one cannot follow in place.
/// `system` and `first_dof` are the node's object's. Nothing is changed until Install.
std::vector<std::unique_ptr<MappedChildInPlace>> CreateMappedChildren(Simulation& simulation,
                                                                      ChangingNode& node,
                                                                      AssembledSystem& system,
                                                                      Index first_dof,
                                                                      std::string& why);

}  // namespace fluxion::internal
