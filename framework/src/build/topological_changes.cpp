// Reading TopologicalChangeProcessor components (sources in the header). Their file is checked
// whole at build, so that a bad line is one `FILE:LINE:` error before the run and never a
// surprise at the step where SOFA would have read it.
#include "build/topological_changes.h"

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <string_view>

#include "build/component_build_context.h"
#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "mechanics/lumped_mass.h"

namespace fluxion::internal {

namespace {

constexpr const char* kProcessor = "TopologicalChangeProcessor";

// The components that follow a removal by being built again from the reduced topology (their
// SOFA handlers give what a build from the reduced mesh gives: docs/architecture.md), and those
// whose index lists are renumbered as SOFA's TopologySubsetIndices are. Any other component in
// the changing node or below is refused rather than left with stale indices.
const std::set<std::string, std::less<>> kRebuiltTypes = {"PointSetTopologyContainer",
                                                          "EdgeSetTopologyContainer",
                                                          "TriangleSetTopologyContainer",
                                                          "QuadSetTopologyContainer",
                                                          "TetrahedronSetTopologyContainer",
                                                          "HexahedronSetTopologyContainer",
                                                          "MechanicalObject",
                                                          "MeshGmshLoader",
                                                          "MeshOBJLoader",
                                                          "MeshObjLoader",
                                                          "MeshVTKLoader",
                                                          "DiagonalMass",
                                                          "MeshSpringForceField",
                                                          "TriangularBendingSprings",
                                                          "QuadularBendingSprings",
                                                          "TriangularFEMForceField",
                                                          "TriangularFEMForceFieldOptim",
                                                          "TetrahedronFEMForceField",
                                                          "TetrahedralCorotationalFEMForceField",
                                                          "HexahedronFEMForceField",
                                                          "HexahedralFEMForceField",
                                                          "EdgePressureForceField",
                                                          "TriangularQuadraticSpringsForceField",
                                                          "TriangularBiquadraticSpringsForceField",
                                                          "FixedPlaneProjectiveConstraint",
                                                          "BoxConstraint",
                                                          "UniformMass",
                                                          "BoxROI",
                                                          kProcessor};

// The dynamic containers a processor changes: the elements its REMOVE= lines name (SOFA's
// removeItems of the container's modifier), the modifier that must sit beside it, and the
// processor's data list for them.
struct ContainerKind {
  const char* container;
  const char* modifier;
  const char* data_list;
  TopologyLevel level;
};
constexpr std::array<ContainerKind, 6> kContainers = {{
    {"PointSetTopologyContainer", "PointSetTopologyModifier", "pointsToRemove",
     TopologyLevel::kPoint},
    {"EdgeSetTopologyContainer", "EdgeSetTopologyModifier", "edgesToRemove", TopologyLevel::kEdge},
    {"TriangleSetTopologyContainer", "TriangleSetTopologyModifier", "trianglesToRemove",
     TopologyLevel::kTriangle},
    {"QuadSetTopologyContainer", "QuadSetTopologyModifier", "quadsToRemove", TopologyLevel::kQuad},
    {"TetrahedronSetTopologyContainer", "TetrahedronSetTopologyModifier", "tetrahedraToRemove",
     TopologyLevel::kTetrahedron},
    {"HexahedronSetTopologyContainer", "HexahedronSetTopologyModifier", "hexahedraToRemove",
     TopologyLevel::kHexahedron},
}};

const ContainerKind* FindContainerKind(const Component* topology) {
  if (topology == nullptr || topology->entry == nullptr) return nullptr;
  for (const ContainerKind& kind : kContainers)
    if (topology->entry->spec.name == kind.container) return &kind;
  return nullptr;
}

// The topological mappings whose output follows a change of their input as SOFA's does
// (mechanics/mapped_topology_follow.h), with the input's element level they read.
struct MappingKind {
  const char* type;
  TopologyMappingRule rule;
  TopologyLevel input;
};
constexpr std::array<MappingKind, 4> kMappings = {{
    {"Quad2TriangleTopologicalMapping", TopologyMappingRule::kQuad2Triangle, TopologyLevel::kQuad},
    {"Hexa2QuadTopologicalMapping", TopologyMappingRule::kHexa2Quad, TopologyLevel::kHexahedron},
    {"Tetra2TriangleTopologicalMapping", TopologyMappingRule::kTetra2Triangle,
     TopologyLevel::kTetrahedron},
    {"Triangle2EdgeTopologicalMapping", TopologyMappingRule::kTriangle2Edge,
     TopologyLevel::kTriangle},
}};
const std::set<std::string, std::less<>> kIndexListTypes = {
    "FixedProjectiveConstraint",          "FixedConstraint",
    "AffineMovementProjectiveConstraint", "LinearMovementProjectiveConstraint",
    "PlaneProjectiveConstraint",          "LineProjectiveConstraint",
    "PointProjectiveConstraint",          "PartialFixedProjectiveConstraint",
    "DirectionProjectiveConstraint"};

// Kinds that hold nothing indexed by points (solvers, visual and ignored companions such as
// TriangleSetTopologyModifier, collision models, which read the rebuilt topology).
bool FollowsAnyChange(ComponentKind kind) {
  return kind == ComponentKind::kIgnored || kind == ComponentKind::kOdeSolver ||
         kind == ComponentKind::kLinearSolver || kind == ComponentKind::kCollisionModel ||
         kind == ComponentKind::kCollisionPipeline || kind == ComponentKind::kContext ||
         kind == ComponentKind::kLoader;
}

// SOFA's readDataFile reads with std::getline: the lines, and a last empty one after a final
// newline.
std::vector<std::string> SplitLines(const std::string& bytes) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = bytes.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(bytes.substr(start));
      return lines;
    }
    lines.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
}

