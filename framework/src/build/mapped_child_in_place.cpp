// A Tetra2Triangle child followed in place (see the header).
#include "build/mapped_child_in_place.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <utility>

#include "build/in_place_bending_springs.h"
#include "build/in_place_collision.h"
#include "build/in_place_membranes.h"
#include "build/in_place_points.h"
#include "build/in_place_triangle_pressure.h"
#include "fluxion/errors.h"
#include "mechanics/assembled_system.h"
#include "mechanics/spring_force_field.h"
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

  bool Follows(std::size_t index) const override {
    return pressures_.Follows(index) || membranes_.Follows(index) ||
           (bending_ != nullptr && index == bending_index_);
  }

  bool PlanRemoval(const ChangingNode& node, const Topology& input, const TetrahedronShells& shells,
                   std::span<const Index> ids, bool frees_points, std::string& why) override {
    if (const char* refusal = Refusal(); refusal != nullptr) {
      why = refusal;
      return false;
    }
    if (frees_points && surface_shells_->has_bare_edges()) {
      why = "the removal frees points and the surface of node '" + node_path_ +
            "' has edges in no triangle (copied from its input's additions)";
      return false;
    }
    const MappedTopology& m = node.mappings[mapping_].mapped;
    input_triangles_ = input.triangles.size();
    SortRemovalIds(ids, static_cast<Index>(input.tetrahedra.size()), tab_, nullptr);
    planned_.clear();
    planned_faces_.clear();
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
          planned_.push_back(triangle);
          planned_faces_.push_back(face);
        }
      }
    }
    // The membranes' elements of the uncovered faces (SOFA's creation callback), before anything
    // changes: a flat one leaves everything as it was.
    return membranes_.Prepare(planned_, node.rest_position, why);
  }

  void BeforeRemoval(ChangingNode& node) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    Topology& surface = live_->topology;
    for (std::size_t k = 0; k < planned_.size(); ++k) {
      surface_shells_->Add(surface, planned_[k]);
      m.loc2glob.push_back(planned_faces_[k]);
      live_->glob2loc[static_cast<std::size_t>(planned_faces_[k])] =
          static_cast<Index>(m.loc2glob.size()) - 1;
    }
    membranes_.Append();
    // The pressure's subset counts the created triangles (SOFA's TopologySubsetData::add moves
    // its last index on without adding entries).
    pressures_.BeforeRemoval(surface);
  }

  void AfterRemoval(Simulation& simulation, ChangingNode& node,
                    const TetrahedronRemoval& done) override {
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
    membranes_.Remove(child_.removed_triangles);
    // POINTSREMOVED: the surface's points follow the input's, one by one; then the membranes'
    // elements on the points that took another's number are renamed (their triangles' vertices
    // as they are now).
    for (std::size_t i = 0; i < done.removed_points.size(); ++i)
      surface_shells_->MovePoint(surface, done.removed_points[i], done.moved_points[i]);
    if (!membranes_.empty())
      for (std::size_t i = 0; i < done.removed_points.size(); ++i) {
        const Index p = done.removed_points[i];
        if (p == done.moved_points[i] || p >= static_cast<Index>(surface.points.size())) continue;
        membranes_.Rename(surface, surface_shells_->TrianglesAroundVertex(p));
      }
    child_.removed_points.assign(done.removed_points.begin(), done.removed_points.end());
    pressures_.AfterRemoval(surface, child_, node.triangle_lists);
    FollowSurface(simulation);
  }

  bool PlanAddition(const ChangingNode& node, std::span<const Index> vertices,
                    std::string& why) override {
    if (const char* refusal = Refusal(); refusal != nullptr) {
      why = refusal;
      return false;
    }
    if (!pressures_.empty()) {
      why = "a TrianglePressureForceField on the surface of node '" + node_path_ +
            "' would follow an addition (the rebuild renames its list)";
      return false;
    }
    if (membranes_.empty() || node.mappings[mapping_].mapped.no_new_triangles) return true;
    // Every face of every new tetrahedron, as the input's modifier would create it: the faces
    // the surface gains are among them (an existing face, the same three points in another
    // order, has the same area).
    const auto points = static_cast<Index>(node.rest_position.size() / 3);
    planned_.clear();
    for (std::size_t k = 0; k + 4 <= vertices.size(); k += 4)
      for (const auto& face : kOrientation) {
        std::array<Index, 3> triangle{};
        for (std::size_t j = 0; j < 3; ++j) {
          triangle[j] = vertices[k + static_cast<std::size_t>(face[j])];
          if (triangle[j] < 0 || triangle[j] >= points) return true;  // the input refuses it
        }
        planned_.push_back(triangle);
      }
    return membranes_.Prepare(planned_, node.rest_position, why);
  }

  void AfterAddition(Simulation& simulation, ChangingNode& node, const Topology& input,
                     const TetrahedronShells& shells, const ShellAddition& done) override {
    MappedTopology& m = node.mappings[mapping_].mapped;
    Topology& surface = live_->topology;
    // EDGESADDED: the input's new edges, in their order, appended to the surface's.
    for (const Index e : done.created_edges)
      surface_shells_->AddEdge(surface, input.edges[static_cast<std::size_t>(e)]);
    if (!m.no_new_triangles) {
      // TETRAHEDRAADDED: mapped_topology_follow.cpp's BorderAdded (Tetra2Triangle), Glob2LocMap
      // as a vector grown with the input's triangles.
      live_->glob2loc.resize(input.triangles.size(), -1);
      const auto at = [&](Index glob) -> Index& {
        return live_->glob2loc[static_cast<std::size_t>(glob)];
      };
      planned_.clear();
      to_remove_.clear();
      for (Index t = done.first_added; t < done.first_added + done.added; ++t)
        for (const Index face : shells.TrianglesInTetrahedron(t)) {
          const std::size_t shell = shells.TetrahedraAroundTriangle(face).size();
          if (at(face) >= 0) {
            if (shell != 1) to_remove_.push_back(face);
          } else if (shell <= 1) {
            planned_.push_back(input.triangles[static_cast<std::size_t>(face)]);
            m.loc2glob.push_back(face);
            at(face) = static_cast<Index>(m.loc2glob.size()) - 1;
          }
        }
      for (const auto& triangle : planned_) surface_shells_->Add(surface, triangle);
      if (!membranes_.empty()) {
        std::string why;
        if (!membranes_.Prepare(planned_, node.rest_position, why))
          throw ConfigError("", "the surface of node '" + node_path_ + "': " + why);
        membranes_.Append();
      }
      local_.clear();
      for (const Index face : to_remove_) {
        if (at(face) < 0) continue;
        local_.push_back(at(face));
        at(face) = -1;
      }
      std::sort(local_.begin(), local_.end(), std::greater<Index>());
      for (const Index loc : local_) {
        const Index last_glob = m.loc2glob.back();
        m.loc2glob[static_cast<std::size_t>(loc)] = last_glob;
        m.loc2glob.pop_back();
        at(last_glob) = loc;
      }
      local_.erase(std::unique(local_.begin(), local_.end()), local_.end());
      surface_shells_->Remove(surface, local_);
      membranes_.Remove(local_);
    }
    FollowSurface(simulation);
  }

  void Install(Simulation& simulation, ChangingNode& node) override {
    FollowedMapping& mapping = node.mappings[mapping_];
    mapping.live = live_;
    // The simulation shares the live surface (its part of live_).
    const std::shared_ptr<Topology> surface(live_, &live_->topology);
    SimulationAccess::ReplaceNodeTopology(simulation, node_path_, surface);
    membranes_.Publish(surface);
  }

  // Set up by CreateMappedChildren.
  std::size_t mapping_ = 0;  // in node.mappings
  std::string node_path_;    // the child node
  std::shared_ptr<LiveMappedOutput> live_;
  std::optional<SurfaceShells> surface_shells_;
  InPlaceTrianglePressure pressures_;
  InPlaceMembranes membranes_;
  InPlaceCollisionModels collisions_;
  SpringForceField* bending_ = nullptr;  // TriangularBendingSprings on the surface
  std::size_t bending_index_ = 0;        // in the system
  double bending_stiffness_ = 0.0, bending_damping_ = 0.0;
  std::vector<PackedSpring> bending_scratch_;
  AssembledSystem* system_ = nullptr;
  Index first_dof_ = 0;
  const std::vector<std::array<double, 3>>* rest_points_ = nullptr;  // the follower's
  std::vector<int> lines_;                                           // the child's components

  // The bending springs of the surface now (BendingSpringsOf) into bending_scratch_.
  void SurfaceBendingSprings(const std::vector<std::array<double, 3>>& rest_points) {
    const std::vector<PackedSpring>& now = bending_->springs();
    const double stiffness = now.empty() ? bending_stiffness_ : now.front().stiffness;
    const double damping = now.empty() ? bending_damping_ : now.front().damping;
    BendingSpringsOf(live_->topology, *surface_shells_, rest_points, first_dof_, 3, stiffness,
                     damping, bending_scratch_);
  }

 private:
  // Why no change can be followed now (null when it can).
  const char* Refusal() const {
    if ((!membranes_.empty() || bending_ != nullptr) && system_->has_matrix_layout())
      return "the system's matrix pattern is built (a direct linear solver) and holds the entries "
             "of a membrane or bending springs on a mapped surface";
    return nullptr;
  }

  // What reads the surface after it changed: the bending springs, written again (their capacity
  // grown, amortised, when an addition gave the surface more edges than ever), and the
  // collision models.
  void FollowSurface(Simulation& simulation) {
    if (bending_ != nullptr) {
      const std::size_t edges = live_->topology.edges.size();
      if (bending_scratch_.capacity() < edges) {
        bending_scratch_.reserve(2 * edges);
        bending_->ReserveSprings(2 * edges);
      }
      SurfaceBendingSprings(*rest_points_);
      bending_->AssignSprings(bending_scratch_);
    }
    collisions_.Follow(simulation, live_->topology);
  }

  std::size_t input_triangles_ = 0;
  std::vector<Index> tab_;  // the removed tetrahedra, descending (the event's list)
  // The triangles a change appends to the surface (and, for a removal, their input faces).
  std::vector<std::array<Index, 3>> planned_;
  std::vector<Index> planned_faces_, to_remove_, local_;
  ShellRemoval child_;  // the surface's removal, as the pressure follows it
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
std::unique_ptr<Tetra2TriangleChild> CreateChild(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene, std::size_t m,
    AssembledSystem& system, Index first_dof, const std::vector<std::array<double, 3>>& rest_points,
    std::string& why) {
  FollowedMapping& mapping = node.mappings[m];
  const std::string child = NodeOfLine(node, mapping.topology_line);
  if (mapping.mapped.rule != TopologyMappingRule::kTetra2Triangle) {
    why = "the topological mapping of node '" + child + "' is not a Tetra2Triangle one";
    return nullptr;
  }
  auto follower = std::make_unique<Tetra2TriangleChild>();
  follower->mapping_ = m;
  follower->node_path_ = child;
  follower->system_ = &system;
  follower->first_dof_ = first_dof;
  follower->rest_points_ = &rest_points;
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
    if ((c.type == "TriangularFEMForceField" || c.type == "TriangularFEMForceFieldOptim") && own) {
      if (node.dimension != 3) return refuse(c, "is not on a Vec3 object");
      const std::string refusal = follower->membranes_.Add(
          simulation, system, path, FindElementAt(scene.root, c.line), surface, first_dof);
      if (!refusal.empty()) return refuse(c, refusal);
      continue;
    }
    if (c.type == "TriangularBendingSprings" && own && follower->bending_ == nullptr) {
      const ElementDescription* element = FindElementAt(scene.root, c.line);
      if (element == nullptr || element->Find("topology") != nullptr)
        return refuse(c, "is given a topology link");
      int sources = 0;
      const ForceField* field = FieldOf(simulation, path, sources);
      const int index = sources == 1 ? system.FieldIndex(field) : -1;
      auto* springs = index >= 0 ? dynamic_cast<SpringForceField*>(
                                       &system.MutableField(static_cast<std::size_t>(index)))
                                 : nullptr;
      if (node.dimension != 3 || springs == nullptr || springs->springs().empty())
        return refuse(c,
                      "is not one spring field with springs at the load (the surface may gain "
                      "interior edges)");
      follower->bending_ = springs;
      follower->bending_index_ = static_cast<std::size_t>(index);
      follower->bending_stiffness_ = springs->springs().front().stiffness;
      follower->bending_damping_ = springs->springs().front().damping;
      continue;
    }
    if (c.kind == ComponentKind::kCollisionModel && own) {
      if (std::string refusal = follower->collisions_.Add(simulation, node, c, surface);
          !refusal.empty()) {
        why = std::move(refusal);
        return nullptr;
      }
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
  if (follower->bending_ != nullptr) {
    // The springs must be those the follow computes again (their ends either way round), on the
    // object's rest positions.
    std::vector<std::array<double, 3>> rest(node.rest_position.size() / 3);
    for (std::size_t i = 0; i < rest.size(); ++i)
      for (std::size_t a = 0; a < 3; ++a)
        rest[i][a] = node.rest_position[static_cast<Index>(3 * i + a)];
    follower->bending_scratch_.reserve(max_edges);
    follower->SurfaceBendingSprings(rest);
    if (!SameBendingSprings(follower->bending_->springs(), follower->bending_scratch_)) {
      why = "TriangularBendingSprings on node '" + child +
            "': its springs are not the surface's interior edges' in order";
      return nullptr;
    }
    follower->bending_->ReserveSprings(max_edges);
  }
  return follower;
}

}  // namespace

std::vector<std::unique_ptr<MappedChildInPlace>> CreateMappedChildren(
    Simulation& simulation, ChangingNode& node, const SceneDescription& scene,
    AssembledSystem& system, Index first_dof, const std::vector<std::array<double, 3>>& rest_points,
    std::string& why) {
  std::vector<std::unique_ptr<MappedChildInPlace>> children;
  for (std::size_t m = 0; m < node.mappings.size(); ++m) {
    std::unique_ptr<Tetra2TriangleChild> child =
        CreateChild(simulation, node, scene, m, system, first_dof, rest_points, why);
    if (!child) return {};
    children.push_back(std::move(child));
  }
  return children;
}

}  // namespace fluxion::internal
