// The in-place follow of a tetrahedron removal (see the header for what follows and how).
#include "build/tetrahedron_in_place.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "build/addition_in_place.h"
#include "build/in_place_collision.h"
#include "build/in_place_points.h"
#include "build/mapped_child_in_place.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/lumped_mass.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/tetrahedron_shells.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// A TetrahedronFEMForceField or TetrahedralCorotationalFEMForceField on the topology's
// tetrahedra in order.
struct FollowedFem {
  TetrahedronFem* field = nullptr;
  std::size_t index = 0;  // its index in the system
};

// A DiagonalMass spread by density over the tetrahedra, and the weight m·g it gives.
struct FollowedMass {
  double density = 0.0;
  Weight* weight = nullptr;  // its m·g (null when the object has no weight)
};

class TetrahedronFollower final : public InPlaceFollower {
 public:
  bool Remove(Simulation& simulation, ChangingNode& node, std::span<const Index> ids,
              std::string& why) override {
    const bool frees_points = shells_.WouldFreePoints(*topology_, ids);
    if (frees_points) {
      const char* refusal = system_->PointRemovalRefusal();
      if (refusal == nullptr)
        refusal = SimulationAccess::PointRemovalRefusal(simulation, node.object);
      if (!points_refusal_.empty() || refusal != nullptr) {
        why = "the removal leaves points without a tetrahedron, and " +
              (points_refusal_.empty() ? std::string(refusal) : points_refusal_);
        return false;
      }
    }
    if (!fems_.empty() && system_->has_matrix_layout()) {
      why =
          "the system's matrix pattern is built (a direct linear solver) and holds the entries "
          "of a tetrahedral FEM force field";
      return false;
    }
    for (const auto& child : children_)
      if (!child->PlanRemoval(node, *topology_, shells_, ids, frees_points, why)) return false;
    // The vertices whose mass sums change: those of the removed tetrahedra, now; those of the
    // tetrahedra moved into removed slots, after.
    touched_.clear();
    if (mass_)
      for (const Index t : ids)
        if (t >= 0 && t < static_cast<Index>(topology_->tetrahedra.size()))
          for (const Index v : topology_->tetrahedra[static_cast<std::size_t>(t)])
            touched_.push_back(v);
    for (const auto& child : children_) child->BeforeRemoval(node);
    shells_.Remove(*topology_, ids, frees_points, done_);
    for (const FollowedFem& fem : fems_)
      fem.field->RemoveElementsMovingLast(done_.removed_tetrahedra);
    for (const std::size_t springs : springs_) system_->RemoveSprings(springs, done_.removed_edges);
    // The removed tetrahedra's vertices were listed in the numbering before the removal and
    // follow the removed points; the moved tetrahedra's are read in the numbering after it.
    if (!done_.removed_points.empty()) FollowRemovedPoints(simulation, node);
    if (mass_)
      for (const Index slot : done_.removed_tetrahedra)
        if (slot < static_cast<Index>(topology_->tetrahedra.size()))
          for (const Index v : topology_->tetrahedra[static_cast<std::size_t>(slot)])
            touched_.push_back(v);
    for (const auto& child : children_) child->AfterRemoval(simulation, node, done_);
    collisions_.Follow(simulation, *topology_);
    mass_dofs_.clear();
    masses_.clear();
    if (mass_) {
      std::sort(touched_.begin(), touched_.end());
      touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
      for (const Index v : touched_) SetVertexMass(v);
    }
    // The solver follows what changed in its buffers (Solver::FollowSystemChange), as on the
    // triangle path.
    removed_blocks_.clear();
    for (const Index p : done_.removed_points)
      removed_blocks_.push_back(first_dof_ + p * dimension_);
    if (!mass_dofs_.empty() || !removed_blocks_.empty())
      solver_node_->solver->FollowSystemChange(*solver_node_->system,
                                               {.block_size = dimension_,
                                                .removed_blocks = removed_blocks_,
                                                .mass_dofs = mass_dofs_,
                                                .masses = masses_});
    else
      solver_node_->solver->InvalidateHistory();
    node.topology = topology_;
    return true;
  }