// The whole file against the keywords SOFA's processTopologicalChanges acts on. False after
// reporting the first bad line.
bool CheckProcessFile(BuildState& state, const std::string& file,
                      const std::vector<std::string>& lines, const ContainerKind& kind) {
  const auto bad = [&](std::size_t k, const std::string& message) {
    state.problems.InFile(file, static_cast<int>(k) + 1, message);
    return false;
  };
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::vector<std::string_view> words = SplitWords(lines[k]);
    if (words.empty()) continue;
    const std::string_view keyword = words[0];
    if (keyword == "T=") {
      if (words.size() < 2 || !ParseReal(words[1]))
        return bad(k, "'T=' is followed by '" + Shown(words.size() < 2 ? "" : words[1]) +
                          "' (expected a time: T= 0.1)");
    } else if (keyword == "REMOVE=") {
      const std::optional<long> count = words.size() < 2 ? std::nullopt : ParseInteger(words[1]);
      if (!count || *count < 0)
        return bad(k, "'REMOVE=' is followed by '" + Shown(words.size() < 2 ? "" : words[1]) +
                          "' (expected the number of elements: REMOVE= 3, then a line of 3 "
                          "indices)");
      if (k + 1 >= lines.size())
        return bad(k, "'REMOVE= " + std::to_string(*count) +
                          "' is the last line (expected a line of " + std::to_string(*count) +
                          " element indices after it)");
      const std::vector<std::string_view> indices = SplitWords(lines[k + 1]);
      // SOFA's `Sin >> vitems[i]` leaves the elements a short line lacks at 0 (a failed read
      // stores 0): the same here (topology_rebuild.cpp), said once.
      if (static_cast<long>(indices.size()) < *count)
        LogWarn(file + ":" + std::to_string(k + 2) + ": the line has " +
                std::to_string(indices.size()) + " indices and REMOVE= announces " +
                std::to_string(*count) +
                ": the missing ones are read as element 0, as SOFA reads them");
      for (long i = 0; i < std::min<long>(*count, static_cast<long>(indices.size())); ++i) {
        const std::optional<long> index = ParseInteger(indices[static_cast<std::size_t>(i)]);
        if (!index || *index < 0)
          return bad(k + 1, "'" + Shown(indices[static_cast<std::size_t>(i)]) +
                                "' is not an element index (expected whole numbers from 0)");
      }
      ++k;  // the line of indices
    } else if (keyword == "ADD=") {
      // ADD= TYPE N [Ancestors ...], then a line of N elements' vertices.
      const std::string type = words.size() < 2 ? "" : std::string(words[1]);
      if (IsPointsInTriangle(type)) {
        // ADD= PointsInTriangle N, then N records "triangle c0 c1".
        if (kind.level != TopologyLevel::kTriangle)
          return bad(k, "'ADD= " + type + "' adds points in the triangles of a " +
                            "TriangleSetTopologyContainer (expected 'ADD= " +
                            AddedName(kind.level) + " N' for the " + kind.container + ")");
        const std::optional<long> count = words.size() < 3 ? std::nullopt : ParseInteger(words[2]);
        if (!count || *count < 0)
          return bad(k, "'ADD= " + type + "' is followed by '" +
                            Shown(words.size() < 3 ? "" : words[2]) +
                            "' (expected the number of points: ADD= " + type + " 2)");
        const std::vector<std::string_view> values =
            k + 1 < lines.size() ? SplitWords(lines[k + 1]) : std::vector<std::string_view>{};
        if (static_cast<long>(values.size()) < 3 * *count)
          return bad(k + 1, "the line has " + std::to_string(values.size()) +
                                " values (expected 3 per point that ADD= announces: a "
                                "triangle and two barycentric coordinates)");
        for (long i = 0; i < *count; ++i) {
          const std::optional<long> triangle = ParseInteger(values[3 * i]);
          if (!triangle || *triangle < 0 || !ParseReal(values[3 * i + 1]) ||
              !ParseReal(values[3 * i + 2]))
            return bad(k + 1, "point " + std::to_string(i + 1) + " is '" + Shown(values[3 * i]) +
                                  " " + Shown(values[3 * i + 1]) + " " + Shown(values[3 * i + 2]) +
                                  "' (expected a triangle index and two coordinates)");
        }
        ++k;  // the line of points
        continue;
      }
      const std::optional<TopologyLevel> level = AddedLevel(type);
      if (!level || *level != kind.level)
        return bad(k, "'ADD= " + Shown(type) + "' does not add the elements of the " +
                          kind.container + " (expected 'ADD= " + AddedName(kind.level) +
                          " N', or 'ADD= PointsInTriangle N' on triangles)");
      const std::optional<long> count = words.size() < 3 ? std::nullopt : ParseInteger(words[2]);
      if (!count || *count < 0)
        return bad(k, "'ADD= " + type + "' is followed by '" +
                          Shown(words.size() < 3 ? "" : words[2]) +
                          "' (expected the number of elements: ADD= " + type + " 2)");
      const long needed = *count * static_cast<long>(AddedSize(kind.level));
      if (k + 1 >= lines.size())
        return bad(k, "'ADD=' is the last line (expected a line of " + std::to_string(needed) +
                          " vertex indices after it)");
      const std::vector<std::string_view> indices = SplitWords(lines[k + 1]);
      if (static_cast<long>(indices.size()) < needed)
        return bad(k + 1, "the line has " + std::to_string(indices.size()) +
                              " indices (expected the " + std::to_string(needed) +
                              " vertices of the elements that ADD= announces)");
      for (long i = 0; i < needed; ++i) {
        const std::optional<long> index = ParseInteger(indices[static_cast<std::size_t>(i)]);
        if (!index || *index < 0)
          return bad(k + 1, "'" + Shown(indices[static_cast<std::size_t>(i)]) +
                                "' is not a point index (expected whole numbers from 0)");
      }
      ++k;  // the line of vertices
    } else if (keyword == "INCISE=") {
      return bad(k, "'INCISE=' is not supported yet (expected T=, REMOVE= and ADD= lines)");
    } else {
      return bad(k, "'" + Shown(keyword) +
                        "' starts a line (expected T=, REMOVE=, or a line of indices after "
                        "REMOVE=)");
    }
  }
  return true;
}

