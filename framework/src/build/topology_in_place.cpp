// The in-place follow of a triangle removal (see the header for what follows and how).
#include "build/topology_in_place.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "build/addition_in_place.h"
#include "build/edge_child_in_place.h"
#include "build/in_place_bending_springs.h"
#include "build/in_place_collision.h"
#include "build/in_place_points.h"
#include "build/in_place_triangle_pressure.h"
#include "build/in_place_triangle_springs.h"
#include "build/point_in_place.h"
#include "build/quad_hexahedron_in_place.h"
#include "build/tetrahedron_in_place.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/lumped_mass.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "mechanics/triangle_fem.h"
#include "mechanics/triangle_shells.h"
#include "runtime/contact_stage.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// A SpringForceField whose springs are the topology's edges, in order.
struct FollowedSprings {
  std::size_t field = 0;  // its index in the system
};

// A TriangularFEMForceField (or its Optim) whose elements are the topology's triangles, in order.
struct FollowedFem {
  TriangleFem* field = nullptr;
  std::size_t index = 0;  // its index in the system
};

// A TriangularBendingSprings: a spring across each edge with two triangles, in edge order.
struct FollowedBending {
  SpringForceField* field = nullptr;
  std::size_t index = 0;  // its index in the system
};

// A DiagonalMass spread by density over the triangles, and the weight m·g it gives.
struct FollowedMass {
  double density = 0.0;
  Weight* weight = nullptr;  // its m·g (null when the object has no weight)
};

class Follower final : public InPlaceFollower {
 public:
  bool Remove(Simulation& simulation, ChangingNode& node, std::span<const Index> ids,
              std::string& why) override {
    if (shells_.WouldFreePoints(*topology_, ids)) {
      const char* refusal = system_->PointRemovalRefusal();
      if (refusal == nullptr)
        refusal = SimulationAccess::PointRemovalRefusal(simulation, node.object);
      if (!points_refusal_.empty() || refusal != nullptr) {
        why = "the removal leaves points without a triangle, and " +
              (points_refusal_.empty() ? std::string(refusal) : points_refusal_);
        return false;
      }
    }
    // The vertices whose mass sums change: those of the removed triangles, now; those of the
    // triangles moved into removed slots, after.
    touched_.clear();
    if (mass_) {
      for (const Index t : ids)
        if (t >= 0 && t < static_cast<Index>(topology_->triangles.size()))
          for (const Index v : topology_->triangles[static_cast<std::size_t>(t)])
            touched_.push_back(v);
    }
    if ((!fems_.empty() || !bendings_.empty() || !triangle_springs_.empty()) &&
        system_->has_matrix_layout()) {
      why =
          "the system's matrix pattern is built (a direct linear solver) and holds the entries "
          "of a TriangularFEMForceField, TriangularBendingSprings or triangular springs";
      return false;
    }
    triangle_springs_.BeforeRemoval(*topology_, shells_, ids);
    for (const auto& child : edge_children_)
      child->BeforeRemoval(node, *topology_, shells_, ids, rest_points_);
    pressures_.BeforeRemoval(*topology_);
    shells_.RemoveFreeingPoints(*topology_, ids, done_);
    triangle_springs_.AfterRemoval(*topology_, shells_, done_);
    pressures_.AfterRemoval(*topology_, done_, node.triangle_lists);
    for (const FollowedSprings& springs : springs_)
      system_->RemoveSprings(springs.field, done_.removed_edges);
    for (const FollowedFem& fem : fems_)
      fem.field->RemoveElementsMovingLast(done_.removed_triangles);
    // The removed triangles' vertices were listed in the numbering before the removal and
    // follow the removed points; the moved triangles' are read in the numbering after it.
    if (!done_.removed_points.empty()) FollowRemovedPoints(simulation, node);
    for (const auto& child : edge_children_) child->AfterRemoval(node, *topology_, done_);
    if (mass_) {
      for (const Index slot : done_.removed_triangles)
        if (slot < static_cast<Index>(topology_->triangles.size()))
          for (const Index v : topology_->triangles[static_cast<std::size_t>(slot)])
            touched_.push_back(v);
    }
    collisions_.Follow(simulation, *topology_);
    for (const FollowedBending& bending : bendings_) {
      // The coefficients in force (a field set between steps sets every spring's).
      const std::vector<PackedSpring>& now = bending.field->springs();
      const double stiffness = now.empty() ? bending_stiffness_ : now.front().stiffness;
      const double damping = now.empty() ? bending_damping_ : now.front().damping;
      BendingSprings(stiffness, damping, bending_scratch_);
      bending.field->AssignSprings(bending_scratch_);
    }
    mass_dofs_.clear();
    masses_.clear();
    if (mass_) {
      std::sort(touched_.begin(), touched_.end());
      touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
      for (const Index v : touched_) SetVertexMass(v);
    }
    // The solver follows what changed in its buffers (a method with a history starts up again,
    // as after the rebuild's Initialize; one that keeps a copy of the masses takes the new ones):
    // Solver::FollowSystemChange, in time proportional to the change for the solvers that
    // follow it, an initialisation for the others.
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
    const auto before = static_cast<Index>(topology_->triangles.size());
    if (!additions_.Add(Target(simulation, node), *topology_, shells_, vertices, why)) return false;
    collisions_.Follow(simulation, *topology_);
    for (const auto& child : edge_children_)
      child->AfterAddition(node, *topology_, shells_, before, rest_points_);
    node.topology = topology_;
    return true;
  }
  AdditionTarget Target(Simulation& simulation, ChangingNode& node) {
    return {simulation, node, *solver_node_, *system_, first_dof_, dimension_, rest_points_};
  }
  TriangleAdditions additions_;
  // The Triangle2Edge children (build/edge_child_in_place.h) and their components' lines.
  std::vector<std::unique_ptr<EdgeChildInPlace>> edge_children_;
  std::vector<int> child_lines_;

