// A Tetra2Triangle child followed in place (see the header).
#include "build/mapped_child_in_place.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>

#include "build/in_place_points.h"
#include "build/in_place_triangle_pressure.h"
#include "mechanics/assembled_system.h"
#include "mechanics/surface_shells.h"
#include "mechanics/triangle_shells.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// The faces of a tetrahedron as Tetra2TriangleTopologicalMapping orients an uncovered one: face
// j of the neighbour (opposite its vertex j), mechanics/mapped_topology_follow.cpp's table.
constexpr std::array<std::array<int, 3>, 4> kOrientation = {
    {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};

class Tetra2TriangleChild final : public MappedChildInPlace {
 public:
  bool Claims(int line) const override {
    return std::find(lines_.begin(), lines_.end(), line) != lines_.end();
  }

  bool Follows(std::size_t index) const override { return pressures_.Follows(index); }

  void BeforeRemoval(ChangingNode& node, const Topology& input, const TetrahedronShells& shells,
                     std::span<const Index> ids) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    Topology& surface = live_->topology;
    input_triangles_ = input.triangles.size();
    SortRemovalIds(ids, static_cast<Index>(input.tetrahedra.size()), tab_, nullptr);
    if (!m.no_new_triangles) {
      for (std::size_t i = 0; i < tab_.size(); ++i) {
        const Index id = tab_[i];
        for (const Index face : shells.TrianglesInTetrahedron(id)) {
          const std::vector<Index>& shell = shells.TetrahedraAroundTriangle(face);
          if (shell.size() != 2) continue;
          const Index other = id == shell[0] ? shell[1] : shell[0];
          if (std::find(tab_.begin(), tab_.begin() + static_cast<std::ptrdiff_t>(i), other) !=
              tab_.begin() + static_cast<std::ptrdiff_t>(i))
            continue;
          const std::array<Index, 4>& faces_of_other = shells.TrianglesInTetrahedron(other);
          const auto position = static_cast<std::size_t>(
              std::find(faces_of_other.begin(), faces_of_other.end(), face) -
              faces_of_other.begin());
          const auto& tetrahedron = input.tetrahedra[static_cast<std::size_t>(other)];
          std::array<Index, 3> triangle{};
          for (std::size_t j = 0; j < 3; ++j)
            triangle[j] = tetrahedron[static_cast<std::size_t>(kOrientation[position][j])];
          if (m.flip_normals) std::swap(triangle[1], triangle[2]);
          while (triangle[0] > triangle[1] || triangle[0] > triangle[2])
            triangle = {triangle[1], triangle[2], triangle[0]};
          surface_shells_->Add(surface, triangle);
          m.loc2glob.push_back(face);
          live_->glob2loc[static_cast<std::size_t>(face)] =
              static_cast<Index>(m.loc2glob.size()) - 1;
        }
      }
    }
    // The pressure's subset counts the created triangles (SOFA's TopologySubsetData::add moves
    // its last index on without adding entries).
    pressures_.BeforeRemoval(surface);
  }

  void AfterRemoval(ChangingNode& node, const TetrahedronRemoval& done) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    Topology& surface = live_->topology;
    // TRIANGLESREMOVED: mapped_topology_follow.cpp's Tetra2TriangleTrianglesRemoved, SOFA's
    // statements, on the live surface, Glob2LocMap as a vector (every index below the input's
    // triangle count before the removal).
    const auto at = [&](Index glob) -> Index& {
      return live_->glob2loc[static_cast<std::size_t>(glob)];
    };
    auto& loc2glob = m.loc2glob;
    const std::vector<Index>& tab = done.removed_triangles;
    child_.removed_triangles.clear();
    for (const Index glob : tab)
      if (at(glob) >= 0) child_.removed_triangles.push_back(at(glob));
    std::sort(child_.removed_triangles.begin(), child_.removed_triangles.end(),
              std::greater<Index>());
    Index last_glob = static_cast<Index>(input_triangles_) - 1;
    const Index glob_count = static_cast<Index>(input_triangles_) - static_cast<Index>(tab.size());
    const Index loc_count = static_cast<Index>(surface.triangles.size()) -
                            static_cast<Index>(child_.removed_triangles.size());
    for (const Index old_glob : tab) {
      if (at(last_glob) >= 0) {
        const Index last_loc = at(last_glob);
        at(old_glob) = last_loc;
        if (last_loc < static_cast<Index>(loc2glob.size()))
          loc2glob[static_cast<std::size_t>(last_loc)] = old_glob;
        at(last_glob) = -1;
      } else {
        at(old_glob) = -1;
      }
      --last_glob;
    }
    for (const Index old_loc : child_.removed_triangles) {
      const Index new_glob = loc2glob.back();
      loc2glob[static_cast<std::size_t>(old_loc)] = new_glob;
      if (new_glob < glob_count && old_loc < loc_count) at(new_glob) = old_loc;
      loc2glob.pop_back();
    }
    surface_shells_->Remove(surface, child_.removed_triangles);
    // POINTSREMOVED: the surface's points follow the input's, one by one.
    for (std::size_t i = 0; i < done.removed_points.size(); ++i)
      surface_shells_->MovePoint(surface, done.removed_points[i], done.moved_points[i]);
    child_.removed_points.assign(done.removed_points.begin(), done.removed_points.end());
    pressures_.AfterRemoval(surface, child_, node.triangle_lists);
  }

  void Install(Simulation& simulation, ChangingNode& node) override {
    FollowedMapping& mapping = node.mappings[mapping_];
    mapping.live = live_;
    // The simulation shares the live surface (its part of live_).
    SimulationAccess::ReplaceNodeTopology(simulation, node_path_,
                                          std::shared_ptr<Topology>(live_, &live_->topology));
  }

  // Set up by CreateMappedChildren.
  std::size_t mapping_ = 0;  // in node.mappings
  std::string node_path_;    // the child node
  std::shared_ptr<LiveMappedOutput> live_;
  std::optional<SurfaceShells> surface_shells_;
  InPlaceTrianglePressure pressures_;
  std::vector<int> lines_;  // the child's components

 private:
  std::size_t input_triangles_ = 0;
  std::vector<Index> tab_;  // the removed tetrahedra, descending (the event's list)
  ShellRemoval child_;      // the surface's removal, as the pressure follows it
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

