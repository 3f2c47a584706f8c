// The collision models on a changing node's topology, followed in place by the triangle and
// tetrahedron followers (build/topology_in_place.cpp, build/tetrahedron_in_place.cpp).
//
// SOFA's collision models read their container when they are used: TriangleCollisionModel,
// LineCollisionModel and PointCollisionModel call updateFromTopology when the container's
// revision changed (Sofa.Component.Collision.Geometry, TriangleCollisionModel.inl
// computeBoundingTree; LineCollisionModel.inl; PointCollisionModel.inl), re-reading the whole
// element list and its flags, and build their bounding tree again. The follower does the same
// after a removal: each model that the collision pipeline reads and that lies on the changing
// topology re-reads it (ContactStage::FollowModelTopology), so the contacts of the next step are
// those a scene built from the reduced mesh finds. That costs the model's size — the same order
// as one detection pass, which every step makes anyway — not the scene's: the system, the
// solver and the other models are untouched.
//
// A model the pipeline does not read (no pipeline, or a TetrahedronCollisionModel, which takes
// part in no proximity test) has nothing to follow. A model on this object with another topology
// (a child container), or on a mapped child object, is refused: the rebuild follows it.
#pragma once

#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/force_field.h"
#include "fluxion/simulation.h"
#include "fluxion/topology.h"

namespace fluxion::internal {

/// True for a system's contact field (PenaltyContactForceField): its contacts are found again at
/// each step's start, so a removal of points leaves it nothing to follow but to be cleared
/// (ContactStage::FollowModelTopology clears it).
bool IsContactField(const ForceField& field);

class InPlaceCollisionModels {
 public:
  /// Takes collision model component `c` of the changing `node`, whose live topology is
  /// `topology`. Empty when it follows (or has nothing to follow), else why it cannot.
  std::string Add(const Simulation& simulation, const ChangingNode& node, const NodeComponent& c,
                  const Topology& topology);

  /// After a removal: each followed model re-reads `topology` (SOFA's updateFromTopology).
  void Follow(Simulation& simulation, const Topology& topology) const;

  bool empty() const { return models_.empty(); }

 private:
  std::vector<int> models_;  // the pipeline's model indices
};

}  // namespace fluxion::internal
