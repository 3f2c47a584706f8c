// Quad2Triangle and Hexa2Quad children followed in place (see the header).
#include "build/element_child_in_place.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>

#include "build/in_place_collision.h"
#include "build/in_place_points.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/face_surface_shells.h"
#include "mechanics/spring_force_field.h"
#include "mechanics/triangle_fem.h"
#include "mechanics/triangle_shells.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// A TriangularFEMForceField on the output's triangles in order.
struct ChildFem {
  TriangleFem* field = nullptr;
  std::size_t index = 0;  // its index in the system
};

// TriangularBendingSprings (N = 3) or QuadularBendingSprings (N = 4) on the output.
struct ChildBending {
  SpringForceField* field = nullptr;
  std::size_t index = 0;  // its index in the system
  double stiffness = 0.0, damping = 0.0;
};

// Shape = the input's elements; N = the output's element size (3: Quad2Triangle, 4: Hexa2Quad).
template <class Shape>
constexpr std::size_t kOutput = std::is_same_v<Shape, QuadShape> ? 3 : 4;

template <class Shape>
class FaceChild final : public ElementChildInPlace<Shape> {
 public:
  static constexpr std::size_t N = kOutput<Shape>;
  using Shells = FaceSurfaceShells<N>;

  bool Claims(int line) const override {
    return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
  }

  bool Follows(std::size_t index) const override {
    return std::any_of(fems_.begin(), fems_.end(),
                       [&](const ChildFem& f) { return f.index == index; }) ||
           std::any_of(bendings_.begin(), bendings_.end(),
                       [&](const ChildBending& b) { return b.index == index; });
  }

  bool HasMatrixEntries() const override { return !fems_.empty() || !bendings_.empty(); }

  std::string Verify() override {
    for (const ChildBending& bending : bendings_) {
      BendingSprings(bending.stiffness, bending.damping, bending_scratch_);
      const std::vector<PackedSpring>& built = bending.field->springs();
      bool same = bending_scratch_.size() == built.size();
      for (std::size_t k = 0; same && k < built.size(); ++k) {
        const PackedSpring &a = built[k], &b = bending_scratch_[k];
        same = a.a == b.a && a.b == b.b && a.rest_length == b.rest_length &&
               a.stiffness == b.stiffness && a.damping == b.damping;
      }
      if (!same)
        return "the bending springs of node '" + node_path_ +
               "' are not its output's inner edges' in order";
    }
    // Room for every edge of the output with two elements (Hexa2Quad's uncovered quads may add
    // some).
    bending_scratch_.reserve(2 * live_->topology.edges.capacity());
    return {};
  }

  void BeforeRemoval(ChangingNode& node, const Topology& input, const ElementShells<Shape>& shells,
                     std::span<const Index> ids) override {
    input_elements_ = ((input).*Shape::kElements).size();
    input_quads_ = input.quads.size();
    if constexpr (N == 4) {
      // HEXAHEDRAREMOVED: mapped_topology_follow.cpp's Hexa2QuadHexahedraRemoved, on the live
      // output.
      MappedTopology& m = node.mappings[mapping_].mapped;
      Topology& surface = live_->topology;
      SortRemovalIds(ids, static_cast<Index>(input.hexahedra.size()), tab_, nullptr);
      for (std::size_t i = 0; i < tab_.size(); ++i) {
        const Index id = tab_[i];
        for (const Index face : shells.FacesInElement(id)) {
          const std::vector<Index>& shell = shells.ElementsAroundFace(face);
          if (shell.size() != 2) continue;
          const Index other = id == shell[0] ? shell[1] : shell[0];
          const auto before = tab_.begin() + static_cast<std::ptrdiff_t>(i);
          if (std::find(tab_.begin(), before, other) != before) continue;
          const auto& faces_of_other = shells.FacesInElement(other);
          const auto position = static_cast<std::size_t>(
              std::find(faces_of_other.begin(), faces_of_other.end(), face) -
              faces_of_other.begin());
          const auto& hexahedron = input.hexahedra[static_cast<std::size_t>(other)];
          std::array<Index, 4> quad{};
          for (std::size_t j = 0; j < 4; ++j)
            quad[j] = hexahedron[static_cast<std::size_t>(HexahedronShape::kFaces[position][j])];
          if (m.flip_normals) quad = {quad[3], quad[2], quad[1], quad[0]};
          shells_->Add(surface, quad);
          m.loc2glob.push_back(face);
          live_->glob2loc[static_cast<std::size_t>(face)] =
              static_cast<Index>(m.loc2glob.size()) - 1;
        }
      }
    }
  }