// The follower of mapping `m` of `node`, or null with `why` set.
std::unique_ptr<Tetra2TriangleChild> CreateChild(Simulation& simulation, ChangingNode& node,
                                                 std::size_t m, AssembledSystem& system,
                                                 Index first_dof, std::string& why) {
  FollowedMapping& mapping = node.mappings[m];
  const std::string child = NodeOfLine(node, mapping.topology_line);
  if (mapping.mapped.rule != TopologyMappingRule::kTetra2Triangle) {
    why = "the topological mapping of node '" + child + "' is not a Tetra2Triangle one";
    return nullptr;
  }
  auto follower = std::make_unique<Tetra2TriangleChild>();
  follower->mapping_ = m;
  follower->node_path_ = child;
  const Topology& surface = mapping.mapped.topology;
  // What NodeTopologies reports for the child: the output as the stage follows it.
  const Topology* reported = SimulationAccess::NodeTopology(simulation, child);
  if (reported != nullptr &&
      (reported->triangles != surface.triangles || reported->edges != surface.edges ||
       (!reported->points.empty() && reported->points.size() != surface.points.size()))) {
    why = "the topology of node '" + child + "' is not its mapping's output as followed";
    return nullptr;
  }
  // The nodes below the child with a mechanical object of their own.
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
    if (c.type == "TrianglePressureForceField" && own) {
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
                                    surface, first_dof, refusal))
        return refuse(c, refusal.empty() ? "is not one load of the node" : refusal);
      continue;
    }
    return refuse(c, "below the mapped node '" + child + "' does not follow a change in place");
  }
  const std::size_t max_triangles =
      std::max(surface.triangles.size(), node.topology->triangles.size());
  const std::size_t max_edges = std::max(surface.edges.size(), node.topology->edges.size());
  follower->surface_shells_ = SurfaceShells::Build(surface, max_triangles, max_edges);
  if (!follower->surface_shells_) {
    why = "the triangles of node '" + child + "' do not have their sides among its edges";
    return nullptr;
  }
  follower->live_ = std::make_shared<LiveMappedOutput>();
  follower->live_->topology = surface;
  follower->live_->topology.triangles.reserve(max_triangles);
  follower->live_->topology.edges.reserve(max_edges);
  follower->live_->glob2loc.assign(node.topology->triangles.size(), -1);
  for (const auto& [glob, loc] : mapping.mapped.glob2loc) {
    if (glob < 0 || static_cast<std::size_t>(glob) >= node.topology->triangles.size()) {
      why = "the mapping of node '" + child + "' records a face past its input's";
      return nullptr;
    }
    follower->live_->glob2loc[static_cast<std::size_t>(glob)] = loc;
  }
  node.mappings[m].mapped.loc2glob.reserve(max_triangles);
  return follower;
}

}  // namespace

std::vector<std::unique_ptr<MappedChildInPlace>> CreateMappedChildren(Simulation& simulation,
                                                                      ChangingNode& node,
                                                                      AssembledSystem& system,
                                                                      Index first_dof,
                                                                      std::string& why) {
  std::vector<std::unique_ptr<MappedChildInPlace>> children;
  for (std::size_t m = 0; m < node.mappings.size(); ++m) {
    std::unique_ptr<Tetra2TriangleChild> child =
        CreateChild(simulation, node, m, system, first_dof, why);
    if (!child) return {};
    children.push_back(std::move(child));
  }
  return children;
}

}  // namespace fluxion::internal