const Component* FindProcessorNodeTopology(const Node& node) { return node.topology_component; }

// The processor's own fields: what SOFA would read, refused where Fluxion does not follow.
bool ReadProcessor(BuildState& state, const Node& node, const Component& component,
                   const ContainerKind& kind, ProcessorPlan& plan) {
  const Parameters& p = component.parameters;
  const int line = component.element->line;
  const auto refuse = [&](const std::string& message) {
    state.problems.Scene(line, std::string(kProcessor) + " " + message);
    return false;
  };
  plan.line = line;
  plan.node_path = node.path;
  plan.loop = p.flag("loop");
  plan.shift = p.real("shift");
  plan.use_data_inputs = p.flag("useDataInputs");
  plan.time_to_remove = p.real("timeToRemove");
  plan.interval = p.real("interval");
  if (!p.indices("listChanges").empty())
    return refuse("'listChanges' is not supported (expected it empty: SOFA never reads it)");
  if (p.flag("saveIndicesAtInit"))
    return refuse("'saveIndicesAtInit=1' is not supported (incisions only; expected 0)");
  if (p.has_value("topology") && !p.text("topology").empty())
    return refuse("'topology' is not supported (expected the node's own topology)");
  if (plan.use_data_inputs) {
    for (const char* list : {"pointsToRemove", "edgesToRemove", "trianglesToRemove",
                             "quadsToRemove", "tetrahedraToRemove", "hexahedraToRemove"})
      if (list != std::string_view(kind.data_list) && !p.indices(list).empty())
        return refuse(std::string("'") + list + "' is not supported on a " + kind.container +
                      " (expected " + kind.data_list + ", the container's elements)");
    plan.triangles_to_remove = p.indices(kind.data_list);
    const AttributeText* list = component.element->Find(kind.data_list);
    plan.list_linked = list != nullptr && list->value.find('@') != std::string::npos;
    return true;
  }
  const std::string& name = p.text("filename");
  if (name.empty()) return refuse("has no 'filename' (expected a file, or useDataInputs=1)");
  std::string why;
  const std::optional<BuildContext::InputFile> file = state.inputs.Read(name, why);
  if (!file) return refuse(why);
  plan.file = file->path;
  plan.lines = SplitLines(file->bytes);
  return CheckProcessFile(state, plan.file, plan.lines, kind);
}

