// The in-place follow of a quad or hexahedron removal (see the header for what follows and how).
#include "build/quad_hexahedron_in_place.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "build/element_child_in_place.h"
#include "build/in_place_collision.h"
#include "build/in_place_points.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/element_shells.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/hexahedron_fem.h"
#include "mechanics/lumped_mass.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// A HexahedronFEMForceField or HexahedralFEMForceField on the topology's hexahedra in order.
struct FollowedHexahedronFem {
  HexahedronFem* field = nullptr;
  std::size_t index = 0;  // its index in the system
};

// A QuadularBendingSprings: two springs across each edge with two quads, in edge order.
struct FollowedQuadBending {
  SpringForceField* field = nullptr;
  std::size_t index = 0;  // its index in the system
  double stiffness = 0.0, damping = 0.0;
};

// A DiagonalMass spread by density over the elements, and the weight m·g it gives.
struct FollowedElementMass {
  double density = 0.0;
  Weight* weight = nullptr;  // its m·g (null when the object has no weight)
};

template <class Shape>
constexpr bool kHexahedra = std::is_same_v<Shape, HexahedronShape>;

template <class Shape>
class ElementFollower final : public InPlaceFollower {
 public:
  using Shells = ElementShells<Shape>;
  static constexpr std::size_t kVertices =
      std::tuple_size_v<typename std::remove_reference_t<decltype(std::declval<Topology&>().*
                                                                  Shape::kElements)>::value_type>;