  std::span<const Index> removed_points() const override { return done_.removed_points; }

  std::span<const Index> out_of_range() const override { return done_.out_of_range; }

  // Set up by CreateInPlaceFollower.
  std::shared_ptr<Topology> topology_;
  InPlaceCollisionModels collisions_;
  TriangleShells shells_;
  SolverNode* solver_node_ = nullptr;
  AssembledSystem* system_ = nullptr;
  std::vector<FollowedSprings> springs_;
  std::vector<FollowedFem> fems_;
  std::vector<FollowedBending> bendings_;
  InPlaceTriangleSprings triangle_springs_;  // Triangular(Bi)QuadraticSpringsForceField
  InPlaceTrianglePressure pressures_;        // TrianglePressureForceField
  double bending_stiffness_ = 0.0, bending_damping_ = 0.0;
  std::optional<FollowedMass> mass_;
  Index first_dof_ = 0;
  int dimension_ = 3;
  std::vector<std::array<double, 3>> rest_points_;  // the areas' points (the rest positions)
  // Why a removal that frees points must rebuild (empty when it is followed), and the constant
  // forces (weights) laid over the object's DOFs in order, which lose the removed points' entries.
  std::string points_refusal_;
  std::vector<ConstantForce*> point_forces_;

  // SOFA's TriangularBendingSprings on the live topology (build/in_place_bending_springs.h), into
  // `out` (reserved to the field's first count at creation: nothing allocated, the count only
  // falls).
  void BendingSprings(double stiffness, double damping, std::vector<PackedSpring>& out) const {
    BendingSpringsOf(*topology_, shells_, rest_points_, first_dof_, dimension_, stiffness, damping,
                     out);
  }
  std::vector<PackedSpring> bending_scratch_;

 private:
  // density × area / 3 of each triangle around v, summed in triangle order from 0 (the sum
  // LumpedVertexMass makes), into M and the weight.
  void SetVertexMass(Index v) {
    around_.assign(shells_.TrianglesAroundVertex(v).begin(),
                   shells_.TrianglesAroundVertex(v).end());
    std::sort(around_.begin(), around_.end());
    double mass = 0.0;
    for (const Index t : around_) {
      const auto& triangle = topology_->triangles[static_cast<std::size_t>(t)];
      const double area = TriangleArea(rest_points_[static_cast<std::size_t>(triangle[0])],
                                       rest_points_[static_cast<std::size_t>(triangle[1])],
                                       rest_points_[static_cast<std::size_t>(triangle[2])]);
      mass += mass_->density * area / 3.0;
    }
    SetPointMass(*system_, first_dof_ + v * dimension_, dimension_, mass, mass_dofs_, masses_);
    // Through the weight, which multiplies by the gravity in force now (a gravity set between
    // steps included) and keeps the mass for a later one.
    if (mass_->weight != nullptr) mass_->weight->SetPointMassAt(static_cast<std::size_t>(v), mass);
  }