  void AfterRemoval(Simulation& simulation, ChangingNode& node,
                    const ElementRemoval& done) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    if constexpr (N == 3)
      QuadsRemovedQuad2Triangle(m, done.removed_elements);
    else
      QuadsRemovedHexa2Quad(m, done.removed_faces);
    // POINTSREMOVED: the output's points follow the input's, one by one; the membranes' elements
    // on a moved point take its number.
    Topology& surface = live_->topology;
    const auto dof = [&](Index p) { return first_dof_ + p * dimension_; };
    for (std::size_t i = 0; i < done.removed_points.size(); ++i) {
      const Index p = done.removed_points[i];
      shells_->MovePoint(surface, p, done.moved_points[i]);
      if (p == done.moved_points[i] || fems_.empty() ||
          static_cast<std::size_t>(p) >= surface.points.size())
        continue;
      if constexpr (N == 3)
        for (const Index t : shells_->ElementsAroundVertex(p)) {
          const auto& triangle = surface.triangles[static_cast<std::size_t>(t)];
          for (const ChildFem& fem : fems_)
            fem.field->SetElementDofs(static_cast<std::size_t>(t),
                                      {dof(triangle[0]), dof(triangle[1]), dof(triangle[2])});
        }
    }
    RewriteBendingSprings();
    collisions_.Follow(simulation, surface);
  }

  void RewriteBendingSprings() {
    for (const ChildBending& bending : bendings_) {
      // The coefficients in force (a field set between steps sets every spring's).
      const std::vector<PackedSpring>& now = bending.field->springs();
      BendingSprings(now.empty() ? bending.stiffness : now.front().stiffness,
                     now.empty() ? bending.damping : now.front().damping, bending_scratch_);
      bending.field->AssignSprings(bending_scratch_);
    }
  }

  std::string AdditionRefusal() const override {
    if (N == 3 && !fems_.empty())
      return "the TriangularFEMForceField of node '" + node_path_ +
             "' would take elements on the triangles of the added quads (their rest data is not "
             "computed in place)";
    return {};
  }

  void AfterAddition(Simulation& simulation, ChangingNode& node, const Topology& input,
                     const ElementAddition& done) override {
    if constexpr (N == 3) {
      // QUADSADDED: mapped_topology_follow.cpp's FollowAddition, on the live output.
      MappedTopology& m = node.mappings[mapping_].mapped;
      Topology& surface = live_->topology;
      for (Index k = done.first_added; k < done.first_added + done.added; ++k) {
        const auto& q = input.quads[static_cast<std::size_t>(k)];
        const auto count = static_cast<Index>(surface.triangles.size());
        shells_->Add(surface, {q[0], q[1], q[2]});
        shells_->Add(surface, {q[0], q[2], q[3]});
        m.loc2glob.push_back(k);
        m.loc2glob.push_back(k);
        m.in2out[k].assign({count, count + 1});
      }
      RewriteBendingSprings();
      collisions_.Follow(simulation, surface);
    }
  }

  void Install(Simulation& simulation, ChangingNode& node) override {
    node.mappings[mapping_].live = live_;
    const std::shared_ptr<Topology> surface(live_, &live_->topology);
    SimulationAccess::ReplaceNodeTopology(simulation, node_path_, surface);
    for (const ChildFem& fem : fems_)
      if (fem.field->element_output() != nullptr) fem.field->PublishVonMises(surface);
  }

  // The springs the bending field's build makes on the live output: for each edge with exactly
  // two elements, in edge order (low the lower-numbered element, high the other, the edge being
  // edge i of high and j of low: edge j = (v[j+1], v[j+2])),
  //  - triangles (components/triangular_bending_springs.cpp): one spring from high's vertex
  //    opposite the edge to low's, (high[i], low[j]);
  //  - quads (components/quadular_bending_springs.cpp): (high[i], low[j+3]) and (high[i+3],
  //    low[j]) (indices mod 4);
  // their rest lengths the rest distances; into `out`.
  void BendingSprings(double stiffness, double damping, std::vector<PackedSpring>& out) const {
    out.clear();
    const Topology& surface = live_->topology;
    const auto& elements = Shells::Elements(surface);
    const int d = dimension_;
    const auto spring = [&](Index a, Index b) {
      double length2 = 0.0;
      for (int c = 0; c < d && c < 3; ++c) {
        const double u = (*rest_points_)[static_cast<std::size_t>(a)][static_cast<std::size_t>(c)] -
                         (*rest_points_)[static_cast<std::size_t>(b)][static_cast<std::size_t>(c)];
        length2 += u * u;
      }
      out.push_back(PackedSpring{static_cast<std::int32_t>(first_dof_ + a * d),
                                 static_cast<std::int32_t>(first_dof_ + b * d), stiffness, damping,
                                 std::sqrt(length2)});
    };
    const auto place = [&](Index t, Index e) {
      const auto& edges = shells_->EdgesInElement(t);
      for (std::size_t j = 0; j < N; ++j)
        if (edges[j] == e) return j;
      return std::size_t{0};
    };
    for (std::size_t e = 0; e < surface.edges.size(); ++e) {
      const std::vector<Index>& around = shells_->ElementsAroundEdge(static_cast<Index>(e));
      if (around.size() != 2) continue;
      const Index high = std::max(around[0], around[1]), low = std::min(around[0], around[1]);
      const std::size_t i = place(high, static_cast<Index>(e)),
                        j = place(low, static_cast<Index>(e));
      const auto& h = elements[static_cast<std::size_t>(high)];
      const auto& l = elements[static_cast<std::size_t>(low)];
      if constexpr (N == 3) {
        spring(h[i], l[j]);
      } else {
        spring(h[i], l[(j + 3) % 4]);
        spring(h[(i + 3) % 4], l[j]);
      }
    }
  }

  // Set up by CreateElementChildren.
  std::size_t mapping_ = 0;  // in node.mappings
  std::string node_path_;    // the child node
  std::shared_ptr<LiveMappedOutput> live_;
  std::optional<Shells> shells_;
  std::vector<int> lines_;  // the child's components
  std::vector<ChildFem> fems_;
  std::vector<ChildBending> bendings_;
  std::vector<PackedSpring> bending_scratch_;
  InPlaceCollisionModels collisions_;
  Index first_dof_ = 0;
  int dimension_ = 3;
  const std::vector<std::array<double, 3>>* rest_points_ = nullptr;

 private:
  // The output's removeTriangles / removeQuads(ids, true, false) of `descending`, and the
  // membranes' elements with them.
  void RemoveFromOutput(std::span<const Index> descending) {
    shells_->Remove(live_->topology, descending);
    for (const ChildFem& fem : fems_) fem.field->RemoveElementsMovingLast(descending);
  }

  // Quad2Triangle, QUADSREMOVED: mapped_topology_follow.cpp's Quad2TriangleQuadsRemoved, SOFA's
  // statements, on the live output (In2OutMap's entries reassigned in place).
  void QuadsRemovedQuad2Triangle(MappedTopology& m, std::span<const Index> tab) {
    auto& in2out = m.in2out;
    auto& loc2glob = m.loc2glob;
    Index last = static_cast<Index>(input_elements_) - 1;
    auto ind_last = static_cast<Index>(live_->topology.triangles.size());
    const auto at = [&](Index i) -> Index& { return loc2glob[static_cast<std::size_t>(i)]; };
    const auto set = [&](Index key, Index a, Index b) {
      std::vector<Index>& entry = in2out[key];
      entry.assign({a, b});
    };
    for (const Index k : tab) {
      const auto found = in2out.find(k);
      if (found != in2out.end() && found->second.size() == 2) {
        const std::array<Index, 2> ind_k = {found->second[0], found->second[1]};
        ind_last = ind_last - 1;
        const auto last_found = in2out.find(last);
        if (last_found != in2out.end() && last_found->second.size() == 2) {
          const std::array<Index, 2> ind_real_last = {last_found->second[0], last_found->second[1]};
          if (k != last) {
            set(k, ind_real_last[0], ind_real_last[1]);
            set(last, ind_k[0], ind_k[1]);
            std::swap(at(ind_real_last[0]), at(ind_k[0]));
            std::swap(at(ind_real_last[1]), at(ind_k[1]));
          }
        }
        if (ind_k[1] != ind_last) {
          set(at(ind_last), ind_k[0], ind_k[1]);
          set(at(ind_k[1]), ind_last, ind_last - 1);
          std::swap(at(ind_k[1]), at(ind_last));
        }
        ind_last = ind_last - 1;
        if (ind_k[0] != ind_last) std::swap(at(ind_k[0]), at(ind_last));
        in2out.erase(loc2glob.back());
        loc2glob.resize(loc2glob.size() - 2);
        const std::array<Index, 2> pair = {std::max(ind_k[0], ind_k[1]),
                                           std::min(ind_k[0], ind_k[1])};
        RemoveFromOutput(pair);
      }
      --last;
    }
  }

  // Hexa2Quad, QUADSREMOVED: mapped_topology_follow.cpp's FacesRemoved, SOFA's statements, on
  // the live output, Glob2LocMap as a vector (−1: none).
  void QuadsRemovedHexa2Quad(MappedTopology& m, std::span<const Index> tab) {
    auto& loc2glob = m.loc2glob;
    std::vector<Index>& glob2loc = live_->glob2loc;
    const auto g = [&](Index glob) -> Index& { return glob2loc[static_cast<std::size_t>(glob)]; };
    const auto at = [&](Index i) -> Index& { return loc2glob[static_cast<std::size_t>(i)]; };
    Index last = static_cast<Index>(input_quads_) - 1;
    auto ind_last = static_cast<Index>(live_->topology.quads.size());
    for (const Index k : tab) {
      if (g(k) >= 0) {
        ind_last = ind_last - 1;
        const Index ind_k = g(k);
        if (g(last) >= 0) {
          const Index ind_real_last = g(last);
          if (k != last) {
            g(k) = ind_real_last;
            g(last) = ind_k;
            std::swap(at(ind_real_last), at(ind_k));
          }
        }
        if (ind_k != ind_last) {
          g(at(ind_last)) = ind_k;
          g(at(ind_k)) = ind_last;
          std::swap(at(ind_k), at(ind_last));
        }
        g(loc2glob.back()) = -1;
        loc2glob.pop_back();
        const std::array<Index, 1> one = {ind_k};
        RemoveFromOutput(one);
      }
      --last;
    }
  }

  std::size_t input_elements_ = 0, input_quads_ = 0;
  std::vector<Index> tab_;  // the removed hexahedra, descending (the event's list)
};