// A DiagonalMass follows by its density (SOFA's DiagonalMass::applyTriangleDestruction takes
// density × rest area / 3 of each removed triangle from its vertices): given, or computed from a
// total mass as its build does (TopologyMasses). Per-point masses given are refused. False
// after reporting a problem.
bool FollowDiagonalMass(BuildState& state, const Node& node, const Component& c,
                        ChangingNode& changing) {
  const Parameters& p = c.parameters;
  const auto refuse = [&](const std::string& what) {
    state.problems.Scene(c.element->line, "<" + c.element->type + "> " + what +
                                              " in a node whose topology changes is not "
                                              "supported yet (expected massDensity or totalMass)");
    return false;
  };
  if (p.has("topology") && !p.text("topology").empty()) return refuse("with 'topology'");
  if (p.has("massDensity")) return true;
  if (!p.reals("vertexMass").empty() && !p.has("totalMass")) return refuse("with 'vertexMass'");
  if (node.path != changing.node_path) return refuse("below the changing node");
  std::vector<std::array<double, 3>> points(changing.topology->points.size(), {0, 0, 0});
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int a = 0; a < changing.dimension; ++a)
      points[i][static_cast<std::size_t>(a)] =
          changing.rest_position[static_cast<Index>(i) * changing.dimension + a];
  const LumpedMass unit = LumpedVertexMass(*changing.topology, points, 1.0);
  const double total = p.has("totalMass") ? p.real("totalMass") : 1.0;
  const double density =
      unit.total < std::numeric_limits<double>::epsilon() ? 1.0 : total / unit.total;
  changing.mass_densities.emplace_back(c.element->line, density);
  return true;
}