  // Additions: build/addition_in_place.h, on the same live shells.
  bool Add(Simulation& simulation, ChangingNode& node, std::span<const Index> vertices,
           std::string& why) override {
    // The mapped surfaces follow TETRAHEDRAADDED (build/mapped_child_in_place.h).
    for (const auto& child : children_)
      if (!child->PlanAddition(node, vertices, why)) return false;
    if (!additions_.Add(Target(simulation, node), *topology_, shells_, vertices, why)) return false;
    for (const auto& child : children_)
      child->AfterAddition(simulation, node, *topology_, shells_, additions_.done());
    node.topology = topology_;
    return true;
  }
  AdditionTarget Target(Simulation& simulation, ChangingNode& node) {
    return {simulation, node, *solver_node_, *system_, first_dof_, dimension_, rest_points_};
  }
  TetrahedronAdditions additions_;

  std::span<const Index> removed_points() const override { return done_.removed_points; }

  std::span<const Index> out_of_range() const override { return done_.out_of_range; }

  // Set up by CreateTetrahedronFollower.
  std::shared_ptr<Topology> topology_;
  InPlaceCollisionModels collisions_;
  TetrahedronShells shells_;
  SolverNode* solver_node_ = nullptr;
  AssembledSystem* system_ = nullptr;
  std::vector<FollowedFem> fems_;
  std::vector<std::size_t> springs_;  // MeshSpringForceFields on the edges: system indices
  // The topological mappings' child nodes (build/mapped_child_in_place.h).
  std::vector<std::unique_ptr<MappedChildInPlace>> children_;
  std::optional<FollowedMass> mass_;
  Index first_dof_ = 0;
  int dimension_ = 3;
  std::vector<std::array<double, 3>> rest_points_;  // the volumes' points (the rest positions)
  // Why a removal that frees points must rebuild (empty when it is followed), and the constant
  // forces (weights) laid over the object's DOFs in order, which lose the removed points' entries.
  std::string points_refusal_;
  std::vector<ConstantForce*> point_forces_;

 private:
  // density × volume / 4 of each tetrahedron around v, summed in tetrahedron order from 0 (the
  // sum LumpedVertexMass makes), into M and the weight.
  void SetVertexMass(Index v) {
    around_.assign(shells_.TetrahedraAroundVertex(v).begin(),
                   shells_.TetrahedraAroundVertex(v).end());
    std::sort(around_.begin(), around_.end());
    double mass = 0.0;
    const auto point = [&](Index p) -> const std::array<double, 3>& {
      return rest_points_[static_cast<std::size_t>(p)];
    };
    for (const Index t : around_) {
      const auto& tet = topology_->tetrahedra[static_cast<std::size_t>(t)];
      const double volume =
          TetrahedronVolume(point(tet[0]), point(tet[1]), point(tet[2]), point(tet[3]));
      mass += mass_->density * volume / 4.0;
    }
    SetPointMass(*system_, first_dof_ + v * dimension_, dimension_, mass, mass_dofs_, masses_);
    if (mass_->weight != nullptr) mass_->weight->SetPointMassAt(static_cast<std::size_t>(v), mass);
  }

  // SOFA's removePointsProcess for everything indexed by the object's points
  // (build/in_place_points.h, shared with the triangle path); then the elements and springs
  // around each moved point take its new number.
  void FollowRemovedPoints(Simulation& simulation, ChangingNode& node) {
    const int d = dimension_;
    const auto dof = [&](Index point) { return first_dof_ + point * d; };
    const auto points = static_cast<Index>(topology_->points.size());
    RemovePointsMovingLast(simulation, node,
                           {.system = *system_,
                            .first_dof = first_dof_,
                            .dimension = d,
                            .point_forces = point_forces_,
                            .rest_points = rest_points_,
                            .touched = touched_},
                           done_.removed_points, done_.moved_points, points);
    for (std::size_t i = 0; i < done_.removed_points.size(); ++i) {
      const Index p = done_.removed_points[i];
      if (p == done_.moved_points[i] || p >= points) continue;
      for (const Index t : shells_.TetrahedraAroundVertex(p)) {
        const auto& tet = topology_->tetrahedra[static_cast<std::size_t>(t)];
        for (const FollowedFem& fem : fems_)
          fem.field->SetElementDofs(static_cast<std::size_t>(t),
                                    {dof(tet[0]), dof(tet[1]), dof(tet[2]), dof(tet[3])});
        if (springs_.empty()) continue;
        for (const Index e : shells_.EdgesInTetrahedron(t)) {
          const auto& edge = topology_->edges[static_cast<std::size_t>(e)];
          for (const std::size_t springs : springs_)
            dynamic_cast<SpringForceField&>(system_->MutableField(springs))
                .SetSpringEnds(static_cast<std::size_t>(e), dof(edge[0]), dof(edge[1]));
        }
      }
    }
    for (const FollowedFem& fem : fems_) fem.field->ForgetPartition();
  }