// The node of the component at `line`, or empty.
std::string NodeOfLine(const ChangingNode& node, int line) {
  for (const NodeComponent& c : node.components)
    if (c.line == line) return c.node_path;
  return {};
}

bool Below(const std::string& path, const std::string& node) {
  return path == node || path.rfind(node + "/", 0) == 0;
}

// The followed TriangularFEMForceField `path` on the output `surface` (field null: no stiffness),
// or nullopt with `why` set: its elements the output's triangles in order, its material one value
// for all (build/topology_in_place.cpp's FemOf, on the output).
std::optional<ChildFem> FemOf(const Simulation& simulation, AssembledSystem& system,
                              const std::string& path, const ElementDescription* element,
                              const Topology& surface, Index first_dof, int dimension,
                              std::string& why) {
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
  if (sources == 0) return ChildFem{};
  const int index = system.FieldIndex(found);
  auto* fem =
      index >= 0 ? dynamic_cast<TriangleFem*>(&system.MutableField(static_cast<std::size_t>(index)))
                 : nullptr;
  if (sources != 1 || fem == nullptr) {
    why = "is not one membrane field of the node";
    return std::nullopt;
  }
  bool in_order = fem->num_elements() == surface.triangles.size();
  for (std::size_t t = 0; in_order && t < surface.triangles.size(); ++t)
    for (std::size_t v = 0; in_order && v < 3; ++v)
      in_order = fem->element(t).dof[v] == first_dof + surface.triangles[t][v] * dimension;
  if (!in_order) {
    why = "is not on the output's triangles in order";
    return std::nullopt;
  }
  return ChildFem{fem, static_cast<std::size_t>(index)};
}