// A TrianglePressureForceField in the changing node, on its triangles: its `triangleList` is
// SOFA's TopologySubsetData (d_trianglePressureMap: TopologySubsetData::remove drops a removed
// triangle's entries and renames the moved last triangle's, keeping the order), followed as such;
// each triangle's rest area — hence its force — goes with its entry, as a build computes it again
// from the rest positions. SOFA never reads its `triangleList` again after init (the callback that
// would is tied to the component state, which no step reads), so a list linked to an engine
// (BoxROI) is followed as the list it gave at init. False after reporting a problem.
// In a child node whose topology is a Tetra2Triangle or Quad2Triangle mapping's output, the list
// indexes that output's triangles (SOFA's pressure takes its context's topology): it follows the
// output's changes (checked in CheckMappedTriangleLists once the node's mapping is read).
bool FollowTriangleList(BuildState& state, const Node& node, const Component& c,
                        ChangingNode& changing) {
  const Parameters& p = c.parameters;
  const auto refuse = [&](const std::string& what) {
    state.problems.Scene(c.element->line,
                         "<" + c.element->type + "> " + what +
                             " is not supported yet (expected it in node '" + changing.node_path +
                             "', on its TriangleSetTopologyContainer, or in a child node on a "
                             "Tetra2Triangle- or Quad2TriangleTopologicalMapping's output)");
    return false;
  };
  if (p.has("topology") && !p.text("topology").empty())
    return refuse("with 'topology' in a node whose topology changes");
  if (node.path != changing.node_path) {
    if (node.parent == nullptr || node.parent->path != changing.node_path ||
        node.topology_component == nullptr)
      return refuse("below a node whose topology changes");
    changing.triangle_lists.push_back({c.element->line, "triangleList", p.indices("triangleList"),
                                       node.topology_component->element->line});
    return true;
  }
  if (changing.level != TopologyLevel::kTriangle)
    return refuse("on a topology whose changes are not of triangles");
  changing.triangle_lists.push_back(
      {c.element->line, "triangleList", p.indices("triangleList"), 0});
  return true;
}

// The lists on a child's triangles: each on a followed mapping's output of triangles.
void CheckMappedTriangleLists(BuildState& state, ChangingNode& changing) {
  std::erase_if(changing.triangle_lists, [&](const FollowedIndexList& list) {
    if (list.topology_line == 0) return false;
    const bool on_triangles = std::any_of(
        changing.mappings.begin(), changing.mappings.end(), [&](const FollowedMapping& m) {
          return m.topology_line == list.topology_line &&
                 (m.mapped.rule == TopologyMappingRule::kTetra2Triangle ||
                  m.mapped.rule == TopologyMappingRule::kQuad2Triangle);
        });
    if (!on_triangles)
      state.problems.Scene(list.element_line,
                           "TrianglePressureForceField below a node whose topology changes is "
                           "not supported yet (expected it in node '" +
                               changing.node_path +
                               "', or in a child node whose topology is a Tetra2Triangle- or "
                               "Quad2TriangleTopologicalMapping's output)");
    return !on_triangles;
  });
}

// A topological mapping from the changing topology: followed when SOFA's mapping follows a
// removal (mechanics/mapped_topology_follow.h), in a child node of the changing one whose
// topology is the mapping's output. Reported otherwise.
void FollowMapping(BuildState& state, const Node& node, const Component& c,
                   ChangingNode& changing) {
  const std::string& type = c.entry->spec.name;
  const auto refuse = [&](const std::string& what) {
    state.problems.Scene(c.element->line, "<" + c.element->type + "> " + what +
                                              " (expected Quad2Triangle-, Hexa2Quad-, "
                                              "Tetra2Triangle- or Triangle2EdgeTopological"
                                              "Mapping in a child node of '" +
                                              changing.node_path + "', its output there)");
  };
  const auto* kind = std::find_if(kMappings.begin(), kMappings.end(),
                                  [&](const MappingKind& k) { return type == k.type; });
  if (kind == kMappings.end()) return refuse("does not follow topological changes yet");
  if (node.parent == nullptr || node.parent->path != changing.node_path ||
      node.topology_component == nullptr || node.topology == nullptr)
    return refuse("below a node whose topology changes is followed only as its child's topology");
  if (kind->input != changing.level)
    return refuse("reads other elements than those the processor removes");
  const Parameters& p = c.parameters;
  // The output shares the input's points (SOFA sets its number of points to the input's).
  Topology output = *node.topology;
  if (output.points.empty()) output.points = changing.topology->points;
  try {
    changing.mappings.push_back(
        {node.topology_component->element->line,
         StartMappedTopology(kind->rule, *changing.topology, std::move(output),
                             p.has("flipNormals") && p.flag("flipNormals"),
                             p.has("noNewTriangles") && p.flag("noNewTriangles")),
         nullptr});
  } catch (const ConfigError& error) {
    refuse(error.what());
  }
}