  TetrahedronRemoval done_;
  std::vector<Index> touched_, around_;
  // The change as the solver sees it (Solver::FollowSystemChange).
  std::vector<Index> removed_blocks_, mass_dofs_;
  std::vector<double> masses_;
};

// The followed tetrahedral FEM `path` of scene element `element` (field null: no stiffness,
// nothing to follow), or nullopt with `why` set. Followed when its elements are `topology`'s
// tetrahedra in order and its material is one value for all (SOFA's TetrahedronData keeps each
// tetrahedron's rest data when it is moved, which a build from the reduced mesh computes again
// only when it comes from one material and the rest positions: a youngModulus per element or a
// localStiffnessFactor stays with its tetrahedron in SOFA and with its index in a rebuild).
template <class Dof>
std::optional<FollowedFem> FemOf(const Simulation& simulation, AssembledSystem& system,
                                 const std::string& path, const ElementDescription* element,
                                 const Topology& topology, const Dof& dof, std::string& why) {
  if (element == nullptr) {
    why = "is not found in the scene";
    return std::nullopt;
  }
  for (const char* per_element : {"youngModulus", "poissonRatio"})
    if (const AttributeText* given = element->Find(per_element);
        given != nullptr && SplitWords(given->value).size() > 1) {
      why = std::string("gives its ") + per_element + " per element";
      return std::nullopt;
    }
  for (const char* given : {"localStiffnessFactor", "topology"})
    if (element->Find(given) != nullptr) {
      why = std::string("is given '") + given + "' (a rebuild follows it)";
      return std::nullopt;
    }
  int sources = 0;
  const ForceField* found = FieldOf(simulation, path, sources);
  if (sources == 0) return FollowedFem{};
  const int index = system.FieldIndex(found);
  auto* fem =
      index >= 0
          ? dynamic_cast<TetrahedronFem*>(&system.MutableField(static_cast<std::size_t>(index)))
          : nullptr;
  if (sources != 1 || fem == nullptr) {
    why = "is not one tetrahedral field of the node";
    return std::nullopt;
  }
  bool in_order = fem->num_elements() == topology.tetrahedra.size();
  for (std::size_t t = 0; in_order && t < topology.tetrahedra.size(); ++t)
    for (std::size_t v = 0; in_order && v < 4; ++v)
      in_order = fem->element(t).dof[v] == dof(topology.tetrahedra[t][v]);
  if (!in_order) {
    why = "is not on the topology's tetrahedra in order";
    return std::nullopt;
  }
  return FollowedFem{fem, static_cast<std::size_t>(index)};
}

// Why a removal that frees points cannot be followed in place for this node (empty when it can;
// the system's and the simulation's own conditions are checked at each removal), and the
// weights that follow it into `follower`.
std::string PointsRefusal(TetrahedronFollower& follower, const ChangingNode& node,
                          const ObjectModel& object, const TetrahedronShells& shells) {
  if (!shells.points_follow()) return "a triangle or edge of the topology is in no tetrahedron";
  if (!node.spring_lists.empty()) return "a SpringForceField lists springs on the points";
  AssembledSystem& system = *follower.system_;
  for (std::size_t f = 0; f < system.num_fields(); ++f) {
    if (std::find(follower.springs_.begin(), follower.springs_.end(), f) !=
            follower.springs_.end() ||
        std::any_of(follower.fems_.begin(), follower.fems_.end(),
                    [&](const FollowedFem& fem) { return fem.index == f; }) ||
        std::any_of(follower.children_.begin(), follower.children_.end(),
                    [&](const auto& child) { return child->Follows(f); }) ||
        IsContactField(system.MutableField(f)))
      continue;
    auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
    bool laid =
        force != nullptr && force->dofs().size() == static_cast<std::size_t>(object.num_dofs());
    for (std::size_t k = 0; laid && k < force->dofs().size(); ++k)
      laid = force->dofs()[k] == object.offset + static_cast<Index>(k);
    if (!laid) return "a force field of the system is not the object's elements or weight";
    follower.point_forces_.push_back(force);
  }
  return {};
}

}  // namespace