  bool Remove(Simulation& simulation, ChangingNode& node, std::span<const Index> ids,
              std::string& why) override {
    const bool frees_points = shells_.WouldFreePoints(*topology_, ids);
    if (frees_points) {
      const char* refusal = system_->PointRemovalRefusal();
      if (refusal == nullptr)
        refusal = SimulationAccess::PointRemovalRefusal(simulation, node.object);
      if (!points_refusal_.empty() || refusal != nullptr) {
        why = std::string("the removal leaves points without ") + kElementName + ", and " +
              (points_refusal_.empty() ? std::string(refusal) : points_refusal_);
        return false;
      }
    }
    if ((!fems_.empty() || !bendings_.empty() ||
         std::any_of(children_.begin(), children_.end(),
                     [](const auto& child) { return child->HasMatrixEntries(); })) &&
        system_->has_matrix_layout()) {
      why =
          "the system's matrix pattern is built (a direct linear solver) and holds the entries "
          "of a hexahedral FEM force field or bending springs";
      return false;
    }
    auto& elements = (*topology_).*Shape::kElements;
    // The vertices whose mass sums change: those of the removed elements, now; those of the
    // elements moved into removed slots, after.
    touched_.clear();
    if (mass_)
      for (const Index t : ids)
        if (t >= 0 && t < static_cast<Index>(elements.size()))
          for (const Index v : elements[static_cast<std::size_t>(t)]) touched_.push_back(v);
    for (const auto& child : children_) child->BeforeRemoval(node, *topology_, shells_, ids);
    shells_.Remove(*topology_, ids, frees_points, done_);
    for (const FollowedHexahedronFem& fem : fems_) {
      fem.field->RemoveElementsMovingLast(done_.removed_elements);
      // The last hexahedron gone: a build from the empty mesh makes no field, and no output.
      if (fem.field->num_elements() == 0) fem.field->WithdrawVonMises();
    }
    for (const std::size_t springs : springs_) system_->RemoveSprings(springs, done_.removed_edges);
    // The removed elements' vertices were listed in the numbering before the removal and follow
    // the removed points; the moved elements' are read in the numbering after it.
    if (!done_.removed_points.empty()) FollowRemovedPoints(simulation, node);
    if (mass_)
      for (const Index slot : done_.removed_elements)
        if (slot < static_cast<Index>(elements.size()))
          for (const Index v : elements[static_cast<std::size_t>(slot)]) touched_.push_back(v);
    for (const auto& child : children_) child->AfterRemoval(simulation, node, done_);
    collisions_.Follow(simulation, *topology_);
    for (const FollowedQuadBending& bending : bendings_) {
      // The coefficients in force (a field set between steps sets every spring's).
      const std::vector<PackedSpring>& now = bending.field->springs();
      QuadBendingSprings(now.empty() ? bending.stiffness : now.front().stiffness,
                         now.empty() ? bending.damping : now.front().damping, bending_scratch_);
      bending.field->AssignSprings(bending_scratch_);
    }
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

  // An addition of quads or hexahedra (SOFA's addQuads / addHexahedra, ElementShells::Add) and
  // what follows it: the density mass of the new elements' vertices summed again (SOFA's
  // DiagonalMass::applyQuadCreation / applyHexahedronCreation add density × measure / vertices;
  // the sum in element order is the build's, the new elements coming last), the bending springs
  // written again as their build makes them, the collision models re-reading the topology, the
  // mapped children (QUADSADDED). A hexahedral FEM (its new elements' rest data) and
  // MeshSpringForceField (SOFA's has no handler for added edges, a build puts springs on them)
  // go through the rebuild, as does anything the shells do not add (ElementShells::Add).
  bool Add(Simulation& simulation, ChangingNode& node, std::span<const Index> vertices,
           std::string& why) override {
    if (!fems_.empty()) {
      why = "a hexahedral FEM force field would have to make the new elements' rest data";
      return false;
    }
    if (!springs_.empty()) {
      why =
          "a MeshSpringForceField: SOFA's has no handler for added edges, where a build of the "
          "grown mesh puts springs";
      return false;
    }
    if ((!bendings_.empty() ||
         std::any_of(children_.begin(), children_.end(),
                     [](const auto& child) { return child->HasMatrixEntries(); })) &&
        system_->has_matrix_layout()) {
      why =
          "the system's matrix pattern is built (a direct linear solver) and would have to take "
          "the new bending springs";
      return false;
    }
    for (const auto& child : children_)
      if (std::string refusal = child->AdditionRefusal(); !refusal.empty()) {
        why = std::move(refusal);
        return false;
      }
    if (!shells_.Add(*topology_, vertices, added_)) {
      why = std::string(
                "the shells do not add these elements (a vertex not a point or "
                "repeated, an element already there, or a container without its ") +
            (kHexahedra<Shape> ? "quads or edges)" : "edges)");
      return false;
    }
    auto& elements = (*topology_).*Shape::kElements;
    mass_dofs_.clear();
    masses_.clear();
    if (mass_) {
      touched_.clear();
      for (Index t = added_.first_added; t < added_.first_added + added_.added; ++t)
        for (const Index v : elements[static_cast<std::size_t>(t)]) touched_.push_back(v);
      std::sort(touched_.begin(), touched_.end());
      touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
      for (const Index v : touched_) SetVertexMass(v);
    }
    for (const auto& child : children_) child->AfterAddition(simulation, node, *topology_, added_);
    collisions_.Follow(simulation, *topology_);
    for (const FollowedQuadBending& bending : bendings_) {
      const std::vector<PackedSpring>& now = bending.field->springs();
      QuadBendingSprings(now.empty() ? bending.stiffness : now.front().stiffness,
                         now.empty() ? bending.damping : now.front().damping, bending_scratch_);
      bending.field->AssignSprings(bending_scratch_);
    }
    if (!mass_dofs_.empty())
      solver_node_->solver->FollowSystemChange(*solver_node_->system, {.block_size = dimension_,
                                                                       .removed_blocks = {},
                                                                       .mass_dofs = mass_dofs_,
                                                                       .masses = masses_});
    else
      solver_node_->solver->InvalidateHistory();
    node.topology = topology_;
    return true;
  }

  std::span<const Index> removed_points() const override { return done_.removed_points; }

  std::span<const Index> out_of_range() const override { return done_.out_of_range; }

  // SOFA's QuadularBendingSprings on the live topology, as its build makes them
  // (components/quadular_bending_springs.cpp): for each edge with exactly two quads, in edge
  // order, with j the edge's place in each quad (edge j = (q[j+1], q[j+2])), t2 the
  // lower-numbered quad and t1 the other, the springs (t1[i1], t2[i2+3]) and (t1[i1+3], t2[i2])
  // (indices mod 4), their rest lengths the rest distances; into `out` (reserved to the field's
  // first count at creation: nothing allocated, the count only falls). SOFA's handler
  // (QuadularBendingSprings.inl, applyQuadDestruction and applyPointDestruction: an edge losing
  // one of its two quads loses its springs, the moved points renamed) keeps the same springs;
  // the build's order is the edges' (SOFA's EdgeData), which this follows.
  void QuadBendingSprings(double stiffness, double damping, std::vector<PackedSpring>& out) const {
    out.clear();
    const auto& quads = topology_->quads;
    const auto place = [&](Index q, const std::array<Index, 2>& edge) {
      const auto& quad = quads[static_cast<std::size_t>(q)];
      for (int j = 0; j < 4; ++j) {
        const Index a = quad[static_cast<std::size_t>((j + 1) % 4)];
        const Index b = quad[static_cast<std::size_t>((j + 2) % 4)];
        if ((a == edge[0] && b == edge[1]) || (a == edge[1] && b == edge[0])) return j;
      }
      return 0;
    };
    const int d = dimension_;
    const auto spring = [&](Index m, Index n) {
      double length2 = 0.0;
      for (int c = 0; c < d && c < 3; ++c) {
        const double u = rest_points_[static_cast<std::size_t>(m)][static_cast<std::size_t>(c)] -
                         rest_points_[static_cast<std::size_t>(n)][static_cast<std::size_t>(c)];
        length2 += u * u;
      }
      out.push_back(PackedSpring{static_cast<std::int32_t>(first_dof_ + m * d),
                                 static_cast<std::int32_t>(first_dof_ + n * d), stiffness, damping,
                                 std::sqrt(length2)});
    };
    for (std::size_t e = 0; e < topology_->edges.size(); ++e) {
      const std::vector<Index>& around = shells_.ElementsAroundEdge(static_cast<Index>(e));
      if (around.size() != 2) continue;
      const Index q2 = std::min(around[0], around[1]), q1 = std::max(around[0], around[1]);
      const int i2 = place(q2, topology_->edges[e]), i1 = place(q1, topology_->edges[e]);
      const auto& t1 = quads[static_cast<std::size_t>(q1)];
      const auto& t2 = quads[static_cast<std::size_t>(q2)];
      spring(t1[static_cast<std::size_t>(i1)], t2[static_cast<std::size_t>((i2 + 3) % 4)]);
      spring(t1[static_cast<std::size_t>((i1 + 3) % 4)], t2[static_cast<std::size_t>(i2)]);
    }
  }

  // Set up by CreateQuadHexahedronFollower.
  static constexpr const char* kElementName = kHexahedra<Shape> ? "a hexahedron" : "a quad";
  std::shared_ptr<Topology> topology_;
  InPlaceCollisionModels collisions_;
  Shells shells_;
  SolverNode* solver_node_ = nullptr;
  AssembledSystem* system_ = nullptr;
  std::vector<FollowedHexahedronFem> fems_;
  std::vector<std::size_t> springs_;  // MeshSpringForceFields on the edges: system indices
  std::vector<FollowedQuadBending> bendings_;
  // The topological mappings' child nodes (build/element_child_in_place.h).
  std::vector<std::unique_ptr<ElementChildInPlace<Shape>>> children_;
  std::optional<FollowedElementMass> mass_;
  Index first_dof_ = 0;
  int dimension_ = 3;
  std::vector<std::array<double, 3>> rest_points_;  // the measures' points (rest positions)
  // Why a removal that frees points must rebuild (empty when it is followed), and the constant
  // forces (weights) laid over the object's DOFs in order, which lose the removed points' entries.
  std::string points_refusal_;
  std::vector<ConstantForce*> point_forces_;
  std::vector<PackedSpring> bending_scratch_;

 private:
  // density × measure / (vertices) of each element around v, summed in element order from 0
  // (the sum LumpedVertexMass makes), into M and the weight.
  void SetVertexMass(Index v) {
    around_.assign(shells_.ElementsAroundVertex(v).begin(), shells_.ElementsAroundVertex(v).end());
    std::sort(around_.begin(), around_.end());
    double mass = 0.0;
    for (const Index t : around_) {
      const auto& element = ((*topology_).*Shape::kElements)[static_cast<std::size_t>(t)];
      double measure = 0.0;
      if constexpr (kHexahedra<Shape>)
        measure = HexahedronVolume(rest_points_, element);
      else
        measure = QuadArea(rest_points_, element);
      mass += mass_->density * measure / static_cast<double>(kVertices);
    }
    SetPointMass(*system_, first_dof_ + v * dimension_, dimension_, mass, mass_dofs_, masses_);
    if (mass_->weight != nullptr) mass_->weight->SetPointMassAt(static_cast<std::size_t>(v), mass);
  }

  // SOFA's removePointsProcess for everything indexed by the object's points
  // (build/in_place_points.h); then the elements and springs around each moved point take its
  // new number (the bending springs are written again after).
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
      for (const Index e : shells_.BareEdgesAroundVertex(p)) {
        const auto& edge = topology_->edges[static_cast<std::size_t>(e)];
        for (const std::size_t springs : springs_)
          dynamic_cast<SpringForceField&>(system_->MutableField(springs))
              .SetSpringEnds(static_cast<std::size_t>(e), dof(edge[0]), dof(edge[1]));
      }
      for (const Index t : shells_.ElementsAroundVertex(p)) {
        const auto& element = ((*topology_).*Shape::kElements)[static_cast<std::size_t>(t)];
        if constexpr (kHexahedra<Shape>) {
          std::array<Index, 8> dofs{};
          for (std::size_t a = 0; a < 8; ++a) dofs[a] = dof(element[a]);
          for (const FollowedHexahedronFem& fem : fems_)
            fem.field->SetElementDofs(static_cast<std::size_t>(t), dofs);
        }
        if (springs_.empty()) continue;
        for (const Index e : shells_.EdgesInElement(t)) {
          const auto& edge = topology_->edges[static_cast<std::size_t>(e)];
          for (const std::size_t springs : springs_)
            dynamic_cast<SpringForceField&>(system_->MutableField(springs))
                .SetSpringEnds(static_cast<std::size_t>(e), dof(edge[0]), dof(edge[1]));
        }
      }
    }
    for (const FollowedHexahedronFem& fem : fems_) fem.field->ForgetPartition();
  }

  ElementRemoval done_;
  ElementAddition added_;
  std::vector<Index> touched_, around_;
  // The change as the solver sees it (Solver::FollowSystemChange).
  std::vector<Index> removed_blocks_, mass_dofs_;
  std::vector<double> masses_;
};

