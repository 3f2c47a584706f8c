// Collision models followed in place (see the header).
#include "build/in_place_collision.h"

#include <algorithm>
#include <utility>

#include "mechanics/penalty_contact_force_field.h"
#include "runtime/contact_stage.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// What the builder gives a model lying on `topology` (build/collision_pipeline.cpp Describe:
// the object's point count, the container's edges, triangles and quads).
collision::ObjectTopology ModelTopology(Index num_points, const Topology& topology) {
  collision::ObjectTopology read;
  read.num_points = num_points;
  read.edges = topology.edges;
  read.triangles = topology.triangles;
  read.quads = topology.quads;
  return read;
}

}  // namespace

bool IsContactField(const ForceField& field) {
  return dynamic_cast<const PenaltyContactForceField*>(&field) != nullptr;
}

std::string InPlaceCollisionModels::Add(const Simulation& simulation, const ChangingNode& node,
                                        const NodeComponent& c, const Topology& topology) {
  const std::string path = c.node_path + "/" + c.name;
  const ContactStage* stage = SimulationAccess::ContactStageOf(simulation);
  if (stage == nullptr) return {};  // no pipeline: the model is inert
  const auto& paths = stage->model_paths();
  const auto found = std::find(paths.begin(), paths.end(), path);
  if (found == paths.end()) return {};  // outside the pipeline, or in no proximity test
  const int model = static_cast<int>(found - paths.begin());
  const collision::CollisionModelDescription& read =
      stage->models()[static_cast<std::size_t>(model)];
  const ObjectModel& object = simulation.model().objects[static_cast<std::size_t>(node.object)];
  const std::string refused = "<" + c.type + "> '" + path + "' ";
  if (read.object != node.object)
    return refused + "reads another object than the changing node's (a mapped child)";
  if (read.kind == collision::ElementKind::kSphere && !read.radii.empty())
    return refused + "gives a radius per point (listRadius)";
  // Once, at set-up: the model read the changing container (not a child node's own).
  const collision::ObjectTopology as_built = ModelTopology(object.num_points, topology);
  if (read.topology.num_points != as_built.num_points || read.topology.edges != as_built.edges ||
      read.topology.triangles != as_built.triangles || read.topology.quads != as_built.quads)
    return refused + "reads another topology than the changing container";
  models_.push_back(model);
  return {};
}

void InPlaceCollisionModels::Follow(Simulation& simulation, const Topology& topology) const {
  if (models_.empty()) return;
  ContactStage* stage = SimulationAccess::MutableContactStageOf(simulation);
  for (const int model : models_) {
    const int object = stage->models()[static_cast<std::size_t>(model)].object;
    const Index points = simulation.model().objects[static_cast<std::size_t>(object)].num_points;
    stage->FollowModelTopology(model, ModelTopology(points, topology));
  }
}

}  // namespace fluxion::internal
