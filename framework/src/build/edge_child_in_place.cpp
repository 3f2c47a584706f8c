// A Triangle2Edge child followed in place (see the header).
#include "build/edge_child_in_place.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "build/in_place_points.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/simple_force_fields.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// An EdgePressureForceField on the output's edges: pressure·L₀/2 on each end of each edge, six
// entries per edge (edge[0]'s x y z, then edge[1]'s), as its build lays them.
struct EdgeLoad {
  ConstantForce* force = nullptr;
  std::size_t index = 0;  // in the system
  std::array<double, 3> pressure = {0, 0, 0};
};

class Triangle2EdgeChild final : public EdgeChildInPlace {
 public:
  bool Claims(int line) const override {
    return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
  }

  std::span<const int> lines() const override { return lines_; }

  bool Follows(std::size_t index) const override {
    return std::any_of(loads_.begin(), loads_.end(),
                       [&](const EdgeLoad& load) { return load.index == index; });
  }

  void BeforeRemoval(ChangingNode& node, const Topology& input, const TriangleShells& shells,
                     std::span<const Index> ids,
                     const std::vector<std::array<double, 3>>& rest_points) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    input_edges_ = input.edges.size();
    SortRemovalIds(ids, static_cast<Index>(input.triangles.size()), tab_, nullptr);
    for (std::size_t i = 0; i < tab_.size(); ++i) {
      const Index id = tab_[i];
      for (const Index face : shells.EdgesInTriangle(id)) {
        const std::vector<Index>& shell = shells.TrianglesAroundEdge(face);
        if (shell.size() != 2) continue;
        const Index other = id == shell[0] ? shell[1] : shell[0];
        const auto before = tab_.begin() + static_cast<std::ptrdiff_t>(i);
        if (std::find(tab_.begin(), before, other) != before) continue;
        const auto& e = input.edges[static_cast<std::size_t>(face)];
        AppendEdge({std::min(e[0], e[1]), std::max(e[0], e[1])}, rest_points);
        m.loc2glob.push_back(face);
        At(face) = static_cast<Index>(m.loc2glob.size()) - 1;
      }
    }
  }

  void AfterRemoval(ChangingNode& node, const Topology& input, const ShellRemoval& done) override {
    // EDGESREMOVED: mapped_topology_follow.cpp's FacesRemoved, SOFA's statements, Glob2LocMap
    // as a vector (−1: no output edge).
    MappedTopology& m = node.mappings[mapping_].mapped;
    auto& loc2glob = m.loc2glob;
    const auto loc = [&](Index i) -> Index& { return loc2glob[static_cast<std::size_t>(i)]; };
    Index last = static_cast<Index>(input_edges_) - 1;
    auto ind_last = static_cast<Index>(live_->topology.edges.size());
    for (const Index k : done.removed_edges) {
      if (At(k) >= 0) {
        ind_last = ind_last - 1;
        const Index ind_k = At(k);
        if (At(last) >= 0) {
          const Index ind_real_last = At(last);
          if (k != last) {
            At(k) = ind_real_last;
            At(last) = ind_k;
            std::swap(loc(ind_real_last), loc(ind_k));
          }
        }
        if (ind_k != ind_last) {
          At(loc(ind_last)) = ind_k;
          At(loc(ind_k)) = ind_last;
          std::swap(loc(ind_k), loc(ind_last));
        }
        At(loc2glob.back()) = -1;
        loc2glob.pop_back();
        RemoveEdge(ind_k);
      }
      --last;
    }
    // POINTSREMOVED: the output's points follow the input's, one by one (each removed point has
    // no output edge left: its input edges went).
    // The output's points are the input's from its first change of points on (the rebuild's
    // PointsRemoved copies them; a built output may list none): moved with them, or copied once.
    const bool points_follow =
        live_->topology.points.size() == input.points.size() + done.removed_points.size();
    for (std::size_t i = 0; i < done.removed_points.size(); ++i)
      MovePoint(done.removed_points[i], done.moved_points[i], points_follow);
    if (!done.removed_points.empty() && !points_follow) live_->topology.points = input.points;
  }

  void AfterAddition(ChangingNode& node, const Topology& input, const TriangleShells& shells,
                     Index first_added,
                     const std::vector<std::array<double, 3>>& rest_points) override {
    // TRIANGLESADDED: mapped_topology_follow.cpp's BorderAdded for Triangle2Edge.
    MappedTopology& m = node.mappings[mapping_].mapped;
    auto& loc2glob = m.loc2glob;
    if (live_->glob2loc.size() < input.edges.size()) live_->glob2loc.resize(input.edges.size(), -1);
    to_remove_.clear();
    for (auto t = static_cast<std::size_t>(first_added); t < input.triangles.size(); ++t)
      for (const Index face : shells.EdgesInTriangle(static_cast<Index>(t))) {
        const std::size_t shell = shells.TrianglesAroundEdge(face).size();
        if (At(face) >= 0) {
          if (shell != 1) to_remove_.push_back(face);
        } else if (shell <= 1) {
          AppendEdge(input.edges[static_cast<std::size_t>(face)], rest_points);
          loc2glob.push_back(face);
          At(face) = static_cast<Index>(loc2glob.size()) - 1;
        }
      }
    // FollowAddition's last statement: the output's points are the input's.
    if (live_->topology.points.size() != input.points.size()) live_->topology.points = input.points;
    std::sort(to_remove_.begin(), to_remove_.end(), std::greater<Index>());
    local_.clear();
    for (const Index face : to_remove_) {
      const Index l = At(face);
      if (l < 0) continue;
      At(face) = -1;
      local_.push_back(l);
      // Swapped and popped as each is met (SOFA's; a last one is recorded again).
      const Index last_glob = loc2glob.back();
      loc2glob[static_cast<std::size_t>(l)] = last_glob;
      loc2glob.pop_back();
      At(last_glob) = l;
    }
    // The output's removeEdges: distinct, descending, each slot taking the last edge.
    SortRemovalIds(local_, static_cast<Index>(live_->topology.edges.size()), sorted_, nullptr);
    for (const Index e : sorted_) RemoveEdge(e);
  }

  void Install(Simulation& simulation, ChangingNode& node) override {
    FollowedMapping& mapping = node.mappings[mapping_];
    mapping.live = live_;
    SimulationAccess::ReplaceNodeTopology(simulation, node_path_,
                                          std::shared_ptr<Topology>(live_, &live_->topology));
  }

  // Set up by CreateEdgeChildren.
  std::size_t mapping_ = 0;  // in node.mappings
  std::string node_path_;    // the child node
  std::shared_ptr<LiveMappedOutput> live_;
  std::vector<std::vector<Index>> edges_around_point_;  // the output's
  std::vector<EdgeLoad> loads_;
  Index first_dof_ = 0;
  std::vector<int> lines_;  // the child's components

 private:
  Index& At(Index glob) { return live_->glob2loc[static_cast<std::size_t>(glob)]; }

  // An edge appended to the output, and its loads' six entries.
  void AppendEdge(const std::array<Index, 2>& edge,
                  const std::vector<std::array<double, 3>>& rest_points) {
    const auto e = static_cast<Index>(live_->topology.edges.size());
    live_->topology.edges.push_back(edge);
    for (const Index v : edge) edges_around_point_[static_cast<std::size_t>(v)].push_back(e);
    if (loads_.empty()) return;
    // The rest length as the component computes it (its axes summed in order).
    const auto& a = rest_points[static_cast<std::size_t>(edge[0])];
    const auto& b = rest_points[static_cast<std::size_t>(edge[1])];
    double length2 = 0.0;
    for (std::size_t k = 0; k < 3; ++k) {
      const double u = b[k] - a[k];
      length2 += u * u;
    }
    const double half_length = std::sqrt(length2) / 2;
    for (const EdgeLoad& load : loads_) {
      for (std::size_t end = 0; end < 2; ++end)
        for (std::size_t k = 0; k < 3; ++k) {
          dofs_[end * 3 + k] = first_dof_ + edge[end] * 3 + static_cast<Index>(k);
          values_[end * 3 + k] = load.pressure[k] * half_length;
        }
      load.force->AppendEntries(dofs_, values_);
    }
  }

  // The output's removeEdges of one edge: the last edge moved into its slot (isolated points
  // stay).
  void RemoveEdge(Index e) {
    auto& edges = live_->topology.edges;
    const auto last = static_cast<Index>(edges.size()) - 1;
    for (const Index v : edges[static_cast<std::size_t>(e)]) Forget(v, e);
    if (e != last) {
      for (const Index v : edges.back()) {
        auto& around = edges_around_point_[static_cast<std::size_t>(v)];
        std::replace(around.begin(), around.end(), last, e);
      }
      edges[static_cast<std::size_t>(e)] = edges.back();
    }
    edges.pop_back();
    for (const EdgeLoad& load : loads_) load.force->MoveLastEntriesInto(6 * e, 6);
  }

  void Forget(Index v, Index e) {
    auto& around = edges_around_point_[static_cast<std::size_t>(v)];
    const auto found = std::find(around.begin(), around.end(), e);
    if (found != around.end()) {
      *found = around.back();
      around.pop_back();
    }
  }

  // Point `removed` takes point `moved` (the last), renamed in the output's edges and loads.
  void MovePoint(Index removed, Index moved, bool points_follow) {
    auto& points = live_->topology.points;
    if (removed != moved) {
      auto& edges = live_->topology.edges;
      for (const Index e : edges_around_point_[static_cast<std::size_t>(moved)]) {
        auto& edge = edges[static_cast<std::size_t>(e)];
        for (Index& v : edge)
          if (v == moved) v = removed;
        for (const EdgeLoad& load : loads_)
          for (std::size_t end = 0; end < 2; ++end) {
            for (std::size_t k = 0; k < 3; ++k)
              dofs_[k] = first_dof_ + edge[end] * 3 + static_cast<Index>(k);
            load.force->SetDofs(static_cast<std::size_t>(6 * e) + 3 * end,
                                std::span<const Index>(dofs_.data(), 3));
          }
      }
      std::swap(edges_around_point_[static_cast<std::size_t>(removed)],
                edges_around_point_[static_cast<std::size_t>(moved)]);
      edges_around_point_[static_cast<std::size_t>(moved)].clear();
      if (points_follow)
        points[static_cast<std::size_t>(removed)] = points[static_cast<std::size_t>(moved)];
    }
    if (points_follow) points.pop_back();
  }

  std::size_t input_edges_ = 0;
  std::vector<Index> tab_, to_remove_, local_, sorted_;
  std::array<Index, 6> dofs_{};
  std::array<double, 6> values_{};
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