// The followed hexahedral FEM `path` of scene element `element` (field null: no stiffness,
// nothing to follow), or nullopt with `why` set. Followed when its elements are `topology`'s
// hexahedra in order, its material one value for all (a youngModulus per element stays with its
// hexahedron in SOFA and with its index in a rebuild) and the elements sharing a stiffness the
// same shape to the bit.
template <class Dof>
std::optional<FollowedHexahedronFem> HexahedronFemOf(
    const Simulation& simulation, AssembledSystem& system, const std::string& path,
    const ElementDescription* element, const Topology& topology, const Dof& dof, std::string& why) {
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
  if (element->Find("topology") != nullptr) {
    why = "is given 'topology' (a rebuild follows it)";
    return std::nullopt;
  }
  int sources = 0;
  const ForceField* found = FieldOf(simulation, path, sources);
  if (sources == 0) return FollowedHexahedronFem{};
  const int index = system.FieldIndex(found);
  auto* fem =
      index >= 0
          ? dynamic_cast<HexahedronFem*>(&system.MutableField(static_cast<std::size_t>(index)))
          : nullptr;
  if (sources != 1 || fem == nullptr) {
    why = "is not one hexahedral field of the node";
    return std::nullopt;
  }
  bool in_order = fem->num_elements() == topology.hexahedra.size();
  for (std::size_t t = 0; in_order && t < topology.hexahedra.size(); ++t)
    for (std::size_t v = 0; in_order && v < 8; ++v)
      in_order = fem->element(t).dof[v] == dof(topology.hexahedra[t][v]);
  if (!in_order) {
    why = "is not on the topology's hexahedra in order";
    return std::nullopt;
  }
  if (!fem->SharedStiffnessesExact()) {
    why =
        "shares stiffness matrices between elements whose shapes differ in round-off (a build "
        "from the reduced mesh may take another element's)";
    return std::nullopt;
  }
  return FollowedHexahedronFem{fem, static_cast<std::size_t>(index)};
}

