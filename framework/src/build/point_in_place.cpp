// The in-place follow of a removal of points (see the header for what follows and how).
#include "build/point_in_place.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "build/in_place_collision.h"
#include "build/in_place_points.h"
#include "mechanics/assembled_system.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// A SpringForceField with an end on the changing object: its records (the node's spring list,
// which the rebuild also follows) and where each end's points start in the system.
struct FollowedSpringField {
  SpringForceField* field = nullptr;
  std::size_t list = 0;  // into ChangingNode::spring_lists
  Index first_dof[2] = {0, 0};
  int dimension[2] = {3, 3};
};

class PointFollower final : public InPlaceFollower {
 public:
  bool Remove(Simulation& simulation, ChangingNode& node, std::span<const Index> ids,
              std::string& why) override {
    const char* refusal = system_->PointRemovalRefusal();
    if (refusal == nullptr)
      refusal = SimulationAccess::PointRemovalRefusal(simulation, node.object);
    if (refusal != nullptr || !points_refusal_.empty()) {
      why = "the removal of points needs the rebuild: " +
            (points_refusal_.empty() ? std::string(refusal) : points_refusal_);
      return false;
    }
    // SOFA's removePoints: indices past the end skipped, the rest sorted descending (a repeated
    // one removed once, as the rebuild's RemoveElements does).
    const auto count = static_cast<Index>(topology_->points.size());
    removed_.clear();
    out_of_range_.clear();
    for (const Index id : ids) (id < 0 || id >= count ? out_of_range_ : removed_).push_back(id);
    std::sort(removed_.begin(), removed_.end(), std::greater<Index>());
    removed_.erase(std::unique(removed_.begin(), removed_.end()), removed_.end());
    moved_.clear();
    Index last = count;
    for (const Index p : removed_) {
      --last;
      moved_.push_back(last);
      topology_->points[static_cast<std::size_t>(p)] =
          topology_->points[static_cast<std::size_t>(last)];
    }
    topology_->points.resize(static_cast<std::size_t>(last));
    touched_.clear();
    RemovePointsMovingLast(simulation, node,
                           {.system = *system_,
                            .first_dof = first_dof_,
                            .dimension = dimension_,
                            .point_forces = point_forces_,
                            .rest_points = rest_points_,
                            .touched = touched_},
                           removed_, moved_, last);
    // The springs: SOFA's applyRemovedPoints on the records, written into the field again.
    for (const FollowedSpringField& followed : springs_) {
      FollowedSprings& list = node.spring_lists[followed.list];
      RemoveSpringPoints(list, removed_, count);
      packed_.clear();
      for (const std::array<double, 5>& spring : list.springs)
        packed_.push_back(
            {static_cast<std::int32_t>(followed.first_dof[0] +
                                       static_cast<Index>(spring[0]) * followed.dimension[0]),
             static_cast<std::int32_t>(followed.first_dof[1] +
                                       static_cast<Index>(spring[1]) * followed.dimension[1]),
             spring[2], spring[3], spring[4]});
      followed.field->AssignSprings(packed_);
    }
    collisions_.Follow(simulation, *topology_);
    removed_blocks_.clear();
    for (const Index p : removed_) removed_blocks_.push_back(first_dof_ + p * dimension_);
    if (!removed_blocks_.empty())
      solver_node_->solver->FollowSystemChange(*solver_node_->system,
                                               {.block_size = dimension_,
                                                .removed_blocks = removed_blocks_,
                                                .mass_dofs = {},
                                                .masses = {}});
    else
      solver_node_->solver->InvalidateHistory();
    node.topology = topology_;
    return true;
  }

  std::span<const Index> removed_points() const override { return removed_; }
  std::span<const Index> out_of_range() const override { return out_of_range_; }

  // Set up by CreatePointFollower.
  std::shared_ptr<Topology> topology_;
  InPlaceCollisionModels collisions_;
  SolverNode* solver_node_ = nullptr;
  AssembledSystem* system_ = nullptr;
  std::vector<FollowedSpringField> springs_;
  Index first_dof_ = 0;
  int dimension_ = 3;
  std::vector<std::array<double, 3>> rest_points_;
  std::string points_refusal_;
  std::vector<ConstantForce*> point_forces_;

 private:
  std::vector<Index> removed_, moved_, out_of_range_, touched_, removed_blocks_;
  std::vector<PackedSpring> packed_;
};