// The EdgePressureForceField `element` as this follow takes it: a constant pressure on the
// child's own edges through a link to them (the rebuild reads the link again), or why not.
std::optional<std::array<double, 3>> EdgePressureOf(const ElementDescription& element,
                                                    const std::string& container,
                                                    std::string& why) {
  const AttributeText* edges = element.Find("edges");
  const std::string expected = "@" + container + ".edges";
  if (edges == nullptr ||
      (edges->value != expected && edges->value != "@./" + container + ".edges")) {
    why =
        "is not given its edges as '" + expected + "' (the output's edges, read again by a build)";
    return std::nullopt;
  }
  // (`p_intensity` and `binormal` act only with a zero pressure, which is refused below.)
  for (const char* other : {"edgeIndices", "dmin", "dmax", "topology"})
    if (element.Find(other) != nullptr) {
      why = std::string("is given '") + other + "'";
      return std::nullopt;
    }
  const AttributeText* pressure = element.Find("pressure");
  const std::vector<std::string_view> words =
      pressure != nullptr ? SplitWords(pressure->value) : std::vector<std::string_view>{};
  std::array<double, 3> value = {0, 0, 0};
  for (std::size_t k = 0; k < words.size() && k < 3; ++k) {
    const std::optional<double> read = ParseReal(words[k]);
    if (!read) break;
    value[k] = *read;
  }
  if (words.size() != 3 || (value[0] == 0 && value[1] == 0 && value[2] == 0)) {
    why = "is not given a constant pressure (three numbers, not all zero)";
    return std::nullopt;
  }
  return value;
}