// Why a removal that frees points cannot be followed in place for this node (empty when it can;
// the system's and the simulation's own conditions are checked at each removal), and the
// weights that follow it into `follower`.
template <class Shape>
std::string PointsRefusal(ElementFollower<Shape>& follower, const ChangingNode& node,
                          const ObjectModel& object, const ElementShells<Shape>& shells) {
  if (!shells.points_follow()) return "a quad of the topology is in no hexahedron";
  if (!node.spring_lists.empty()) return "a SpringForceField lists springs on the points";
  AssembledSystem& system = *follower.system_;
  for (std::size_t f = 0; f < system.num_fields(); ++f) {
    if (std::find(follower.springs_.begin(), follower.springs_.end(), f) !=
            follower.springs_.end() ||
        std::any_of(follower.fems_.begin(), follower.fems_.end(),
                    [&](const FollowedHexahedronFem& fem) { return fem.index == f; }) ||
        std::any_of(follower.bendings_.begin(), follower.bendings_.end(),
                    [&](const FollowedQuadBending& bending) { return bending.index == f; }) ||
        std::any_of(follower.children_.begin(), follower.children_.end(),
                    [&](const auto& child) { return child->Follows(f); }) ||
        IsContactField(system.MutableField(f)))
      continue;
    auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
    bool laid =
        force != nullptr && force->dofs().size() == static_cast<std::size_t>(object.num_dofs());
    for (std::size_t k = 0; laid && k < force->dofs().size(); ++k)
      laid = force->dofs()[k] == object.offset + static_cast<Index>(k);
    if (!laid) return "a force field of the system is not the object's elements, springs or weight";
    follower.point_forces_.push_back(force);
  }
  return {};
}