// Every component of `node` and below either follows a change or is refused.
void CheckFollowers(BuildState& state, const Node& node, ChangingNode& changing) {
  for (const Component& c : node.components) {
    if (c.entry == nullptr) continue;
    const std::string& type = c.entry->spec.name;
    changing.components.push_back({type, c.kind(), c.element->line, node.path, c.name});
    if (kIndexListTypes.count(type) != 0) {
      if (node.path != changing.node_path) {
        state.problems.Scene(c.element->line,
                             "<" + c.element->type +
                                 "> below a node whose topology changes is not supported yet "
                                 "(expected it in node '" +
                                 changing.node_path + "')");
        continue;
      }
      changing.index_lists.push_back(
          {c.element->line, "indices", c.parameters.indices("indices"), 0});
      continue;
    }
    if (type == "DiagonalMass" && !FollowDiagonalMass(state, node, c, changing)) continue;
    if (type == "TrianglePressureForceField") {
      FollowTriangleList(state, node, c, changing);
      continue;
    }
    if (type == "UniformMass" && c.parameters.has("totalMass") &&
        !(c.parameters.has("preserveTotalMass") && c.parameters.flag("preserveTotalMass")) &&
        node.object >= 0 && node.object == changing.object) {
      // SOFA's UniformMass keeps its vertexMass when points go (updateMassOnResize): the total
      // given at init, per point of the object then.
      const Index points = static_cast<Index>(changing.topology->points.size());
      if (points > 0)
        changing.vertex_masses.emplace_back(c.element->line,
                                            c.parameters.real("totalMass") / double(points));
    }
    if (c.kind() == ComponentKind::kTopologicalMapping) {
      FollowMapping(state, node, c, changing);
      continue;
    }
    if (type == "SpringForceField") continue;  // FollowSprings
    // SOFA's RegularGridSpringForceField walks its node's topology only when that is a
    // RegularGridTopology (init's dynamic_cast); in the changing node the topology is the
    // dynamic container: it has no spring, in SOFA as in Fluxion, and nothing to follow.
    if (type == "RegularGridSpringForceField" && node.path == changing.node_path &&
        changing.topology->grid_size[0] == 0)
      continue;
    if (kRebuiltTypes.count(type) != 0 || FollowsAnyChange(c.kind())) continue;
    // A mapping whose output is no mechanical object (a visual model's IdentityMapping).
    if (c.kind() == ComponentKind::kMapping && node.object < 0) continue;
    state.problems.Scene(c.element->line,
                         "<" + c.element->type + "> in node '" + node.path +
                             "' does not follow topological changes yet (expected only "
                             "components that do: docs/architecture.md, 'Topological changes')");
  }
  for (const auto& child : node.children) CheckFollowers(state, *child, changing);
}