// The system's SpringForceField whose springs are `list`'s records, the changing object's ends
// at `first_dof` and the other object's found from the first spring (its points Vec3); null when
// none is.
std::optional<FollowedSpringField> SpringFieldOf(AssembledSystem& system,
                                                 const FollowedSprings& list, Index first_dof,
                                                 int dimension) {
  for (std::size_t f = 0; f < system.num_fields(); ++f) {
    auto* field = dynamic_cast<SpringForceField*>(&system.MutableField(f));
    if (field == nullptr || field->springs().size() != list.springs.size() || list.springs.empty())
      continue;
    FollowedSpringField followed{field, 0, {first_dof, first_dof}, {dimension, dimension}};
    const PackedSpring& front = field->springs().front();
    if (!list.first)
      followed.first_dof[0] = front.a - static_cast<Index>(list.springs.front()[0]) * 3;
    if (!list.second)
      followed.first_dof[1] = front.b - static_cast<Index>(list.springs.front()[1]) * 3;
    bool same = true;
    for (std::size_t k = 0; same && k < list.springs.size(); ++k) {
      const PackedSpring& s = field->springs()[k];
      const std::array<double, 5>& r = list.springs[k];
      same = s.a == followed.first_dof[0] + static_cast<Index>(r[0]) * followed.dimension[0] &&
             s.b == followed.first_dof[1] + static_cast<Index>(r[1]) * followed.dimension[1] &&
             s.stiffness == r[2] && s.damping == r[3] && s.rest_length == r[4];
    }
    if (same) return followed;
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<InPlaceFollower> CreatePointFollower(Simulation& simulation, ChangingNode& node,
                                                     const SceneDescription& /*scene*/,
                                                     std::string& why) {
  const auto refuse = [&](std::string reason) -> std::unique_ptr<InPlaceFollower> {
    why = std::move(reason);
    return nullptr;
  };
  if (node.level != TopologyLevel::kPoint) return refuse("the removals are not of points");
  if (!node.mappings.empty()) return refuse("a topological mapping follows the topology");
  auto follower = std::make_unique<PointFollower>();
  follower->solver_node_ = SimulationAccess::SolverNodeOf(simulation, node.object);
  if (follower->solver_node_ == nullptr) return refuse("the object is not moved by a solver");
  follower->system_ = dynamic_cast<AssembledSystem*>(follower->solver_node_->system.get());
  if (follower->system_ == nullptr) return refuse("the solver node's system is not assembled");
  if (node.dimension != 3) return refuse("the object is not Vec3");
  const Topology& topology = *node.topology;
  if (!topology.edges.empty() || !topology.triangles.empty() || !topology.quads.empty() ||
      !topology.tetrahedra.empty() || !topology.hexahedra.empty())
    return refuse("the point container lists elements");
  const ObjectModel& object = simulation.model().objects[static_cast<std::size_t>(node.object)];
  if (object.num_points != static_cast<Index>(topology.points.size()))
    return refuse("the object's points are not the container's");
  follower->first_dof_ = object.offset;
  follower->dimension_ = node.dimension;
  AssembledSystem& system = *follower->system_;

  for (const NodeComponent& c : node.components) {
    const bool own_node = c.node_path == node.node_path;
    if (c.kind == ComponentKind::kOdeSolver || c.kind == ComponentKind::kLinearSolver ||
        c.kind == ComponentKind::kIgnored || c.kind == ComponentKind::kContext)
      continue;
    if (c.line == node.topology_line || (own_node && FollowsRemovalUnchanged(c.type))) continue;
    if (c.kind == ComponentKind::kCollisionModel) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, topology);
          !refusal.empty())
        return refuse(std::move(refusal));
      continue;
    }
    return refuse("<" + c.type + "> '" + c.node_path + "/" + c.name +
                  "' does not follow a change in place");
  }
  // The springs with an end on the object (any node), and the system's other fields: the
  // weights laid over the object's DOFs, the contact field.
  std::vector<std::size_t> spring_fields;
  for (std::size_t l = 0; l < node.spring_lists.size(); ++l) {
    std::optional<FollowedSpringField> followed =
        SpringFieldOf(system, node.spring_lists[l], object.offset, node.dimension);
    if (!followed) {
      if (node.spring_lists[l].springs.empty()) continue;  // no spring was built
      return refuse("a SpringForceField on the points is not one spring field of the system");
    }
    followed->list = l;
    spring_fields.push_back(static_cast<std::size_t>(system.FieldIndex(followed->field)));
    follower->springs_.push_back(*followed);
  }
  for (std::size_t f = 0; f < system.num_fields(); ++f) {
    if (std::find(spring_fields.begin(), spring_fields.end(), f) != spring_fields.end() ||
        IsContactField(system.MutableField(f)))
      continue;
    auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
    bool laid =
        force != nullptr && force->dofs().size() == static_cast<std::size_t>(object.num_dofs());
    for (std::size_t k = 0; laid && k < force->dofs().size(); ++k)
      laid = force->dofs()[k] == object.offset + static_cast<Index>(k);
    if (!laid) {
      follower->points_refusal_ =
          "a force field of the system is not the object's springs or weight";
      break;
    }
    follower->point_forces_.push_back(force);
  }
  if (node.rest_position.size() != object.num_dofs())
    return refuse("the object's rest positions are not one per point");
  follower->rest_points_.resize(topology.points.size());
  for (std::size_t i = 0; i < topology.points.size(); ++i)
    for (std::size_t a = 0; a < 3; ++a)
      follower->rest_points_[i][a] =
          node.rest_position[static_cast<Index>(i) * 3 + static_cast<Index>(a)];
  // The live topology: a copy the follower changes, in place of the built one everywhere.
  follower->topology_ = std::make_shared<Topology>(topology);
  SimulationAccess::ReplaceNodeTopology(simulation, node.node_path, follower->topology_);
  node.topology = follower->topology_;
  return follower;
}

}  // namespace fluxion::internal