  // SOFA's removePointsProcess for everything indexed by the object's points
  // (build/in_place_points.h); then the membranes' elements and the springs of the edges around
  // each moved point take its new number.
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
      for (const Index t : shells_.TrianglesAroundVertex(p)) {
        const auto& triangle = topology_->triangles[static_cast<std::size_t>(t)];
        for (const FollowedFem& fem : fems_)
          fem.field->SetElementDofs(static_cast<std::size_t>(t),
                                    {dof(triangle[0]), dof(triangle[1]), dof(triangle[2])});
        for (const Index e : shells_.EdgesInTriangle(t)) {
          const auto& edge = topology_->edges[static_cast<std::size_t>(e)];
          for (const FollowedSprings& springs : springs_)
            dynamic_cast<SpringForceField&>(system_->MutableField(springs.field))
                .SetSpringEnds(static_cast<std::size_t>(e), dof(edge[0]), dof(edge[1]));
        }
      }
    }
  }

  ShellRemoval done_;
  std::vector<Index> touched_, around_;
  // The change as the solver sees it (Solver::FollowSystemChange).
  std::vector<Index> removed_blocks_, mass_dofs_;
  std::vector<double> masses_;
};

// The followed TriangularFEMForceField(Optim) `path` of scene element `element` (field null: the
// component has no stiffness, nothing to follow), or nullopt with `why` set. Followed when its
// elements are `topology`'s triangles in order and nothing of it is given per triangle or per
// point: SOFA's TriangleData keeps each triangle's rest data when the triangle is moved, which is
// what a build from the reduced mesh computes again only when the material and rest shape come
// from one value and the rest positions (a youngModulus per element would stay with its triangle
// in SOFA and with its index in a rebuild).
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
  for (const char* given : {"rotatedInitialElements", "initialTransformation", "topology"})
    if (element->Find(given) != nullptr) {
      why = std::string("is given '") + given + "' (a rebuild writes it)";
      return std::nullopt;
    }
  int sources = 0;
  const ForceField* found = FieldOf(simulation, path, sources);
  if (sources == 0) return FollowedFem{};
  const int index = system.FieldIndex(found);
  auto* fem =
      index >= 0 ? dynamic_cast<TriangleFem*>(&system.MutableField(static_cast<std::size_t>(index)))
                 : nullptr;
  if (sources != 1 || fem == nullptr) {
    why = "is not one membrane field of the node";
    return std::nullopt;
  }
  bool in_order = fem->num_elements() == topology.triangles.size();
  for (std::size_t t = 0; in_order && t < topology.triangles.size(); ++t)
    for (std::size_t v = 0; in_order && v < 3; ++v)
      in_order = fem->element(t).dof[v] == dof(topology.triangles[t][v]);
  if (!in_order) {
    why = "is not on the topology's triangles in order";
    return std::nullopt;
  }
  return FollowedFem{fem, static_cast<std::size_t>(index)};
}

// Why a removal that frees points cannot be followed in place for this node (empty when it can,
// the system's and the simulation's own conditions checked at each removal), and the weights
// that follow it into `follower`.
std::string PointsRefusal(Follower& follower, const ChangingNode& node, const ObjectModel& object,
                          const TriangleShells& shells) {
  if (!shells.points_follow()) return "an edge of the topology is no triangle's side";
  if (!node.spring_lists.empty()) return "a SpringForceField lists springs on the points";
  AssembledSystem& system = *follower.system_;
  for (std::size_t f = 0; f < system.num_fields(); ++f) {
    if (std::any_of(follower.springs_.begin(), follower.springs_.end(),
                    [&](const FollowedSprings& s) { return s.field == f; }) ||
        std::any_of(follower.fems_.begin(), follower.fems_.end(),
                    [&](const FollowedFem& fem) { return fem.index == f; }) ||
        std::any_of(follower.bendings_.begin(), follower.bendings_.end(),
                    [&](const FollowedBending& bending) { return bending.index == f; }) ||
        follower.triangle_springs_.Follows(f) || follower.pressures_.Follows(f) ||
        std::any_of(follower.edge_children_.begin(), follower.edge_children_.end(),
                    [&](const auto& child) { return child->Follows(f); }) ||
        IsContactField(system.MutableField(f)))
      continue;
    auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
    bool laid =
        force != nullptr && force->dofs().size() == static_cast<std::size_t>(object.num_dofs());
    for (std::size_t k = 0; laid && k < force->dofs().size(); ++k)
      laid = force->dofs()[k] == object.offset + static_cast<Index>(k);
    if (!laid) return "a force field of the system is not the object's springs or weight";
    follower.point_forces_.push_back(force);
  }
  return {};
}

}  // namespace