// The SpringForceFields of the whole scene with an end on the changing object: followed as
// SOFA's handlers follow them when they list their springs in `spring`, refused otherwise.
void FollowSprings(BuildState& state, ChangingNode& changing) {
  ForEachNode(*state.root, [&](const Node& node) {
    for (const Component& c : node.components) {
      if (c.entry == nullptr || c.entry->spec.name != "SpringForceField" || !c.valid) continue;
      const Parameters& p = c.parameters;
      const int line = c.element->line;
      const auto end = [&](const char* field) {
        return ResolveObjectLink(state, node, c.element->type, field,
                                 p.has(field) ? p.text(field) : std::string(), line);
      };
      FollowedSprings list;
      list.element_line = line;
      list.first = end("object1") == changing.object;
      list.second = end("object2") == changing.object;
      if (!list.first && !list.second) continue;
      if (changing.level == TopologyLevel::kEdge) {
        state.problems.Scene(line, "<" + c.element->type +
                                       "> on an edge topology that changes is not supported yet "
                                       "(SOFA's also erases the springs of removed edges)");
        continue;
      }
      if (!p.has("spring")) {
        state.problems.Scene(line, "<" + c.element->type + "> on '" +
                                       state.objects[static_cast<std::size_t>(changing.object)].id +
                                       "', whose topology changes, needs its springs in 'spring' "
                                       "(expected 'i j ks kd L0' records: 'indices1'/'indices2' "
                                       "lists do not follow a change yet)");
        continue;
      }
      const std::vector<double>& values = p.reals("spring");
      for (std::size_t k = 0; k + 5 <= values.size(); k += 5)
        list.springs.push_back(
            {values[k], values[k + 1], values[k + 2], values[k + 3], values[k + 4]});
      changing.spring_lists.push_back(std::move(list));
    }
  });
}

}  // namespace

void RemoveSpringPoints(FollowedSprings& list, const std::vector<Index>& removed_points,
                        Index old_points) {
  for (const std::size_t side : {std::size_t{0}, std::size_t{1}}) {
    if (!(side == 0 ? list.first : list.second)) continue;
    Index points = old_points;
    for (const Index removed : removed_points) {
      --points;
      std::erase_if(list.springs, [&](const std::array<double, 5>& spring) {
        return spring[side] == static_cast<double>(removed);
      });
      if (removed == points) continue;
      for (std::array<double, 5>& spring : list.springs)
        if (spring[side] == static_cast<double>(points))
          spring[side] = static_cast<double>(removed);
    }
  }
}

std::string SpringText(const FollowedSprings& list) {
  std::string text;
  for (const std::array<double, 5>& spring : list.springs)
    for (const double value : spring) text += (text.empty() ? "" : " ") + FormatReal(value);
  return text;
}