// The follower of mapping `m` of `node`, or null with `why` set.
std::unique_ptr<Triangle2EdgeChild> CreateChild(Simulation& simulation, ChangingNode& node,
                                                const SceneDescription& scene, std::size_t m,
                                                AssembledSystem& system, Index first_dof,
                                                std::string& why) {
  FollowedMapping& mapping = node.mappings[m];
  const std::string child = NodeOfLine(node, mapping.topology_line);
  if (mapping.mapped.rule != TopologyMappingRule::kTriangle2Edge) {
    why = "the topological mapping of node '" + child + "' is not a Triangle2Edge one";
    return nullptr;
  }
  auto follower = std::make_unique<Triangle2EdgeChild>();
  follower->mapping_ = m;
  follower->node_path_ = child;
  follower->first_dof_ = first_dof;
  const Topology& output = mapping.mapped.topology;
  const Topology* reported = SimulationAccess::NodeTopology(simulation, child);
  if (reported != nullptr &&
      (reported->edges != output.edges || !reported->triangles.empty() ||
       (!reported->points.empty() && reported->points.size() != output.points.size()))) {
    why = "the topology of node '" + child + "' is not its mapping's output as followed";
    return nullptr;
  }
  std::string container;
  for (const NodeComponent& c : node.components)
    if (c.line == mapping.topology_line) container = c.name;
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
    if (own && c.kind == ComponentKind::kTopologicalMapping) continue;
    if (c.kind == ComponentKind::kMapping &&
        std::find(object_nodes.begin(), object_nodes.end(), c.node_path) == object_nodes.end())
      continue;  // a visual model's mapping: nothing mechanical follows it
    if (c.type == "EdgePressureForceField" && own && node.dimension == 3) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr) return refuse(c, "is not found in the scene");
      std::string refusal;
      const std::optional<std::array<double, 3>> pressure =
          EdgePressureOf(*element, container, refusal);
      if (!pressure) return refuse(c, refusal);
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      const int index = sources == 1 ? system.FieldIndex(field) : -1;
      auto* force =
          index >= 0
              ? dynamic_cast<ConstantForce*>(&system.MutableField(static_cast<std::size_t>(index)))
              : nullptr;
      if (force == nullptr || force->weight() != nullptr)
        return refuse(c, "is not one constant load of the node's system");
      follower->loads_.push_back({force, static_cast<std::size_t>(index), *pressure});
      continue;
    }
    return refuse(c, "below the mapped node '" + child + "' does not follow a change in place");
  }
  const std::size_t points = node.topology->points.size();
  for (const auto& edge : output.edges)
    for (const Index v : edge)
      if (v < 0 || static_cast<std::size_t>(v) >= points) {
        why = "an edge of node '" + child + "' is not on its input's points";
        return nullptr;
      }
  // The loads must be what the follow lays again: each output edge's six entries in order.
  const Vector& rest = node.rest_position;
  for (const EdgeLoad& load : follower->loads_) {
    bool same = load.force->dofs().size() == 6 * output.edges.size();
    for (std::size_t e = 0; same && e < output.edges.size(); ++e) {
      const auto& edge = output.edges[e];
      double length2 = 0.0;
      for (int a = 0; a < 3; ++a) {
        const double u = rest[edge[1] * 3 + a] - rest[edge[0] * 3 + a];
        length2 += u * u;
      }
      const double half_length = std::sqrt(length2) / 2;
      for (std::size_t end = 0; same && end < 2; ++end)
        for (std::size_t k = 0; same && k < 3; ++k)
          same = load.force->dofs()[6 * e + 3 * end + k] ==
                     first_dof + edge[end] * 3 + static_cast<Index>(k) &&
                 load.force->values()[6 * e + 3 * end + k] == load.pressure[k] * half_length;
    }
    if (!same) {
      why = "the EdgePressureForceField of node '" + child +
            "' does not press its output's edges in order";
      return nullptr;
    }
  }
  // Room for the most the output can have (every input edge; more only after additions).
  const std::size_t max_edges = std::max(output.edges.size(), node.topology->edges.size());
  follower->live_ = std::make_shared<LiveMappedOutput>();
  follower->live_->topology = output;
  follower->live_->topology.edges.reserve(max_edges);
  follower->live_->glob2loc.assign(node.topology->edges.size(), -1);
  for (const auto& [glob, loc] : mapping.mapped.glob2loc) {
    if (glob < 0 || static_cast<std::size_t>(glob) >= node.topology->edges.size()) {
      why = "the mapping of node '" + child + "' records an edge past its input's";
      return nullptr;
    }
    follower->live_->glob2loc[static_cast<std::size_t>(glob)] = loc;
  }
  mapping.mapped.loc2glob.reserve(max_edges);
  follower->edges_around_point_.resize(points);
  for (std::size_t e = 0; e < output.edges.size(); ++e)
    for (const Index v : output.edges[e])
      follower->edges_around_point_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(e));
  for (const EdgeLoad& load : follower->loads_) load.force->ReserveEntries(6 * max_edges);
  return follower;
}

}  // namespace

std::vector<std::unique_ptr<EdgeChildInPlace>> CreateEdgeChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, std::string& why) {
  std::vector<std::unique_ptr<EdgeChildInPlace>> children;
  for (std::size_t m = 0; m < node.mappings.size(); ++m) {
    std::unique_ptr<Triangle2EdgeChild> child =
        CreateChild(simulation, node, scene, m, system, first_dof, why);
    if (!child) return {};
    children.push_back(std::move(child));
  }
  return children;
}

}  // namespace fluxion::internal