template <class Shape>
std::unique_ptr<InPlaceFollower> CreateFollower(Simulation& simulation, ChangingNode& node,
                                                const SceneDescription& scene, std::string& why) {
  const auto refuse = [&](std::string reason) -> std::unique_ptr<InPlaceFollower> {
    why = std::move(reason);
    return nullptr;
  };
  auto follower = std::make_unique<ElementFollower<Shape>>();
  follower->solver_node_ = SimulationAccess::SolverNodeOf(simulation, node.object);
  if (follower->solver_node_ == nullptr) return refuse("the object is not moved by a solver");
  follower->system_ = dynamic_cast<AssembledSystem*>(follower->solver_node_->system.get());
  if (follower->system_ == nullptr) return refuse("the solver node's system is not assembled");
  const ObjectModel& object = simulation.model().objects[static_cast<std::size_t>(node.object)];
  const Topology* reported = SimulationAccess::NodeTopology(simulation, node.node_path);
  if (reported != nullptr &&
      (reported->points.size() != node.topology->points.size() ||
       reported->hexahedra != node.topology->hexahedra || reported->quads != node.topology->quads ||
       reported->edges != node.topology->edges))
    return refuse("the node's topology is not the changing container's as built");
  if (kHexahedra<Shape> && node.dimension != 3) return refuse("the object is not Vec3");
  follower->first_dof_ = object.offset;
  follower->dimension_ = node.dimension;
  AssembledSystem& system = *follower->system_;
  const Topology& topology = *node.topology;
  const auto dof = [&](Index point) { return object.offset + point * node.dimension; };
  if (!node.mappings.empty()) {
    follower->children_ =
        CreateElementChildren<Shape>(simulation, node, scene, system, object.offset, node.dimension,
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
    if (kHexahedra<Shape> &&
        (c.type == "HexahedronFEMForceField" || c.type == "HexahedralFEMForceField") && own_node) {
      std::string refusal;
      std::optional<FollowedHexahedronFem> fem = HexahedronFemOf(
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
                      "': its springs are not the topology's edges in order (only springs on the "
                      "edges, its linesStiffness, are followed: not the quads' or hexahedra's "
                      "diagonals)");
      follower->springs_.push_back(static_cast<std::size_t>(index));
      continue;
    }
    if (!kHexahedra<Shape> && c.type == "QuadularBendingSprings" && own_node) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr || element->Find("topology") != nullptr)
        return refuse("QuadularBendingSprings '" + path + "' is given a topology link");
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      if (sources == 0) continue;  // no interior edge
      const int index = system.FieldIndex(field);
      auto* springs = index >= 0 ? dynamic_cast<SpringForceField*>(
                                       &system.MutableField(static_cast<std::size_t>(index)))
                                 : nullptr;
      if (sources != 1 || springs == nullptr || springs->springs().empty())
        return refuse("QuadularBendingSprings '" + path + "' is not one spring field");
      follower->bendings_.push_back({springs, static_cast<std::size_t>(index),
                                     springs->springs().front().stiffness,
                                     springs->springs().front().damping});
      continue;
    }
    if (c.kind == ComponentKind::kCollisionModel) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, topology);
          !refusal.empty())
        return refuse(std::move(refusal));
      continue;
    }
    if (c.type == "DiagonalMass" && own_node && !follower->mass_) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      const AttributeText* density = element ? element->Find("massDensity") : nullptr;
      std::optional<double> value = density ? ParseReal(density->value) : std::nullopt;
      if (!value || element->Find("totalMass") != nullptr || element->Find("topology") != nullptr)
        return refuse("DiagonalMass '" + path +
                      "' is not given by its massDensity alone (a rebuild writes it)");
      follower->mass_ = FollowedElementMass{*value, nullptr};
      continue;
    }
    if (c.type == "MeshMatrixMass")
      return refuse("MeshMatrixMass '" + path +
                    "' does not follow a change in place (its edge couplings)");
    return refuse("<" + c.type + "> '" + path + "' does not follow a change in place");
  }
  // The masses must be what the follow recomputes: density × measure / vertices, per vertex.
  follower->rest_points_.assign(topology.points.size(), {0.0, 0.0, 0.0});
  for (std::size_t i = 0; i < topology.points.size(); ++i)
    for (int a = 0; a < node.dimension && a < 3; ++a)
      follower->rest_points_[i][static_cast<std::size_t>(a)] =
          node.rest_position[static_cast<Index>(i) * node.dimension + a];
  if (follower->mass_) {
    FollowedElementMass& mass = *follower->mass_;
    const LumpedMass lumped = LumpedVertexMass(topology, follower->rest_points_, mass.density);
    if (lumped.element_kind != (kHexahedra<Shape> ? 5 : 3))
      return refuse("the DiagonalMass is not spread over the removed elements");
    const Vector diagonal = system.mass_diagonal();
    for (std::size_t i = 0; i < lumped.vertex.size(); ++i)
      for (int a = 0; a < node.dimension; ++a)
        if (diagonal[dof(static_cast<Index>(i)) + a] != lumped.vertex[i])
          return refuse("the node's masses are not its DiagonalMass's alone");
    // Its weight: the constant force giving g·m on every DOF of the object (found by its point
    // masses, the gravity in force possibly changed since the load).
    for (std::size_t f = 0; f < system.num_fields(); ++f) {
      auto* force = dynamic_cast<ConstantForce*>(&system.MutableField(f));
      Weight* weight = force != nullptr ? force->weight() : nullptr;
      if (weight != nullptr && !force->dofs().empty() && force->dofs().front() == object.offset &&
          weight->point_mass() == lumped.vertex) {
        mass.weight = weight;
        break;
      }
    }
    if (mass.weight == nullptr)
      return refuse("the weight of the DiagonalMass is not found (a gravity of its own node?)");
  }
  std::optional<ElementShells<Shape>> shells = ElementShells<Shape>::Build(topology);
  if (!shells)
    return refuse(kHexahedra<Shape> ? "the hexahedra's quads and edges are not the container's "
                                      "quads and edges, once each (or it lists other elements)"
                                    : "the quads' edges are not the container's edges, once each "
                                      "(or it lists other elements)");
  if (!follower->springs_.empty() && !shells->has_edges())
    return refuse("a MeshSpringForceField is on a topology without edges");
  if (!follower->bendings_.empty() && !shells->has_edges())
    return refuse("QuadularBendingSprings is on a topology without edges (its order is theirs)");
  if (kHexahedra<Shape> && !follower->children_.empty() && !shells->has_faces())
    return refuse("a Hexa2QuadTopologicalMapping reads the quads of a topology that lists none");
  for (const auto& child : follower->children_)
    if (std::string refusal = child->Verify(); !refusal.empty()) return refuse(std::move(refusal));
  follower->points_refusal_ = PointsRefusal(*follower, node, object, *shells);
  follower->shells_ = std::move(*shells);
  follower->topology_ = std::make_shared<Topology>(topology);
  // The bending springs must be those the follow computes again.
  for (const FollowedQuadBending& bending : follower->bendings_) {
    std::vector<PackedSpring> expected;
    follower->QuadBendingSprings(bending.stiffness, bending.damping, expected);
    const std::vector<PackedSpring>& built = bending.field->springs();
    bool same = expected.size() == built.size();
    for (std::size_t k = 0; same && k < built.size(); ++k) {
      const PackedSpring &a = built[k], &b = expected[k];
      same = a.a == b.a && a.b == b.b && a.rest_length == b.rest_length &&
             a.stiffness == b.stiffness && a.damping == b.damping;
    }
    if (!same)
      return refuse(
          "QuadularBendingSprings: its springs are not the topology's inner edges' in "
          "order");
    follower->bending_scratch_.reserve(built.size());
  }
  // The live topology: a copy the follower changes, in place of the built one everywhere.
  SimulationAccess::ReplaceNodeTopology(simulation, node.node_path, follower->topology_);
  node.topology = follower->topology_;
  for (const auto& child : follower->children_) child->Install(simulation, node);
  // Their per-element output is on the hexahedra that now change (the live topology's).
  for (const FollowedHexahedronFem& fem : follower->fems_)
    fem.field->PublishVonMises(follower->topology_);
  return follower;
}

}  // namespace

std::unique_ptr<InPlaceFollower> CreateQuadHexahedronFollower(Simulation& simulation,
                                                              ChangingNode& node,
                                                              const SceneDescription& scene,
                                                              std::string& why) {
  if (node.level == TopologyLevel::kQuad)
    return CreateFollower<QuadShape>(simulation, node, scene, why);
  if (node.level == TopologyLevel::kHexahedron)
    return CreateFollower<HexahedronShape>(simulation, node, scene, why);
  why = "the removals are not of quads or hexahedra";
  return nullptr;
}

}  // namespace fluxion::internal