std::vector<ChangingNode> PlanTopologicalChanges(BuildState& state) {
  std::vector<ChangingNode> changing;
  ForEachNode(*state.root, [&](Node& node) {
    const Component* topology = FindProcessorNodeTopology(node);
    const ContainerKind* kind = FindContainerKind(topology);
    std::vector<ProcessorPlan> processors;
    int first_line = 0;
    for (const Component& c : node.components) {
      if (c.entry == nullptr || c.entry->spec.name != kProcessor || !c.valid) continue;
      // SOFA's processor acts on the events it listens to: listening="0" makes it inert.
      if (const AttributeText* listening = c.element->Find("listening");
          listening != nullptr && ParseBool(listening->value) == std::optional<bool>(false))
        continue;
      if (first_line == 0) first_line = c.element->line;
      if (kind == nullptr) continue;
      ProcessorPlan plan;
      if (ReadProcessor(state, node, c, *kind, plan)) processors.push_back(std::move(plan));
    }
    if (first_line == 0) return;
    const int line = first_line;
    if (kind == nullptr || node.topology == nullptr) {
      state.problems.Scene(line, std::string(kProcessor) + " in node '" + node.path +
                                     "' needs a dynamic topology container in its node "
                                     "(expected an Edge-, Triangle-, Quad-, Tetrahedron- or "
                                     "HexahedronSetTopologyContainer holding the elements it "
                                     "removes)");
      return;
    }
    if (processors.empty()) return;  // reported
    // The modifier has no effect of its own (an ignored component): its element is looked for.
    const std::vector<ElementDescription>& elements = node.description->components;
    const bool has_modifier =
        std::any_of(elements.begin(), elements.end(),
                    [&](const ElementDescription& e) { return e.type == kind->modifier; });
    if (!has_modifier) {
      state.problems.Scene(line, std::string(kProcessor) + " in node '" + node.path + "' needs a " +
                                     kind->modifier +
                                     " in its node (SOFA removes elements through it)");
      return;
    }
    if (node.object < 0) {
      state.problems.Scene(line, std::string(kProcessor) + " in node '" + node.path +
                                     "' needs a MechanicalObject in its node (expected the "
                                     "points the topology's elements use)");
      return;
    }
    const ObjectModel& object = state.objects[static_cast<std::size_t>(node.object)];
    // A container given only elements (tetrahedra="@../loader.tetrahedra") takes its number of
    // points from the object, as SOFA's does: the object's rest positions are its points.
    std::shared_ptr<const Topology> topology_points = node.topology;
    if (node.topology->points.empty() && object.num_points > 0 && object.mapped_from < 0) {
      Topology with_points = *node.topology;
      for (Index i = 0; i < object.num_points; ++i) {
        std::array<double, 3> point = {0.0, 0.0, 0.0};
        for (int a = 0; a < object.dimension && a < 3; ++a)
          point[static_cast<std::size_t>(a)] = object.rest_position[i * object.dimension + a];
        with_points.points.push_back(point);
      }
      topology_points = std::make_shared<const Topology>(std::move(with_points));
    }
    if (object.num_points != static_cast<Index>(topology_points->points.size()) ||
        object.mapped_from >= 0) {
      state.problems.Scene(line, std::string(kProcessor) + " in node '" + node.path + "': '" +
                                     object.id + "' has " + std::to_string(object.num_points) +
                                     " points and the topology " +
                                     std::to_string(topology_points->points.size()) +
                                     " (expected an unmapped object with one point per "
                                     "topology point)");
      return;
    }
    ChangingNode entry;
    entry.node_path = node.path;
    entry.processors = std::move(processors);
    entry.topology_line = topology->element->line;
    entry.level = kind->level;
    entry.object_line = object.line;
    entry.object = node.object;
    entry.dimension = object.dimension;
    entry.topology = topology_points;
    entry.position = object.position;
    entry.velocity = object.velocity;
    entry.rest_position = object.rest_position;
    CheckFollowers(state, node, entry);
    CheckMappedTriangleLists(state, entry);
    FollowSprings(state, entry);
    changing.push_back(std::move(entry));
  });
  return changing;
}

std::vector<std::pair<int, std::vector<Index>>> ProcessorDataLists(const BuildState& state) {
  std::vector<std::pair<int, std::vector<Index>>> lists;
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    const ContainerKind* kind = FindContainerKind(node.topology_component);
    for (const Component& c : node.components)
      if (c.entry != nullptr && c.entry->spec.name == kProcessor && c.valid && kind != nullptr)
        lists.emplace_back(c.element->line, c.parameters.indices(kind->data_list));
  });
  return lists;
}

bool IsPointsInTriangle(std::string_view type) {
  return type == "PointsInTriangle" || type == "PointInTriangle";
}

std::optional<TopologyLevel> AddedLevel(std::string_view type) {
  if (type == "Edge" || type == "Edges") return TopologyLevel::kEdge;
  if (type == "Triangle" || type == "Triangles") return TopologyLevel::kTriangle;
  if (type == "Quad" || type == "Quads") return TopologyLevel::kQuad;
  if (type == "Tetrahedron" || type == "Tetrahedra") return TopologyLevel::kTetrahedron;
  if (type == "Hexahedron" || type == "Hexahedra") return TopologyLevel::kHexahedron;
  return std::nullopt;
}

const char* AddedName(TopologyLevel level) {
  constexpr std::array<const char*, kTopologyLevels> kNames = {"Points", "Edges",      "Triangles",
                                                               "Quads",  "Tetrahedra", "Hexahedra"};
  return kNames[static_cast<std::size_t>(level)];
}

std::size_t AddedSize(TopologyLevel level) {
  constexpr std::array<std::size_t, kTopologyLevels> kSizes = {1, 2, 3, 4, 4, 8};
  return kSizes[static_cast<std::size_t>(level)];
}

}  // namespace fluxion::internal
