#include "scene_description.h"

#include <tinyxml2.h>

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "fluxion/text.h"
#include "render.h"

namespace fluxion::view {

namespace {

using nlohmann::json;

// The attributes of every element of the scene file by line (the line a component's model
// records); empty when the file cannot be parsed again (it was parsed once by the load).
std::map<int, json> AttributesByLine(const std::string& scene) {
  std::map<int, json> by_line;
  tinyxml2::XMLDocument document;
  if (document.LoadFile(scene.c_str()) != tinyxml2::XML_SUCCESS) return by_line;
  std::vector<const tinyxml2::XMLElement*> pending{document.RootElement()};
  while (!pending.empty()) {
    const tinyxml2::XMLElement* element = pending.back();
    pending.pop_back();
    if (element == nullptr) continue;
    json attributes = json::array();
    for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a != nullptr; a = a->Next())
      attributes.push_back({a->Name(), a->Value()});
    by_line[element->GetLineNum()] = std::move(attributes);
    for (const tinyxml2::XMLElement* child = element->FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement())
      pending.push_back(child);
  }
  return by_line;
}

json DescribeObject(const Simulation& simulation, const runner::SceneSketch& sketch, int index) {
  const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(index)];
  const runner::SceneSketch::Part& part = sketch.parts()[static_cast<std::size_t>(index)];
  std::vector<Index> triangles, segments, held;
  std::vector<double> rest;
  if (object.topology != nullptr) {
    // A triangle on three corners of a quad lies in that quad (SOFA's grids list both: their
    // triangles are their quads split, computeTriangleList): drawn once, as the quad, not twice.
    std::set<std::array<Index, 3>> in_quads;
    for (const auto& q : object.topology->quads)
      for (int skipped = 0; skipped < 4; ++skipped) {
        std::array<Index, 3> corners{};
        for (int k = 0, c = 0; k < 4; ++k)
          if (k != skipped) corners[static_cast<std::size_t>(c++)] = q[static_cast<std::size_t>(k)];
        std::sort(corners.begin(), corners.end());
        in_quads.insert(corners);
      }
    for (const auto& t : object.topology->triangles) {
      std::array<Index, 3> corners{t[0], t[1], t[2]};
      std::sort(corners.begin(), corners.end());
      if (!in_quads.contains(corners)) triangles.insert(triangles.end(), t.begin(), t.end());
    }
    for (const auto& q : object.topology->quads)  // two triangles per quad
      triangles.insert(triangles.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
  }
  for (const runner::SceneSketch::Segment& s : part.segments) {
    segments.insert(segments.end(), {s.a, s.b});
    rest.push_back(s.rest);
  }
  for (std::size_t i = 0; i < part.held.size(); ++i)
    if (part.held[i]) held.push_back(static_cast<Index>(i));
  return {{"id", object.id},
          {"dimension", object.dimension},
          {"points", object.num_points},
          {"static", object.system < 0 && object.mapped_from < 0},
          {"mapped", object.mapped_from >= 0},
          {"line", object.line},
          {"triangles", triangles},
          {"segments", segments},
          {"rest", rest},
          {"held", held}};
}

// The help of a component type's fields, as --list-components shows it.
json DescribeType(const ComponentInfo* info) {
  if (info == nullptr) return json::object();
  json fields = json::array();
  for (const FieldSpec& field : info->spec.fields)
    fields.push_back(
        {{"name", field.name}, {"default", field.default_value}, {"help", field.help}});
  return {{"summary", info->spec.summary}, {"origin", info->origin}, {"fields", fields}};
}

}  // namespace

std::string DescribeScene(const Host& host, const Simulation& simulation,
                          const std::string& scene) {
  const runner::SceneSketch sketch(simulation);
  const Model& model = simulation.model();
  json objects = json::array();
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k)
    objects.push_back(DescribeObject(simulation, sketch, k));

  // Nodes in the order their paths first appear, every ancestor before its descendants.
  const std::map<int, json> attributes = AttributesByLine(scene);
  std::vector<std::string> node_order;
  std::map<std::string, json> components;
  const auto add_node = [&](const std::string& path) {
    std::size_t slash = 0;
    while (true) {
      slash = path.find('/', slash + 1);
      const std::string prefix = path.substr(0, slash);
      if (std::find(node_order.begin(), node_order.end(), prefix) == node_order.end()) {
        node_order.push_back(prefix);
        components[prefix] = json::array();
      }
      if (slash == std::string::npos) break;
    }
  };
  std::map<std::string, const ComponentInfo*> types;
  for (const ComponentModel& component : model.components) {
    add_node(component.node_path);
    const std::string path = component.node_path + "/" + component.name;
    const auto found = attributes.find(component.line);
    const ComponentInfo* info = host.FindComponent(component.type);
    if (info != nullptr) types[info->spec.name] = info;
    components[component.node_path].push_back(
        {{"name", component.name},
         {"type", component.type},
         {"sofa_type", info != nullptr ? info->spec.name : component.type},
         {"kind", std::string(ComponentKindName(component.kind))},
         {"line", component.line},
         {"path", path},
         {"attributes", found != attributes.end() ? found->second : json::array()},
         {"runtime", simulation.RuntimeFields(path)}});
  }
  // The root node's own data first, as a component of its node: its gravity is editable
  // (Simulation::SetComponentField on the node's path), its dt shown (refused with why).
  if (!node_order.empty()) {
    const std::string& root = node_order.front();
    std::string gravity;
    for (const double g : model.gravity) gravity += (gravity.empty() ? "" : " ") + FormatReal(g);
    const json node_data = {{"name", root},
                            {"type", "Node"},
                            {"sofa_type", "Node"},
                            {"kind", "node"},
                            {"line", 0},
                            {"path", root},
                            {"attributes", json::array({json::array({"dt", FormatReal(model.dt)}),
                                                        json::array({"gravity", gravity})})},
                            {"runtime", simulation.RuntimeFields(root)}};
    components[root].insert(components[root].begin(), node_data);
  }
  json nodes = json::array();
  for (const std::string& path : node_order)
    nodes.push_back({{"path", path}, {"components", components[path]}});
  json type_help = json::object();
  for (const auto& [name, info] : types) type_help[name] = DescribeType(info);

  json solvers = json::array();
  for (const ComponentInfo* entry : host.components())
    if (entry->spec.kind == ComponentKind::kOdeSolver) solvers.push_back(entry->spec.name);
  json solver_nodes = json::array();
  for (const SolverNode& node : simulation.solver_nodes())
    solver_nodes.push_back({{"path", node.node_path}, {"solver", node.solver_type}});

  const json description = {{"scene", scene},
                            {"dt", simulation.dt()},
                            {"gravity", model.gravity},
                            {"collision", sketch.has_collision()},
                            {"objects", objects},
                            {"nodes", nodes},
                            {"types", type_help},
                            {"solvers", solvers},
                            {"solver_nodes", solver_nodes}};
  // Attribute text is the scene's: bytes that are not UTF-8 are replaced, never refused.
  return description.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace fluxion::view