std::unique_ptr<InPlaceFollower> CreateTetrahedronFollower(Simulation& simulation,
                                                           ChangingNode& node,
                                                           const SceneDescription& scene,
                                                           std::string& why) {
  const auto refuse = [&](std::string reason) -> std::unique_ptr<InPlaceFollower> {
    why = std::move(reason);
    return nullptr;
  };
  if (node.level != TopologyLevel::kTetrahedron)
    return refuse("the removals are not of tetrahedra");
  auto follower = std::make_unique<TetrahedronFollower>();
  follower->solver_node_ = SimulationAccess::SolverNodeOf(simulation, node.object);
  if (follower->solver_node_ == nullptr) return refuse("the object is not moved by a solver");
  follower->system_ = dynamic_cast<AssembledSystem*>(follower->solver_node_->system.get());
  if (follower->system_ == nullptr) return refuse("the solver node's system is not assembled");
  const ObjectModel& object = simulation.model().objects[static_cast<std::size_t>(node.object)];
  // A container given only its elements (tetrahedra="@../loader.tetrahedra") reports no points:
  // the stage's topology has the object's (PlanTopologicalChanges), as SOFA's container does.
  const Topology* reported = SimulationAccess::NodeTopology(simulation, node.node_path);
  if (reported != nullptr &&
      ((!reported->points.empty() && reported->points.size() != node.topology->points.size()) ||
       reported->tetrahedra != node.topology->tetrahedra ||
       reported->triangles != node.topology->triangles || reported->edges != node.topology->edges))
    return refuse("the node's topology is not the changing container's as built");
  if (node.dimension != 3) return refuse("the object is not Vec3");
  follower->first_dof_ = object.offset;
  follower->dimension_ = node.dimension;
  AssembledSystem& system = *follower->system_;
  const Topology& topology = *node.topology;
  const auto dof = [&](Index point) { return object.offset + point * node.dimension; };
  if (!node.mappings.empty()) {
    follower->children_ = CreateMappedChildren(simulation, node, scene, system, object.offset,
                                               follower->rest_points_, why);
    if (follower->children_.empty()) return nullptr;
  }

  for (const NodeComponent& c : node.components) {
    const std::string path = c.node_path + "/" + c.name;
    const bool own_node = c.node_path == node.node_path;
    if (std::any_of(follower->children_.begin(), follower->children_.end(),
                    [&](const auto& child) { return child->Claims(c.line); }))
      continue;
    if (c.kind == ComponentKind::kOdeSolver || c.kind == ComponentKind::kLinearSolver ||
        c.kind == ComponentKind::kIgnored || c.kind == ComponentKind::kContext)
      continue;
    if (c.line == node.topology_line || (own_node && FollowsRemovalUnchanged(c.type))) continue;
    if ((c.type == "TetrahedronFEMForceField" ||
         c.type == "TetrahedralCorotationalFEMForceField") &&
        own_node) {
      std::string refusal;
      std::optional<FollowedFem> fem = FemOf(
          simulation, system, path, FindElementAt(scene.root, c.line), topology, dof, refusal);
      if (!fem) return refuse("<" + c.type + "> '" + path + "' " + refusal);
      if (fem->field != nullptr) follower->fems_.push_back(*fem);
      continue;
    }
    if (c.type == "MeshSpringForceField" && own_node) {
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      if (sources == 0) continue;  // no spring (its stiffness and damping 0)
      const int index = system.FieldIndex(field);
      const auto* springs = dynamic_cast<const SpringForceField*>(field);
      if (sources != 1 || index < 0 || springs == nullptr)
        return refuse("MeshSpringForceField '" + path + "' is not one spring field of the node");
      const std::vector<PackedSpring>& list = springs->springs();
      bool in_order = list.size() == topology.edges.size();
      for (std::size_t e = 0; in_order && e < list.size(); ++e)
        in_order = list[e].a == dof(topology.edges[e][0]) && list[e].b == dof(topology.edges[e][1]);
      if (!in_order)
        return refuse("MeshSpringForceField '" + path +
                      "': its springs are not the topology's edges in order");
      follower->springs_.push_back(static_cast<std::size_t>(index));
      continue;
    }
    if (c.type == "DiagonalMass" && own_node && !follower->mass_) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      const AttributeText* density = element ? element->Find("massDensity") : nullptr;
      std::optional<double> value = density ? ParseReal(density->value) : std::nullopt;
      if (!value || element->Find("totalMass") != nullptr || element->Find("topology") != nullptr)
        return refuse("DiagonalMass '" + path +
                      "' is not given by its massDensity alone (a rebuild writes it)");
      follower->mass_ = FollowedMass{*value, nullptr};
      continue;
    }
    if (c.kind == ComponentKind::kCollisionModel) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, topology);
          !refusal.empty())
        return refuse(std::move(refusal));
      continue;
    }
    return refuse("<" + c.type + "> '" + path + "' does not follow a change in place");
  }
  // The masses must be what the follow recomputes: density × volume / 4 summed per vertex.
  follower->rest_points_.assign(topology.points.size(), {0.0, 0.0, 0.0});
  for (std::size_t i = 0; i < topology.points.size(); ++i)
    for (int a = 0; a < 3; ++a)
      follower->rest_points_[i][static_cast<std::size_t>(a)] =
          node.rest_position[static_cast<Index>(i) * 3 + a];
  if (follower->mass_) {
    FollowedMass& mass = *follower->mass_;
    const std::vector<double> vertex =
        LumpedVertexMass(topology, follower->rest_points_, mass.density).vertex;
    const Vector diagonal = system.mass_diagonal();
    for (std::size_t i = 0; i < vertex.size(); ++i)
      for (int a = 0; a < 3; ++a)
        if (diagonal[dof(static_cast<Index>(i)) + a] != vertex[i])
          return refuse("the node's masses are not its DiagonalMass's alone");
    // Its weight: the constant force giving g·m on every DOF of the object (found by its point
    // masses, the gravity in force possibly changed since the load).
    for (std::size_t f = 0; f < system.num_fields(); ++f) {
      auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
      Weight* weight = force != nullptr ? force->weight() : nullptr;
      if (weight != nullptr && !force->dofs().empty() && force->dofs().front() == object.offset &&
          weight->point_mass() == vertex) {
        mass.weight = weight;
        break;
      }
    }
    if (mass.weight == nullptr)
      return refuse("the weight of the DiagonalMass is not found (a gravity of its own node?)");
  }
  std::optional<TetrahedronShells> shells = TetrahedronShells::Build(topology);
  if (!shells)
    return refuse(
        "the tetrahedra's faces and edges are not the container's triangles and edges, once "
        "each");
  if (!follower->springs_.empty() && !shells->has_edges())
    return refuse("a MeshSpringForceField is on a topology without edges");
  if (!follower->children_.empty() && !shells->has_triangles())
    return refuse("a topological mapping reads the triangles of a topology that lists none");
  follower->points_refusal_ = PointsRefusal(*follower, node, object, *shells);
  follower->shells_ = std::move(*shells);
  // The live topology: a copy the follower changes, in place of the built one everywhere.
  follower->topology_ = std::make_shared<Topology>(topology);
  follower->additions_.Prepare(follower->Target(simulation, node), scene, [&](int line) {
    return std::any_of(follower->children_.begin(), follower->children_.end(),
                       [&](const auto& child) { return child->Claims(line); });
  });
  SimulationAccess::ReplaceNodeTopology(simulation, node.node_path, follower->topology_);
  node.topology = follower->topology_;
  for (const auto& child : follower->children_) child->Install(simulation, node);
  // Their per-element output is on the tetrahedra that now change (the live topology's).
  for (const FollowedFem& fem : follower->fems_)
    if (fem.field->von_mises() != 0) fem.field->PublishVonMises(follower->topology_);
  return follower;
}

}  // namespace fluxion::internal