template <class Shape>
std::unique_ptr<FaceChild<Shape>> CreateChild(Simulation& simulation, ChangingNode& node,
                                              const SceneDescription& scene, std::size_t m,
                                              AssembledSystem& system, Index first_dof,
                                              int dimension,
                                              const std::vector<std::array<double, 3>>& rest_points,
                                              std::string& why) {
  constexpr std::size_t N = kOutput<Shape>;
  constexpr bool kQuads = N == 3;
  FollowedMapping& mapping = node.mappings[m];
  const std::string child = NodeOfLine(node, mapping.topology_line);
  const TopologyMappingRule rule =
      kQuads ? TopologyMappingRule::kQuad2Triangle : TopologyMappingRule::kHexa2Quad;
  if (mapping.mapped.rule != rule) {
    why = std::string("the topological mapping of node '") + child + "' is not a " +
          (kQuads ? "Quad2Triangle" : "Hexa2Quad") + " one";
    return nullptr;
  }
  auto follower = std::make_unique<FaceChild<Shape>>();
  follower->mapping_ = m;
  follower->node_path_ = child;
  follower->first_dof_ = first_dof;
  follower->dimension_ = dimension;
  follower->rest_points_ = &rest_points;
  const Topology& surface = mapping.mapped.topology;
  const Topology& input = *node.topology;
  // What NodeTopologies reports for the child: the output as the stage follows it.
  const Topology* reported = SimulationAccess::NodeTopology(simulation, child);
  if (reported != nullptr &&
      (reported->triangles != surface.triangles || reported->quads != surface.quads ||
       reported->edges != surface.edges ||
       (!reported->points.empty() && reported->points.size() != surface.points.size()))) {
    why = "the topology of node '" + child + "' is not its mapping's output as followed";
    return nullptr;
  }
  if (surface.points.size() != input.points.size()) {
    why = "the output of node '" + child + "' does not have its input's points";
    return nullptr;
  }
  std::vector<std::string> object_nodes;
  for (const NodeComponent& c : node.components)
    if (Below(c.node_path, child) && c.type == "MechanicalObject")
      object_nodes.push_back(c.node_path);
  const auto refuse = [&](const NodeComponent& c, const std::string& what) {
    why = "<" + c.type + "> '" + c.node_path + "/" + c.name + "' " + what;
    return nullptr;
  };
  for (const NodeComponent& c : node.components) {
    if (!Below(c.node_path, child)) continue;
    follower->lines_.push_back(c.line);
    const bool own = c.node_path == child;
    const std::string path = c.node_path + "/" + c.name;
    if (c.line == mapping.topology_line || c.kind == ComponentKind::kIgnored ||
        c.kind == ComponentKind::kContext)
      continue;
    if (own && (c.kind == ComponentKind::kTopologicalMapping || c.type == "BoxROI")) continue;
    if (c.kind == ComponentKind::kMapping &&
        std::find(object_nodes.begin(), object_nodes.end(), c.node_path) == object_nodes.end())
      continue;  // a visual model's mapping: nothing mechanical follows it
    if (own && kQuads && c.type == "TriangularFEMForceField") {
      std::string refusal;
      std::optional<ChildFem> fem =
          FemOf(simulation, system, path, FindElementAt(scene.root, c.line), surface, first_dof,
                dimension, refusal);
      if (!fem) return refuse(c, refusal);
      if (fem->field != nullptr) follower->fems_.push_back(*fem);
      continue;
    }
    if (own &&
        (kQuads ? c.type == "TriangularBendingSprings" : c.type == "QuadularBendingSprings")) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr || element->Find("topology") != nullptr)
        return refuse(c, "is given a topology link");
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      const int index = sources == 1 ? system.FieldIndex(field) : -1;
      auto* springs = index >= 0 ? dynamic_cast<SpringForceField*>(
                                       &system.MutableField(static_cast<std::size_t>(index)))
                                 : nullptr;
      if (springs == nullptr || springs->springs().empty())
        return refuse(c, "is not one spring field with springs at the load");
      follower->bendings_.push_back({springs, static_cast<std::size_t>(index),
                                     springs->springs().front().stiffness,
                                     springs->springs().front().damping});
      continue;
    }
    if (c.kind == ComponentKind::kCollisionModel) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, surface);
          !refusal.empty()) {
        why = std::move(refusal);
        return nullptr;
      }
      continue;
    }
    return refuse(c, "below the mapped node '" + child + "' does not follow a change in place");
  }
  // The output never has more elements or edges than its input has faces (quads: 2 triangles
  // each) and edges.
  const std::size_t max_elements = std::max(FaceSurfaceShells<N>::Elements(surface).size(),
                                            kQuads ? 2 * input.quads.size() : input.quads.size());
  const std::size_t max_edges = surface.edges.size() + input.edges.size() + input.quads.size();
  follower->shells_ = FaceSurfaceShells<N>::Build(surface, max_elements, max_edges);
  if (!follower->shells_) {
    why = "the elements of node '" + child + "' do not have their sides among its edges";
    return nullptr;
  }
  follower->live_ = std::make_shared<LiveMappedOutput>();
  follower->live_->topology = surface;
  FaceSurfaceShells<N>::Elements(follower->live_->topology).reserve(max_elements);
  follower->live_->topology.edges.reserve(max_edges);
  if constexpr (!kQuads) {
    follower->live_->glob2loc.assign(input.quads.size(), -1);
    for (const auto& [glob, loc] : mapping.mapped.glob2loc) {
      if (glob < 0 || static_cast<std::size_t>(glob) >= input.quads.size()) {
        why = "the mapping of node '" + child + "' records a quad past its input's";
        return nullptr;
      }
      follower->live_->glob2loc[static_cast<std::size_t>(glob)] = loc;
    }
  }
  mapping.mapped.loc2glob.reserve(max_elements);
  return follower;
}

}  // namespace

template <class Shape>
std::vector<std::unique_ptr<ElementChildInPlace<Shape>>> CreateElementChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, int dimension,
    const std::vector<std::array<double, 3>>& rest_points, std::string& why) {
  std::vector<std::unique_ptr<ElementChildInPlace<Shape>>> children;
  for (std::size_t m = 0; m < node.mappings.size(); ++m) {
    std::unique_ptr<FaceChild<Shape>> child = CreateChild<Shape>(
        simulation, node, scene, m, system, first_dof, dimension, rest_points, why);
    if (!child) return {};
    children.push_back(std::move(child));
  }
  return children;
}

template std::vector<std::unique_ptr<ElementChildInPlace<QuadShape>>>
CreateElementChildren<QuadShape>(Simulation&, ChangingNode&, const SceneDescription&,
                                 AssembledSystem&, Index, int,
                                 const std::vector<std::array<double, 3>>&, std::string&);
template std::vector<std::unique_ptr<ElementChildInPlace<HexahedronShape>>>
CreateElementChildren<HexahedronShape>(Simulation&, ChangingNode&, const SceneDescription&,
                                       AssembledSystem&, Index, int,
                                       const std::vector<std::array<double, 3>>&, std::string&);

}  // namespace fluxion::internal
