// A Triangle2EdgeTopologicalMapping's output (the border edges of a triangle container), in a
// child node of a triangle node whose removals and additions are followed in place
// (build/topology_in_place.h), followed with them instead of through the rebuild — SOFA's
// mapping handling the input's events (Sofa/Component/Topology/Mapping/src/sofa/component/
// topology/mapping/Triangle2EdgeTopologicalMapping.cpp, updateTopologicalMappingTopDown):
//  - TRIANGLESREMOVED, before the input changes: each side of a removed triangle shared with a
//    triangle not removed before it in the event's list (descending) is uncovered, and appended
//    to the output, smaller vertex first, Loc2GlobVec and Glob2LocMap recording it;
//  - EDGESREMOVED, after: the output edge of each removed input edge goes (its maps swapped as
//    SOFA swaps them; the output's removeEdges moving its last edge into the slot);
//  - POINTSREMOVED: the output's points follow the input's (the last point into each freed
//    slot);
//  - TRIANGLESADDED: each side of a new triangle that is now on the border and not in the output
//    is appended as the input lists it; each output edge no longer on the border goes, in
//    descending input order, Loc2GlobVec swapped and popped as it is met.
// The work is that of the change: the input's shells (mechanics/triangle_shells.h) give the
// triangles around each side, the output keeps its edges around each point; the maps are
// SOFA's, Glob2LocMap as one entry per input edge. The result is mechanics/
// mapped_topology_follow.h's FollowRemoval / FollowAddition (the rebuild's), edge for edge.
// What follows on the child:
//  - EdgePressureForceField with a constant `pressure` whose `edges` are a link to the child's
//    own edges (RemovingTriangle2EdgeProcess.scn: edges="@Edge_topo.edges"): the rebuild reads
//    the link again and presses every edge of the output, pressure·L₀/2 on each end (L₀ the rest
//    length), in the output's order; here the load's entries follow the output's edges (six per
//    edge: a removed edge's take the last edge's, a new edge's are appended, a renamed point's
//    DOFs renamed). SOFA's EdgePressureForceField keeps its edges in an EdgeSparseData
//    (TopologySubsetData: a removed edge's entry goes, an added edge gets none), so SOFA stops
//    pressing an edge that leaves the border but does not press the edges a change uncovers;
//    Fluxion presses the border as it is (the rebuild's rule, kept here so both paths agree);
//  - the container, its modifier and geometry, the mapping, visual models and their
//    IdentityMapping (no mechanical object).
// Anything else below the child — another force field, a mechanical object of its own, an
// edge pressure given its edges another way — is refused with its reason, and the change goes
// through the rebuild.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "mechanics/triangle_shells.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;

class EdgeChildInPlace {
 public:
  virtual ~EdgeChildInPlace() = default;
  /// True when the component at element line `line` is this child's (followed here).
  virtual bool Claims(int line) const = 0;
  /// The element lines of the child's components (all followed here).
  virtual std::span<const int> lines() const = 0;
  /// True when field `index` of the system is followed here.
  virtual bool Follows(std::size_t index) const = 0;
  /// TRIANGLESREMOVED: before the input `input` (its shells `shells`) loses the triangles `ids`
  /// (as the processor lists them). `rest_points`: the object's rest positions, in the input's
  /// numbering before the removal.
  virtual void BeforeRemoval(ChangingNode& node, const Topology& input,
                             const TriangleShells& shells, std::span<const Index> ids,
                             const std::vector<std::array<double, 3>>& rest_points) = 0;
  /// EDGESREMOVED and POINTSREMOVED, after the input's removal `done` (`input` as it left it).
  virtual void AfterRemoval(ChangingNode& node, const Topology& input,
                            const ShellRemoval& done) = 0;
  /// TRIANGLESADDED: after the input `input` gained its triangles from `first_added` on.
  virtual void AfterAddition(ChangingNode& node, const Topology& input,
                             const TriangleShells& shells, Index first_added,
                             const std::vector<std::array<double, 3>>& rest_points) = 0;
  /// Puts the live output in the simulation and in its FollowedMapping (once the node's
  /// follower is made).
  virtual void Install(Simulation& simulation, ChangingNode& node) = 0;
};

/// The followers of every topological mapping of `node` (a triangle node), each with the
/// components of its child node, or an empty list with `why` set when one cannot follow in place.
/// `system` and `first_dof` are the node's object's (its rest positions: node.rest_position).
/// Nothing is changed until Install.
std::vector<std::unique_ptr<EdgeChildInPlace>> CreateEdgeChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, std::string& why);

}  // namespace fluxion::internal
