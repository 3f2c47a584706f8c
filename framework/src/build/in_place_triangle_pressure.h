// TrianglePressureForceField (useConstantForce, its default) followed in place through a removal
// of triangles (build/topology_in_place.h). SOFA keeps its triangles and their rest areas in a
// TopologySubsetData (TrianglePressureForceField.inl, d_trianglePressureMap;
// TopologySubsetData.inl, remove): for each removed triangle, in descending order, its entries
// are erased (the later ones keep their order) and the entries naming the then last triangle are
// renamed to the removed one; the force of an entry, pressure × rest area, goes with it. Here the
// field is a ConstantForce of (pressure·A/3) on each DOF of each listed triangle's vertices, nine
// entries per listed triangle in list order — what a build from the followed list gives: its
// entries are erased the same way (no reallocation), and when points moved into freed slots the
// entries' DOFs are written again from the topology (work in the list's length). The node's
// followed list (ChangingNode::triangle_lists) is kept current for the scene a rebuild reads.
// A list given an index past the triangles, or the Cauchy-stress form (useConstantForce=0), is
// not followed here (the rebuild follows it).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/force_field.h"
#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/triangle_shells.h"

namespace fluxion::internal {

class AssembledSystem;
class ConstantForce;

class InPlaceTrianglePressure {
 public:
  /// Takes `field` (its ConstantForce in `system`) whose triangles are `lists[list]`, on
  /// `topology` (point p's first DOF first_dof + 3p). False, with `why` set, when the force is
  /// not the list's, entry by entry.
  bool Add(AssembledSystem& system, const ForceField* field,
           const std::vector<FollowedIndexList>& lists, std::size_t list, const Topology& topology,
           Index first_dof, std::string& why);
  bool empty() const { return fields_.empty(); }
  /// True when field `index` of the system is one of these.
  bool Follows(std::size_t index) const;

  /// Before the topology's removal: the triangle count.
  void BeforeRemoval(const Topology& topology) { triangles_before_ = topology.triangles.size(); }
  /// After it (points included): the lists and forces follow. True when some list changed.
  bool AfterRemoval(const Topology& topology, const ShellRemoval& done,
                    std::vector<FollowedIndexList>& lists);

 private:
  struct Followed {
    ConstantForce* force = nullptr;
    std::size_t index = 0;  // in the system
    std::size_t list = 0;   // in the node's triangle lists
  };
  std::vector<Followed> fields_;
  Index first_dof_ = 0;
  std::size_t triangles_before_ = 0;
  std::vector<Index> dofs_;  // scratch: one triangle's nine DOFs
};

}  // namespace fluxion::internal