std::unique_ptr<InPlaceFollower> CreateInPlaceFollower(Simulation& simulation, ChangingNode& node,
                                                       const SceneDescription& scene,
                                                       std::string& why) {
  const auto refuse = [&](std::string reason) -> std::unique_ptr<InPlaceFollower> {
    why = std::move(reason);
    return nullptr;
  };
  if (node.level == TopologyLevel::kTetrahedron)
    return CreateTetrahedronFollower(simulation, node, scene, why);
  if (node.level == TopologyLevel::kPoint) return CreatePointFollower(simulation, node, scene, why);
  if (node.level == TopologyLevel::kQuad || node.level == TopologyLevel::kHexahedron)
    return CreateQuadHexahedronFollower(simulation, node, scene, why);
  if (node.level != TopologyLevel::kTriangle)
    return refuse(
        "only removals of points, triangles, quads, tetrahedra and hexahedra are followed in "
        "place");
  auto follower = std::make_unique<Follower>();
  follower->solver_node_ = SimulationAccess::SolverNodeOf(simulation, node.object);
  if (follower->solver_node_ == nullptr) return refuse("the object is not moved by a solver");
  follower->system_ = dynamic_cast<AssembledSystem*>(follower->solver_node_->system.get());
  if (follower->system_ == nullptr) return refuse("the solver node's system is not assembled");
  const ObjectModel& object = simulation.model().objects[static_cast<std::size_t>(node.object)];
  // What NodeTopologies reports (nothing once a load released its topologies): the same as the
  // stage's.
  const Topology* reported = SimulationAccess::NodeTopology(simulation, node.node_path);
  if (reported != nullptr &&
      (reported->points.size() != node.topology->points.size() ||
       reported->triangles != node.topology->triangles || reported->edges != node.topology->edges))
    return refuse("the node's topology is not the changing container's as built");
  follower->first_dof_ = object.offset;
  follower->dimension_ = node.dimension;
  AssembledSystem& system = *follower->system_;
  const Topology& topology = *node.topology;
  const auto dof = [&](Index point) { return object.offset + point * node.dimension; };
  if (!node.mappings.empty()) {
    follower->edge_children_ =
        CreateEdgeChildren(simulation, node, scene, system, object.offset, why);
    if (follower->edge_children_.empty()) return nullptr;
    for (const auto& child : follower->edge_children_)
      follower->child_lines_.insert(follower->child_lines_.end(), child->lines().begin(),
                                    child->lines().end());
  }

  for (const NodeComponent& c : node.components) {
    const std::string path = c.node_path + "/" + c.name;
    const bool own_node = c.node_path == node.node_path;
    if (std::find(follower->child_lines_.begin(), follower->child_lines_.end(), c.line) !=
        follower->child_lines_.end())
      continue;
    if (c.kind == ComponentKind::kOdeSolver || c.kind == ComponentKind::kLinearSolver ||
        c.kind == ComponentKind::kIgnored || c.kind == ComponentKind::kContext)
      continue;
    if (c.line == node.topology_line || (own_node && FollowsRemovalUnchanged(c.type))) continue;
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
      follower->springs_.push_back({static_cast<std::size_t>(index)});
      continue;
    }
    if ((c.type == "TriangularFEMForceField" || c.type == "TriangularFEMForceFieldOptim") &&
        own_node) {
      std::string refusal;
      std::optional<FollowedFem> fem = FemOf(
          simulation, system, path, FindElementAt(scene.root, c.line), topology, dof, refusal);
      if (!fem) return refuse("<" + c.type + "> '" + path + "' " + refusal);
      if (fem->field != nullptr) follower->fems_.push_back(*fem);
      continue;
    }
    if (c.type == "TriangularBendingSprings" && own_node) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr || element->Find("topology") != nullptr)
        return refuse("TriangularBendingSprings '" + path + "' is given a topology link");
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      if (sources == 0) continue;  // no interior edge, or no stiffness and damping
      const int index = system.FieldIndex(field);
      auto* springs = index >= 0 ? dynamic_cast<SpringForceField*>(
                                       &system.MutableField(static_cast<std::size_t>(index)))
                                 : nullptr;
      if (sources != 1 || springs == nullptr || springs->springs().empty())
        return refuse("TriangularBendingSprings '" + path + "' is not one spring field");
      follower->bendings_.push_back({springs, static_cast<std::size_t>(index)});
      follower->bending_stiffness_ = springs->springs().front().stiffness;
      follower->bending_damping_ = springs->springs().front().damping;
      continue;
    }
    if ((c.type == "TriangularQuadraticSpringsForceField" ||
         c.type == "TriangularBiquadraticSpringsForceField") &&
        own_node) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr || element->Find("topology") != nullptr)
        return refuse("<" + c.type + "> '" + path + "' is given a topology link");
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      if (sources == 0) continue;  // nothing built
      std::string refusal;
      if (sources != 1 || node.dimension != 3 ||
          !follower->triangle_springs_.Add(system, field, topology, object.offset, refusal))
        return refuse("<" + c.type + "> '" + path + "' " +
                      (refusal.empty() ? "is not one spring field of the node" : refusal));
      continue;
    }
    if (c.kind == ComponentKind::kCollisionModel) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, topology);
          !refusal.empty())
        return refuse(std::move(refusal));
      continue;
    }
    if (c.type == "TrianglePressureForceField" && own_node) {
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      if (sources == 0) continue;  // an empty list: no load
      const auto list =
          std::find_if(node.triangle_lists.begin(), node.triangle_lists.end(),
                       [&](const FollowedIndexList& l) { return l.element_line == c.line; });
      std::string refusal;
      if (sources != 1 || node.dimension != 3 || list == node.triangle_lists.end() ||
          !follower->pressures_.Add(system, field, node.triangle_lists,
                                    static_cast<std::size_t>(list - node.triangle_lists.begin()),
                                    topology, object.offset, refusal))
        return refuse("<" + c.type + "> '" + path + "' " +
                      (refusal.empty() ? "is not one load of the node" : refusal));
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
    return refuse("<" + c.type + "> '" + path + "' does not follow a change in place");
  }
  // The masses must be what the follow recomputes: density × area / 3 summed per vertex.
  follower->rest_points_.assign(topology.points.size(), {0.0, 0.0, 0.0});
  for (std::size_t i = 0; i < topology.points.size(); ++i)
    for (int a = 0; a < node.dimension && a < 3; ++a)
      follower->rest_points_[i][static_cast<std::size_t>(a)] =
          node.rest_position[static_cast<Index>(i) * node.dimension + a];
  if (follower->mass_) {
    FollowedMass& mass = *follower->mass_;
    const std::vector<double> vertex =
        LumpedVertexMass(topology, follower->rest_points_, mass.density).vertex;
    const Vector diagonal = system.mass_diagonal();
    for (std::size_t i = 0; i < vertex.size(); ++i)
      for (int a = 0; a < node.dimension; ++a)
        if (diagonal[dof(static_cast<Index>(i)) + a] != vertex[i])
          return refuse("the node's masses are not its DiagonalMass's alone");
    // Its weight: the constant force giving g·m on every DOF of the object, with the Weight that
    // keeps m and the gravity in force (mechanics/gravity_weights.h), found by its point masses
    // (the gravity may have changed between steps since the load).
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
  std::optional<TriangleShells> shells = TriangleShells::Build(topology);
  if (!shells) return refuse("the triangles' sides are not the container's edges, once each");
  follower->points_refusal_ = PointsRefusal(*follower, node, object, *shells);
  follower->shells_ = std::move(*shells);
  // The live topology: a copy the follower changes, in place of the built one everywhere.
  follower->topology_ = std::make_shared<Topology>(topology);
  // The bending springs must be those the follow computes again (their ends either way round).
  for (const FollowedBending& bending : follower->bendings_) {
    std::vector<PackedSpring> expected;
    follower->BendingSprings(follower->bending_stiffness_, follower->bending_damping_, expected);
    const std::vector<PackedSpring>& built = bending.field->springs();
    const bool same = SameBendingSprings(built, expected);
    if (!same)
      return refuse(
          "TriangularBendingSprings: its springs are not the topology's interior edges' "
          "in order");
    follower->bending_scratch_.reserve(built.size());
  }
  follower->additions_.Prepare(follower->Target(simulation, node), scene, follower->child_lines_);
  SimulationAccess::ReplaceNodeTopology(simulation, node.node_path, follower->topology_);
  for (const auto& child : follower->edge_children_) child->Install(simulation, node);
  node.topology = follower->topology_;
  // Their per-element output is on the triangles that now change (the live topology's).
  for (const FollowedFem& fem : follower->fems_)
    if (fem.field->element_output() != nullptr) fem.field->PublishVonMises(follower->topology_);
  return follower;
}

}  // namespace fluxion::internal
