// A removal of triangles followed in place: the running simulation's topology, springs, masses
// and system change by what the removal changes, instead of the scene being built again
// (build/topology_rebuild.cpp, the fallback). SOFA's components follow a change through their
// topology handlers (TopologyData callbacks); these are the handlers for the common set, each
// giving the bits the rebuild gives, so that the two paths have the same trajectory:
//  - the topology: SOFA's removeItems on the live containers (mechanics/triangle_shells.h);
//  - MeshSpringForceField whose springs are the topology's edges in order (its lines, as a
//    TriangleSetTopologyContainer lists them): the spring of each removed edge goes as the edge
//    does, the last one moved into its slot (SOFA's SpringForceField handler erases the spring
//    of a removed edge; Fluxion keeps springs and edges in step, so that the springs are those
//    a build from the reduced mesh gives, in its order);
//  - TriangularFEMForceField and TriangularFEMForceFieldOptim on the topology's triangles in
//    order (SOFA's TriangleData of TriangleInformation: the last triangle's rest frame, material
//    and area moved into each removed slot, TriangularFEMForceField.inl): the elements follow the
//    triangles the same way, and the moved points' elements are renamed — what a build from the
//    reduced mesh computes again from the same rest positions (a value per element would not be:
//    those rebuild);
//  - TriangularBendingSprings (SOFA's applyTriangleDestruction: an edge losing one of its two
//    triangles loses its spring): the springs of the edges left with two triangles, in edge
//    order, written again into the field's list (Follower::BendingSprings);
//  - DiagonalMass given a massDensity (SOFA's DiagonalMass::applyTriangleDestruction takes
//    density × area / 3 of each removed triangle from its vertices): each vertex whose triangles
//    changed gets density × area / 3 summed over its remaining triangles in their order, as a
//    build sums them (not SOFA's subtraction, whose rounding the build does not have), and its
//    weight m·g follows;
//  - UniformMass, the projective constraints' index lists, the MechanicalObject: nothing
//    changes while no point is removed;
//  - the mechanical system: the pattern stays a superset (the removed springs' entries are
//    assembled as zeros), its slots move with the springs; no buffer is reallocated;
//  - points left without a triangle (SOFA's removeIsolatedPoints; PointSetTopologyModifier.cpp,
//    removePointsProcess, and the MechanicalObject's and PointData's swap-last handlers): each,
//    in descending order, takes the last point — its state, initial vectors, M's diagonal, fixed
//    DOFs (FixedProjectiveConstraint's index list: TopologySubsetIndices, a removed point dropped,
//    the moved one renamed), weight entries (UniformMass's masses move with their points) —
//    then the springs around the moved point take its number, the vectors shrink where they are
//    (no copy) and the solver is initialised for the smaller system.
// Anything else — points freed where their DOFs are not the system's last, another level than
// triangles, a topological mapping but a Triangle2Edge child (build/edge_child_in_place.h: its
// border and edge pressure follow), a component not in that set, a direct solver's built matrix
// pattern when points go or when a membrane or bending springs are followed — makes the change
// go through the rebuild (the reason logged at debug
// level).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "fluxion/types.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class InPlaceFollower {
 public:
  virtual ~InPlaceFollower() = default;
  /// Removes the triangles `ids` (SOFA's removeItems) in place, and the points they leave
  /// without a triangle. False, with nothing changed and `why` set, when this removal needs the
  /// rebuild (it frees points that cannot be followed here). On success `node` holds the changed
  /// topology (the live one), and its initial vectors and index lists follow the removed points.
  /// Between steps only.
  virtual bool Remove(Simulation& simulation, ChangingNode& node, std::span<const Index> ids,
                      std::string& why) = 0;
  /// Adds the elements `vertices` lists (AddedSize vertices each: SOFA's addTriangles /
  /// addTetrahedra) in place (build/addition_in_place.h). False, with nothing changed and `why`
  /// set, when this addition needs the rebuild (the default: additions are not followed for this
  /// level). On success `node` holds the changed topology (the live one). Between steps only.
  virtual bool Add(Simulation& /*simulation*/, ChangingNode& /*node*/,
                   std::span<const Index> /*vertices*/, std::string& why) {
    why = "additions to this container are not followed in place";
    return false;
  }
  /// The points the last removal removed (descending: SOFA's order), each taking the point then
  /// last; empty when it freed none.
  virtual std::span<const Index> removed_points() const = 0;
  /// Element indices of the last removal at or past the element count (skipped, as SOFA does).
  virtual std::span<const Index> out_of_range() const = 0;
};

/// The in-place follower of `node` in the running `simulation` (built once; it installs a live
/// copy of the node's topology in the simulation), or null with `why` set when some component
/// cannot follow in place. `scene` is the stage's current description (masses' fields). Removals
/// of tetrahedra go to build/tetrahedron_in_place.h, of quads and hexahedra to
/// build/quad_hexahedron_in_place.h.
std::unique_ptr<InPlaceFollower> CreateInPlaceFollower(Simulation& simulation, ChangingNode& node,
                                                       const SceneDescription& scene,
                                                       std::string& why);

}  // namespace fluxion::internal
