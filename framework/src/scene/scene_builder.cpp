#include "scene/scene_builder.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <span>

#include "core/parameter_parsing.h"
#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "linear/cg_linear_solver.h"
#include "linear/ldl_linear_solver.h"
#include "mechanics/regular_grid.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "mechanics/time_dependent_forces.h"
#include "scene/builtin_components.h"

namespace fluxion::internal {

std::string BundledPluginFor(const std::string& component) {
  static const std::map<std::string, std::string, std::less<>> kBundled = {
      {"EulerExplicitSolver", "euler_explicit"},
      {"EulerImplicitSolver", "euler_implicit"},
      {"NewmarkImplicitSolver", "newmark_implicit"},
      {"VariationalSymplecticSolver", "variational_symplectic"},
      {"RungeKutta2Solver", "runge_kutta2"},
      {"RungeKutta4Solver", "runge_kutta4"},
      {"CentralDifferenceSolver", "central_difference"},
      {"NBodyGravityForceField", "nbody_gravity"},
  };
  const auto it = kBundled.find(component);
  return it == kBundled.end() ? std::string() : it->second;
}

namespace {

// SOFA reads these legacy attributes with strtof: replicate the float rounding so that values such
// as 0.1 land on the same double as in SOFA.
double AsSofaFloat(double value) { return static_cast<double>(static_cast<float>(value)); }

struct Component {
  const ElementDescription* element = nullptr;
  const ComponentEntry* entry = nullptr;
  Parameters parameters;
  std::string name;
  bool valid = false;
  ComponentKind kind() const { return entry->spec.kind; }
};

struct Node {
  const NodeDescription* description = nullptr;
  std::string path;
  Node* parent = nullptr;
  std::vector<std::unique_ptr<Node>> children;
  std::vector<Component> components;
  Parameters parameters;
  int object = -1;                    // index into the objects
  const Component* solver = nullptr;  // the node's own ODE solver
  int system = -1;                    // governing solver node (nearest ancestor-or-self solver)
  std::optional<Topology> topology;
};

// The problems found so far, each tagged plugin (exit 3) or scene (exit 2).
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void Scene(int line, std::string message) { scene_.push_back({file_, line, std::move(message)}); }
  void Plugin(int line, std::string message) {
    plugin_.push_back({file_, line, std::move(message)});
  }
  void ThrowIfAny() const {
    if (!plugin_.empty()) {
      std::string text;
      for (const SceneDiagnostic& d : plugin_) text += (text.empty() ? "" : "\n") + d.Format();
      for (const SceneDiagnostic& d : scene_) text += "\n" + d.Format();
      throw PluginError(text);
    }
    if (!scene_.empty()) throw SceneError(scene_);
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<SceneDiagnostic> scene_, plugin_;
};

// A hostile or mistaken scene gets a clean error instead of exhausting memory or running for
// hours: the whole scene holds at most this many points and springs (the assembled system keeps
// about a hundred matrix entries per 3-D spring; a million springs is about 1.5 GB).
constexpr Index kMaxScenePoints = 1'000'000;
constexpr std::size_t kMaxSceneSprings = 1'000'000;

std::string PointCount(Index points) {
  return std::to_string(points) + (points == 1 ? " point" : " points");
}

class Builder {
 public:
  Builder(const SceneDescription& scene, const ComponentRegistry& registry,
          const PluginLoader* plugins, const BuildOptions& options)
      : scene_(scene),
        registry_(registry),
        plugins_(plugins),
        options_(options),
        problems_(scene.file) {}

  Simulation Build() {
    root_ = ReadNode(scene_.root, nullptr);
    problems_.ThrowIfAny();
    ForEachNode(*root_, [&](Node& node) { CheckNodeComposition(node); });
    problems_.ThrowIfAny();
    ForEachNode(*root_, [&](Node& node) { BuildTopology(node); });
    ForEachNode(*root_, [&](Node& node) { BuildObject(node); });
    problems_.ThrowIfAny();
    AssignSystems();
    std::vector<SystemParts> parts = LayOutSystems();
    ForEachNode(*root_, [&](Node& node) { AddComponents(node, parts); });
    problems_.ThrowIfAny();
    AddPluginForceFields(parts);  // after AddComponents: they see every point's mass
    problems_.ThrowIfAny();
    CheckMasses(parts);
    problems_.ThrowIfAny();
    std::vector<SolverNode> solver_nodes = CreateSolvers(parts);
    problems_.ThrowIfAny();

    const double dt = options_.dt ? *options_.dt : root_->parameters.real("dt");
    if (solver_nodes.empty()) LogWarn(scene_.file + ": the scene has no ODE solver: nothing moves");
    try {
      return Simulation(dt, root_->parameters.real("time"), std::move(objects_),
                        std::move(solver_nodes));
    } catch (const ConfigError& error) {
      problems_.Scene(scene_.root.line, error.what());
      problems_.ThrowIfAny();
      throw;
    }
  }

 private:
  template <class F>
  void ForEachNode(Node& node, F&& visit) {
    visit(node);
    for (auto& child : node.children) ForEachNode(*child, visit);
  }

  // --- Pass 1: read every node and component, parse their attributes -------------------------

  std::vector<AttributeText> Filter(const std::vector<AttributeText>& attributes,
                                    bool keep_template, std::string* name) {
    std::vector<AttributeText> kept;
    for (const AttributeText& attribute : attributes) {
      if (attribute.name == "name") {
        if (name) *name = attribute.value;
        continue;
      }
      if (attribute.name == "template" && !keep_template) continue;
      if (IsIgnoredAttribute(attribute.name)) {
        LogDebug(problems_.file() + ":" + std::to_string(attribute.line) + ": attribute '" +
                 attribute.name + "' ignored (display or bookkeeping option)");
        continue;
      }
      kept.push_back(attribute);
    }
    return kept;
  }

  void Report(const std::vector<ParameterProblem>& found, int fallback_line) {
    for (const ParameterProblem& problem : found)
      problems_.Scene(problem.line > 0 ? problem.line : fallback_line, problem.message);
  }

  std::unique_ptr<Node> ReadNode(const NodeDescription& description, Node* parent) {
    auto node = std::make_unique<Node>();
    node->description = &description;
    node->parent = parent;
    std::vector<ParameterProblem> found;
    std::vector<AttributeText> attributes = Filter(description.attributes, false, nullptr);
    if (parent != nullptr) {
      // SOFA copies gravity, dt and time from the parent at every step: a child cannot override
      // them.
      std::erase_if(attributes, [&](const AttributeText& a) {
        if (a.name != "gravity" && a.name != "dt" && a.name != "time") return false;
        LogWarn(problems_.file() + ":" + std::to_string(a.line) + ": '" + a.name +
                "' on a child node is ignored (SOFA takes it from the root node)");
        return true;
      });
    }
    node->parameters = ParseAttributes(NodeSpec(), attributes, found);
    Report(found, description.line);
    if (found.empty()) {
      if (node->parameters.reals("gravity").size() != 3)
        problems_.Scene(description.line,
                        "Node 'gravity' has " +
                            std::to_string(node->parameters.reals("gravity").size()) +
                            " numbers (expected 3, as in SOFA)");
      if (!node->parameters.flag("activated"))
        problems_.Scene(description.line,
                        "Node 'activated=0' is not supported (expected an active node)");
    }
    const std::string name =
        description.name.empty() ? (parent ? "Node" : "root") : description.name;
    if (name.find('/') != std::string::npos)
      problems_.Scene(description.line,
                      "node name '" + name + "' contains '/' (expected a plain name)");
    node->path = parent ? parent->path + "/" + name : name;

    for (const ElementDescription& element : description.components) ReadComponent(*node, element);
    std::set<std::string> child_names;
    for (const NodeDescription& child : description.children) {
      const std::string child_name = child.name.empty() ? "Node" : child.name;
      if (!child_names.insert(child_name).second)
        problems_.Scene(child.line,
                        "a second child node named '" + child_name + "' in '" + node->path +
                            "' (expected distinct names: they identify objects in the output)");
      node->children.push_back(ReadNode(child, node.get()));
    }
    return node;
  }

  void ReportUnknownComponent(const ElementDescription& element) {
    const std::string plugin = BundledPluginFor(element.type);
    const bool looks_like_solver =
        element.type.size() > 6 && element.type.compare(element.type.size() - 6, 6, "Solver") == 0;
    const std::string suggestion = SuggestClosest(element.type, registry_.Names());
    if (!plugin.empty()) {
      problems_.Plugin(element.line,
                       "component '" + element.type + "' is provided by plugin 'fluxion_" + plugin +
                           ".so', which is not on the plugin search path" + SearchPathText());
    } else if (!suggestion.empty()) {
      problems_.Scene(element.line, "unknown component '" + element.type + "' (did you mean '" +
                                        suggestion + "'?)");
    } else if (looks_like_solver) {
      problems_.Plugin(element.line, "no loaded plugin provides component '" + element.type + "'" +
                                         SearchPathText());
    } else {
      problems_.Scene(element.line, "unknown component '" + element.type +
                                        "' (expected one of the components listed by "
                                        "scene-runner --list-components)");
    }
  }

  std::string SearchPathText() const {
    if (plugins_ == nullptr) return " (no plugin search path)";
    std::string text = " (searched:";
    if (plugins_->directories().empty()) text += " no folder";
    for (const auto& [directory, source] : plugins_->directories())
      text += " " + directory.string();
    text += ")";
    for (const PluginRecord& record : plugins_->records())
      if (!record.loaded) text += "; note: " + record.path + " was refused: " + record.error;
    return text;
  }

  void ReadComponent(Node& node, const ElementDescription& element) {
    const ComponentEntry* entry = registry_.Find(element.type);
    if (entry != nullptr && entry->spec.kind == ComponentKind::kOdeSolver &&
        options_.solver_override) {
      OverrideSolver(node, element);
      return;
    }
    if (entry == nullptr) {
      ReportUnknownComponent(element);
      return;
    }
    Component component;
    component.element = &element;
    component.entry = entry;
    if (entry->spec.kind == ComponentKind::kIgnored) {
      LogDebug(problems_.file() + ":" + std::to_string(element.line) + ": <" + element.type +
               "> ignored (" + entry->spec.summary + ")");
      return;
    }
    const bool keep_template = entry->spec.FindField("template") != nullptr;
    std::vector<AttributeText> attributes =
        Filter(element.attributes, keep_template, &component.name);
    std::vector<ParameterProblem> found;
    component.parameters = ParseAttributes(entry->spec, attributes, found);
    Report(found, element.line);
    component.valid = found.empty();
    if (component.name.empty()) component.name = entry->spec.name;
    if (component.valid && entry->spec.kind == ComponentKind::kLoader) RequirePlugins(component);
    node.components.push_back(std::move(component));
  }

  // --solver NAME --param key=value: the scene's solver element is replaced, its attributes with
  // it.
  void OverrideSolver(Node& node, const ElementDescription& element) {
    const SolverOverride& replacement = *options_.solver_override;
    const ComponentEntry* entry = registry_.Find(replacement.name);
    if (entry == nullptr || entry->spec.kind != ComponentKind::kOdeSolver) {
      const std::string suggestion = SuggestClosest(replacement.name, registry_.Names());
      const std::string message =
          "--solver " + replacement.name + ": no ODE solver of that name" +
          (suggestion.empty() ? SearchPathText() : " (did you mean '" + suggestion + "'?)");
      if (suggestion.empty())
        problems_.Plugin(element.line, message);
      else
        problems_.Scene(element.line, message);
      return;
    }
    Component component;
    component.element = &element;
    component.entry = entry;
    component.name = entry->spec.name;
    std::vector<AttributeText> attributes;
    for (const auto& [name, value] : replacement.params) attributes.push_back({name, value, 0});
    std::vector<ParameterProblem> found;
    component.parameters = ParseAttributes(entry->spec, attributes, found);
    for (const ParameterProblem& problem : found)
      problems_.Scene(element.line, "--param: " + problem.message);
    component.valid = found.empty();
    node.components.push_back(std::move(component));
  }

  void RequirePlugins(const Component& component) {
    std::string names = component.parameters.text("pluginName");
    if (names.empty()) names = component.name == "RequiredPlugin" ? "" : component.name;
    const int line = component.element->line;
    if (names.empty()) {
      problems_.Scene(line, "RequiredPlugin without 'pluginName' (expected the plugin's name)");
      return;
    }
    for (const std::string_view word : SplitWords(names)) {
      const std::string name(word);
      if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
          name.find("..") != std::string::npos) {
        problems_.Scene(line,
                        "RequiredPlugin '" + name +
                            "' is a path (expected a plain plugin name, resolved on the plugin "
                            "search path only)");
        continue;
      }
      // SOFA module names: accepted; the components they would provide are checked one by one.
      if (name.rfind("Sofa", 0) == 0) continue;
      if (plugins_ == nullptr || plugins_->FindLoaded(name) == nullptr)
        problems_.Plugin(line, "required plugin '" + name + "' was not found" + SearchPathText());
    }
  }

  // --- Pass 2: composition rules ---------------------------------------------------------------

  void CheckNodeComposition(Node& node) {
    std::map<ComponentKind, const Component*> first;
    for (const Component& component : node.components) {
      const ComponentKind kind = component.kind();
      const bool single = kind == ComponentKind::kState || kind == ComponentKind::kOdeSolver ||
                          kind == ComponentKind::kMass || kind == ComponentKind::kTopology;
      if (!single) continue;
      if (const auto it = first.find(kind); it != first.end()) {
        problems_.Scene(component.element->line,
                        "a second " + std::string(ComponentKindName(kind)) + " <" +
                            component.element->type + "> in node '" + node.path +
                            "' (expected at most one per node; the first is <" +
                            it->second->element->type + "> at line " +
                            std::to_string(it->second->element->line) + ")");
        continue;
      }
      first[kind] = &component;
      if (kind == ComponentKind::kOdeSolver) node.solver = &component;
    }
  }

  // --- Topology and mechanical objects ----------------------------------------------------------

  void BuildTopology(Node& node) {
    for (const Component& component : node.components) {
      if (component.kind() != ComponentKind::kTopology || !component.valid) continue;
      const Parameters& p = component.parameters;
      const int line = component.element->line;
      std::array<Index, 3> n{};
      std::array<double, 3> counts{};  // as written (a legacy nx may exceed any Index)
      const std::vector<Index>& n_list = p.indices("n");
      if (p.has("nx") && p.has("ny") && p.has("nz")) {  // SOFA: legacy nx ny nz only all together
        bool whole = true;
        for (int axis = 0; axis < 3; ++axis) {
          const char* field = axis == 0 ? "nx" : axis == 1 ? "ny" : "nz";
          const double value = p.real(field);  // >= 1 and finite (the field's bounds)
          if (value != std::floor(value)) {
            problems_.Scene(line, "RegularGridTopology '" + std::string(field) + "' is " +
                                      FormatReal(value) + " (expected a whole number of points)");
            whole = false;
          }
          counts[axis] = value;
          n[axis] = value > static_cast<double>(kMaxScenePoints) ? kMaxScenePoints + 1
                                                                 : static_cast<Index>(value);
        }
        if (!whole) continue;
      } else if (n_list.size() == 3) {
        n = {n_list[0], n_list[1], n_list[2]};
        for (int axis = 0; axis < 3; ++axis) counts[axis] = static_cast<double>(n[axis]);
      } else {
        problems_.Scene(line, "RegularGridTopology 'n' has " + std::to_string(n_list.size()) +
                                  " numbers (expected 3: nx ny nz)");
        continue;
      }
      if (n[0] < 1 || n[1] < 1 || n[2] < 1) {
        problems_.Scene(line, "RegularGridTopology needs at least 1 point along each axis");
        continue;
      }
      const double points = counts[0] * counts[1] * counts[2];
      const Index limit = std::min<Index>(kMaxGridPoints, kMaxScenePoints);
      if (points + static_cast<double>(topology_points_) > static_cast<double>(limit)) {
        problems_.Scene(line, "RegularGridTopology of " + FormatReal(points) +
                                  " points is too large (expected at most " +
                                  std::to_string(limit) + " grid points in the whole scene)");
        continue;
      }
      topology_points_ += static_cast<Index>(points);
      std::array<double, 3> min{}, max{};
      const std::vector<double>& min_list = p.reals("min");
      const std::vector<double>& max_list = p.reals("max");
      if (min_list.size() != 3 || max_list.size() != 3) {
        problems_.Scene(line, "RegularGridTopology 'min' and 'max' need 3 numbers each");
        continue;
      }
      std::copy(min_list.begin(), min_list.end(), min.begin());
      std::copy(max_list.begin(), max_list.end(), max.begin());
      const char* legacy[6] = {"xmin", "ymin", "zmin", "xmax", "ymax", "zmax"};
      if (std::all_of(std::begin(legacy), std::end(legacy),
                      [&](const char* f) { return p.has(f); })) {
        for (int axis = 0; axis < 3; ++axis) {
          min[axis] = AsSofaFloat(p.real(legacy[axis]));
          max[axis] = AsSofaFloat(p.real(legacy[axis + 3]));
        }
      }
      const std::vector<double>& p0 = p.reals("p0");
      if (p0.size() != 3 || p0[0] != 0.0 || p0[1] != 0.0 || p0[2] != 0.0)
        problems_.Scene(line, "RegularGridTopology 'p0' is not supported (expected min/max)");
      node.topology = MakeRegularGrid(n, min, max);
    }
  }

  // Parses a list of `dimension`-vectors; reports a wrong arity.
  bool CheckArity(const Component& c, const char* field, std::size_t size, int dimension,
                  const std::string& what) {
    if (size % static_cast<std::size_t>(dimension) == 0) return true;
    problems_.Scene(c.element->line, "MechanicalObject '" + std::string(field) + "' has " +
                                         std::to_string(size) + " numbers, not a multiple of " +
                                         std::to_string(dimension) + " (" + what + ": " +
                                         std::to_string(dimension) + " per point)");
    return false;
  }

  void BuildObject(Node& node) {
    for (const Component& component : node.components) {
      if (component.kind() != ComponentKind::kState || !component.valid) continue;
      const Parameters& p = component.parameters;
      MechanicalObjectData object;
      const std::string& template_name = p.text("template");
      object.dimension = template_name.starts_with("Vec1")   ? 1
                         : template_name.starts_with("Vec2") ? 2
                                                             : 3;
      const int dim = object.dimension;
      object.name = component.name;
      object.id = node.path + "/" + object.name;
      object.line = component.element->line;
      const std::vector<double>& position = p.reals("position");
      const std::vector<double>& velocity = p.reals("velocity");
      const std::vector<double>& rest = p.reals("rest_position");
      const std::vector<double>& external = p.reals("externalForce");
      bool ok = CheckArity(component, "position", position.size(), dim, template_name);
      ok = CheckArity(component, "velocity", velocity.size(), dim, template_name) && ok;
      ok = CheckArity(component, "rest_position", rest.size(), dim, template_name) && ok;
      ok = CheckArity(component, "externalForce", external.size(), dim, template_name) && ok;
      for (const char* field : {"translation", "rotation", "scale3d"}) {
        if (p.reals(field).size() != 3) {
          problems_.Scene(component.element->line, std::string("MechanicalObject '") + field +
                                                       "' needs 3 numbers (SOFA: always x y z)");
          ok = false;
        }
      }
      for (double value : p.reals("force"))
        if (value != 0.0) {
          problems_.Scene(
              component.element->line,
              "MechanicalObject 'force' is an output (expected it empty; use externalForce or "
              "a ConstantForceField)");
          ok = false;
          break;
        }
      if (!ok) continue;

      const Index given_points = static_cast<Index>(position.size()) / dim;
      const Index velocity_points = static_cast<Index>(velocity.size()) / dim;
      Index points = given_points;
      std::vector<double> x = position, v = velocity;
      // SOFA: with at most one position and one velocity, a topology of the same node gives the
      // points, and a single velocity is broadcast to all of them.
      if (given_points <= 1 && velocity_points <= 1 && node.topology &&
          !node.topology->points.empty()) {
        points = static_cast<Index>(node.topology->points.size());
        x.assign(static_cast<std::size_t>(points * dim), 0.0);
        for (Index i = 0; i < points; ++i)
          for (int c = 0; c < dim; ++c)
            x[static_cast<std::size_t>(i * dim + c)] = node.topology->points[i][c];
        std::vector<double> single(static_cast<std::size_t>(dim), 0.0);
        if (velocity_points == 1) single.assign(velocity.begin(), velocity.end());
        v.clear();
        for (Index i = 0; i < points; ++i) v.insert(v.end(), single.begin(), single.end());
      } else {
        if (given_points == 0) {
          points = std::max<Index>(p.integer("size"), 1);
          if (points > kMaxScenePoints) {
            problems_.Scene(component.element->line,
                            "MechanicalObject 'size' is " + std::to_string(points) +
                                " (expected at most " + std::to_string(kMaxScenePoints) +
                                " points in the whole scene)");
            continue;
          }
          if (static_cast<Index>(rest.size()) / dim > points)
            points = static_cast<Index>(rest.size()) / dim;
          x.assign(static_cast<std::size_t>(points * dim), 0.0);
        }
        if (velocity_points > points) {
          problems_.Scene(component.element->line,
                          "MechanicalObject 'velocity' has " + PointCount(velocity_points) +
                              " but 'position' has " + PointCount(points) +
                              " (expected at most as many velocities as positions)");
          continue;
        }
        if (velocity_points > 1 && velocity_points < points)
          LogWarn(problems_.file() + ":" + std::to_string(component.element->line) +
                  ": MechanicalObject 'velocity' has fewer points than 'position': the others "
                  "start at rest "
                  "(as in SOFA)");
        v.resize(static_cast<std::size_t>(points * dim), 0.0);  // SOFA zero-fills
      }
      if (!rest.empty() && static_cast<Index>(rest.size()) / dim != points) {
        problems_.Scene(component.element->line,
                        "MechanicalObject 'rest_position' has " +
                            PointCount(static_cast<Index>(rest.size()) / dim) + " (expected " +
                            PointCount(points) + ")");
        continue;
      }
      if (!external.empty() && static_cast<Index>(external.size()) / dim != points) {
        problems_.Scene(component.element->line,
                        "MechanicalObject 'externalForce' has " +
                            PointCount(static_cast<Index>(external.size()) / dim) + " (expected " +
                            PointCount(points) + ")");
        continue;
      }
      if (object_points_ + points > kMaxScenePoints) {
        problems_.Scene(component.element->line,
                        "MechanicalObject '" + object.id + "' brings the scene to " +
                            std::to_string(object_points_ + points) + " points (expected at most " +
                            std::to_string(kMaxScenePoints) + ")");
        continue;
      }
      object_points_ += points;
      object.num_points = points;
      object.position = Eigen::Map<const Vector>(x.data(), static_cast<Index>(x.size()));
      object.velocity = Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
      ApplyTransforms(p, object);
      // SOFA copies the rest position from the *transformed* position (times restScale).
      if (!rest.empty())
        object.rest_position =
            Eigen::Map<const Vector>(rest.data(), static_cast<Index>(rest.size()));
      else if (p.real("restScale") != 1.0)
        object.rest_position = object.position * p.real("restScale");
      else
        object.rest_position = object.position;
      object.external_force = external.empty()
                                  ? Vector::Zero(object.num_dofs())
                                  : Vector(Eigen::Map<const Vector>(
                                        external.data(), static_cast<Index>(external.size())));
      for (const MechanicalObjectData& other : objects_) {
        if (other.id == object.id)
          problems_.Scene(component.element->line,
                          "two objects have the id '" + object.id + "' (expected distinct names)");
      }
      node.object = static_cast<int>(objects_.size());
      objects_.push_back(std::move(object));
    }
  }

  // SOFA's MechanicalObject::reinit: scale, then rotation (Euler angles in degrees, quaternion
  // Z·Y·X), then translation; dx/dy/dz (read as floats, as SOFA does) add to the translation.
  void ApplyTransforms(const Parameters& p, MechanicalObjectData& object) {
    const std::vector<double>& scale = p.reals("scale3d");
    const std::vector<double>& rotation = p.reals("rotation");
    std::vector<double> translation = p.reals("translation");
    // SOFA: any of the legacy dx/dy/dz replaces the whole translation (missing ones are 0).
    if (p.has("dx") || p.has("dy") || p.has("dz")) {
      translation = {p.has("dx") ? AsSofaFloat(p.real("dx")) : 0.0,
                     p.has("dy") ? AsSofaFloat(p.real("dy")) : 0.0,
                     p.has("dz") ? AsSofaFloat(p.real("dz")) : 0.0};
    }
    const int dim = object.dimension;
    const bool rotate = rotation[0] != 0.0 || rotation[1] != 0.0 || rotation[2] != 0.0;
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    if (rotate) {
      const double deg = M_PI / 180.0;
      q = Eigen::AngleAxisd(rotation[2] * deg, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rotation[1] * deg, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rotation[0] * deg, Eigen::Vector3d::UnitX());
    }
    for (Index i = 0; i < object.num_points; ++i) {
      Eigen::Vector3d point = Eigen::Vector3d::Zero();
      for (int c = 0; c < dim; ++c) point[c] = object.position[i * dim + c];
      for (int c = 0; c < 3; ++c)
        if (scale[c] != 1.0) point[c] *= scale[c];
      if (rotate) point = q * point;
      for (int c = 0; c < 3; ++c) point[c] += translation[c];
      for (int c = 0; c < dim; ++c) object.position[i * dim + c] = point[c];
    }
  }

  // --- Systems -------------------------------------------------------------------------------

  void AssignSystems() {
    ForEachNode(*root_, [&](Node& node) {
      if (node.solver != nullptr) {
        node.system = static_cast<int>(solver_owners_.size());
        solver_owners_.push_back(&node);
      } else if (node.parent != nullptr) {
        node.system = node.parent->system;
      }
      if (node.object >= 0) objects_[node.object].system = node.system;
    });
  }

  std::vector<SystemParts> LayOutSystems() {
    std::vector<SystemParts> parts(solver_owners_.size());
    for (std::size_t k = 0; k < objects_.size(); ++k) {
      MechanicalObjectData& object = objects_[k];
      if (object.system < 0) continue;
      SystemParts& system = parts[object.system];
      object.offset = system.num_dofs;
      system.num_dofs += object.num_dofs();
    }
    for (SystemParts& system : parts) {
      system.mass = Vector::Zero(system.num_dofs);
      system.fixed.assign(static_cast<std::size_t>(system.num_dofs), false);
      system.external_force = Vector::Zero(system.num_dofs);
    }
    for (const MechanicalObjectData& object : objects_)
      if (object.system >= 0)
        parts[object.system].external_force.segment(object.offset, object.num_dofs()) =
            object.external_force;
    return parts;
  }

  // Resolves a link ("@path", relative to `node`) to a mechanical object index, or reports it.
  int ResolveObjectLink(const Node& node, const Component& component, const char* field) {
    const std::string text = component.parameters.text(field);
    const int line = component.element->line;
    if (text.empty()) {
      if (node.object < 0)
        problems_.Scene(line, "<" + component.element->type +
                                  "> needs a MechanicalObject in node '" + node.path + "' (or '" +
                                  field + "' pointing to one)");
      return node.object;
    }
    if (text.front() != '@') {
      problems_.Scene(line, "'" + std::string(field) + "' is '" + text +
                                "' (expected a link starting with '@')");
      return -1;
    }
    std::string path = text.substr(1);
    const Node* current = &node;
    if (!path.empty() && path.front() == '/') {
      current = root_.get();
      path.erase(0, 1);
    }
    std::vector<std::string> segments;
    for (std::string_view segment : SplitPath(path)) segments.emplace_back(segment);
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const std::string& segment = segments[i];
      const bool last = i + 1 == segments.size();
      if (segment == ".") continue;
      if (segment == "..") {
        if (current->parent == nullptr) {
          problems_.Scene(line, "link '" + text + "' goes above the root node");
          return -1;
        }
        current = current->parent;
        continue;
      }
      const Node* child = nullptr;
      for (const auto& candidate : current->children)
        if (candidate->description->name == segment ||
            (candidate->description->name.empty() && segment == "Node"))
          child = candidate.get();
      if (last && current->object >= 0 && objects_[current->object].name == segment)
        return current->object;
      if (child == nullptr) {
        std::string available;
        for (const auto& candidate : current->children)
          available += " " + candidate->description->name;
        if (current->object >= 0) available += " " + objects_[current->object].name;
        problems_.Scene(line, "link '" + text + "' does not resolve: no node or object '" +
                                  segment + "' in '" + current->path +
                                  "' (found:" + (available.empty() ? " nothing" : available) + ")");
        return -1;
      }
      current = child;
    }
    if (current->object < 0) {
      problems_.Scene(line,
                      "link '" + text + "' names node '" + current->path +
                          "', which has no MechanicalObject (expected a node or object with DOFs)");
      return -1;
    }
    return current->object;
  }

  static std::vector<std::string_view> SplitPath(std::string_view path) {
    std::vector<std::string_view> segments;
    std::size_t start = 0;
    while (start <= path.size()) {
      const std::size_t end = std::min(path.find('/', start), path.size());
      if (end > start) segments.push_back(path.substr(start, end - start));
      start = end + 1;
    }
    return segments;
  }

  // Adds a force field's springs to the scene's total; reports and returns false past the limit.
  bool CountSprings(const Component& c, std::size_t count, bool too_many) {
    if (too_many) {
      problems_.Scene(c.element->line, "<" + c.element->type + "> makes the scene hold more than " +
                                           std::to_string(kMaxSceneSprings) +
                                           " springs (expected at most " +
                                           std::to_string(kMaxSceneSprings) + ")");
      return false;
    }
    total_springs_ += count;
    return true;
  }

  // `written`, when given, is the index as the scene wrote it (it may not fit an Index).
  bool CheckIndex(const Component& c, Index index, const MechanicalObjectData& object,
                  const std::string& what, std::optional<double> written = std::nullopt) {
    if (index < object.num_points) return true;
    problems_.Scene(c.element->line, "<" + c.element->type + "> " + what + " " +
                                         (written ? FormatReal(*written) : std::to_string(index)) +
                                         " is out of range (object '" + object.id + "' has " +
                                         PointCount(object.num_points) + ": expected 0.." +
                                         std::to_string(object.num_points - 1) + ")");
    return false;
  }

  // The MechanicalObject of the node a mass, constraint or force field sits in; nullptr after
  // reporting its absence.
  MechanicalObjectData* NodeObject(const Node& node, const Component& c) {
    if (node.object >= 0) return &objects_[node.object];
    problems_.Scene(c.element->line, "<" + c.element->type +
                                         "> needs a MechanicalObject in node '" + node.path + "'");
    return nullptr;
  }

  // The points a `field` lists, or every point of `object` when it lists none (SOFA's default for
  // ConstantForceField's indices).
  static std::vector<Index> PointsOrAll(const Parameters& p, const char* field,
                                        const MechanicalObjectData& object) {
    std::vector<Index> points = p.indices(field);
    if (points.empty())
      for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
    return points;
  }

  void AddComponents(Node& node, std::vector<SystemParts>& parts) {
    for (const Component& component : node.components) {
      if (!component.valid) continue;
      switch (component.kind()) {
        case ComponentKind::kMass:
          AddMass(node, component, parts);
          break;
        case ComponentKind::kConstraint:
          AddFixedConstraint(node, component, parts);
          break;
        case ComponentKind::kForceField:
          AddForceField(node, component, parts);
          break;
        default:
          break;
      }
    }
  }

  void AddMass(Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const int line = c.element->line;
    const MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr) return;
    const MechanicalObjectData& object = *found;
    const Parameters& p = c.parameters;
    if (c.entry->spec.name == "UniformMass" && p.flag("separateGravity")) {
      problems_.Scene(
          line,
          "UniformMass 'separateGravity=1' is not supported (expected 0: gravity as a force)");
      return;
    }
    std::vector<double> point_mass(static_cast<std::size_t>(object.num_points), 0.0);
    if (c.entry->spec.name == "UniformMass") {
      double mass = 0.0;
      if (p.has("totalMass")) {
        if (p.has("vertexMass"))
          LogWarn(problems_.file() + ":" + std::to_string(line) +
                  ": UniformMass has both totalMass and vertexMass: totalMass wins (as in SOFA)");
        mass = p.real("totalMass") / static_cast<double>(object.num_points);
      } else if (p.has("vertexMass")) {
        mass = p.real("vertexMass");
      } else {
        problems_.Scene(line,
                        "UniformMass needs 'vertexMass' or 'totalMass' (SOFA has no default mass)");
        return;
      }
      std::fill(point_mass.begin(), point_mass.end(), mass);
    } else {  // DiagonalMass
      if (p.has("totalMass") || p.has("massDensity")) {
        problems_.Scene(
            line,
            "DiagonalMass 'totalMass'/'massDensity' are not supported (expected 'vertexMass', "
            "one value per point)");
        return;
      }
      const std::vector<double>& masses = p.reals("vertexMass");
      if (static_cast<Index>(masses.size()) != object.num_points) {
        problems_.Scene(line, "DiagonalMass 'vertexMass' has " + std::to_string(masses.size()) +
                                  " values (expected one per point: " +
                                  std::to_string(object.num_points) + ")");
        return;
      }
      point_mass = masses;
    }
    if (object.system < 0) return;
    SystemParts& system = parts[object.system];
    // Gravity acts through the mass: f += m·g per point (SOFA's Mass::addForce).
    const std::vector<double>& gravity = root_->parameters.reals("gravity");
    std::vector<Index> dofs;
    std::vector<double> forces;
    for (Index i = 0; i < object.num_points; ++i) {
      for (int axis = 0; axis < object.dimension; ++axis) {
        const Index dof = object.offset + i * object.dimension + axis;
        system.mass[dof] = point_mass[static_cast<std::size_t>(i)];
        if (gravity[static_cast<std::size_t>(axis)] != 0.0) {
          dofs.push_back(dof);
          forces.push_back(gravity[static_cast<std::size_t>(axis)] *
                           point_mass[static_cast<std::size_t>(i)]);
        }
      }
    }
    if (!dofs.empty())
      system.force_fields.push_back(
          std::make_unique<ConstantForce>(std::move(dofs), std::move(forces)));
  }

  void AddFixedConstraint(Node& node, const Component& c, std::vector<SystemParts>& parts) {
    MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr) return;
    MechanicalObjectData& object = *found;
    std::vector<Index> points;
    if (c.parameters.flag("fixAll")) {
      for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
    } else {
      for (const Index index : c.parameters.indices("indices"))
        if (CheckIndex(c, index, object, "index")) points.push_back(index);
    }
    for (const Index point : points) {
      Eigen::Ref<Vector> velocity =
          object.velocity.segment(point * object.dimension, object.dimension);
      if (c.parameters.flag("activate_projectVelocity")) {
        velocity.setZero();
      } else if (!velocity.isZero(0.0)) {
        LogWarn(problems_.file() + ":" + std::to_string(c.element->line) + ": fixed point " +
                std::to_string(point) + " of '" + object.id +
                "' has a non-zero initial velocity: it will drift, as in SOFA "
                "(set activate_projectVelocity=1 to stop it)");
      }
      if (object.system < 0) continue;
      for (int axis = 0; axis < object.dimension; ++axis)
        parts[object.system]
            .fixed[static_cast<std::size_t>(object.offset + point * object.dimension + axis)] =
            true;
    }
  }

  void AddForceField(Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const std::string& type = c.entry->spec.name;
    if (c.entry->force_field_factory != nullptr)
      plugin_force_fields_.emplace_back(&node, &c);
    else if (type == "SpringForceField")
      AddSprings(node, c, parts);
    else if (type == "MeshSpringForceField")
      AddMeshSprings(node, c, parts);
    else if (type == "RegularGridSpringForceField")
      AddGridSprings(node, c, parts);
    else if (type == "ConstantForceField")
      AddConstantForce(node, c, parts);
    else if (type == "LinearForceField")
      AddLinearForce(node, c, parts);
    else if (type == "SinusoidalForceField")
      AddSinusoidalForce(node, c, parts);
    else if (type == "UniformVelocityDampingForceField")
      AddVelocityDamping(node, c, parts);
  }

  // Force fields registered by plugins act on the MechanicalObject of their node. Their factories
  // run in document order, once every mass is known, and are told the object's layout.
  void AddPluginForceFields(std::vector<SystemParts>& parts) {
    for (const auto& [node, c] : plugin_force_fields_) {
      const int line = c->element->line;
      const std::string& type = c->entry->spec.name;
      const MechanicalObjectData* found = NodeObject(*node, *c);
      if (found == nullptr) continue;
      const MechanicalObjectData& object = *found;
      if (object.system < 0) continue;  // a static object: nothing moves, no force needed
      SystemParts& system = parts[object.system];
      std::vector<double> point_mass(static_cast<std::size_t>(object.num_points));
      for (Index i = 0; i < object.num_points; ++i)
        point_mass[static_cast<std::size_t>(i)] = system.mass[object.offset + i * object.dimension];
      ForceFieldContext context;
      context.object = object.id;
      context.dimension = object.dimension;
      context.num_points = object.num_points;
      context.first_dof = object.offset;
      context.point_mass = point_mass;
      context.positions = std::span<const double>(object.position.data(),
                                                  static_cast<std::size_t>(object.num_dofs()));
      context.velocities = std::span<const double>(object.velocity.data(),
                                                   static_cast<std::size_t>(object.num_dofs()));
      try {
        system.force_fields.push_back(
            ComponentRegistry::CreateForceField(*c->entry, c->parameters, context));
      } catch (const ConfigError& error) {
        problems_.Scene(line, type + (error.field().empty() ? "" : " '" + error.field() + "'") +
                                  ": " + error.what());
      } catch (const PluginError& error) {
        problems_.Plugin(line, error.what());
      } catch (const std::exception& error) {
        problems_.Plugin(line, c->entry->origin + ": " + type + " failed: " + error.what());
      }
    }
  }

  // Both ends' objects, checked to be in one system with one template. Returns false if unusable.
  bool SpringObjects(const Node& node, const Component& c, int& first, int& second) {
    first = ResolveObjectLink(node, c, "object1");
    second = ResolveObjectLink(node, c, "object2");
    if (first < 0 || second < 0) return false;
    const MechanicalObjectData& a = objects_[first];
    const MechanicalObjectData& b = objects_[second];
    if (a.dimension != b.dimension) {
      problems_.Scene(c.element->line, "<" + c.element->type + "> links '" + a.id + "' (Vec" +
                                           std::to_string(a.dimension) + ") and '" + b.id +
                                           "' (Vec" + std::to_string(b.dimension) +
                                           ") (expected objects of the same template)");
      return false;
    }
    if (a.system != b.system) {
      problems_.Scene(c.element->line,
                      "<" + c.element->type + "> links '" + a.id + "' and '" + b.id +
                          "', which are integrated by different solvers (expected both under "
                          "one solver node)");
      return false;
    }
    return a.system >= 0;  // springs between static objects do nothing
  }

  void AddSprings(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    int first = -1, second = -1;
    const bool usable = SpringObjects(node, c, first, second);
    if (first < 0 || second < 0) return;
    const MechanicalObjectData& a = objects_[first];
    const MechanicalObjectData& b = objects_[second];
    const Parameters& p = c.parameters;
    const int line = c.element->line;
    std::vector<Spring> springs;
    bool too_many_springs = false;
    const auto add = [&](double i, double j, double ks, double kd, double rest, std::size_t k) {
      const std::string which = "spring " + std::to_string(k + 1);
      if (i != std::floor(i) || j != std::floor(j) || i < 0 || j < 0) {
        problems_.Scene(line, "<" + c.element->type + "> " + which +
                                  ": point indices must be whole numbers >= 0");
        return;
      }
      // Out-of-range doubles (1e300) are reported as such: converting them to Index is undefined.
      const auto index = [](double value, const MechanicalObjectData& object) {
        return value < static_cast<double>(object.num_points) ? static_cast<Index>(value)
                                                              : object.num_points;
      };
      if (!CheckIndex(c, index(i, a), a, which + " index i", i) ||
          !CheckIndex(c, index(j, b), b, which + " index j", j))
        return;
      if (total_springs_ + springs.size() >= kMaxSceneSprings) {
        too_many_springs = true;
        return;
      }
      if (ks < 0 || kd < 0 || rest < 0) {
        problems_.Scene(line, "<" + c.element->type + "> " + which +
                                  ": stiffness, damping and rest length must be >= 0");
        return;
      }
      springs.push_back({a.offset + static_cast<Index>(i) * a.dimension,
                         b.offset + static_cast<Index>(j) * b.dimension, ks, kd, rest});
    };
    if (p.has("spring")) {
      const std::vector<double>& values = p.reals("spring");
      if (values.size() % 5 != 0) {
        problems_.Scene(line,
                        "<" + c.element->type + "> 'spring' has " + std::to_string(values.size()) +
                            " numbers, not a multiple of 5 (expected 'i j ks kd L0' per spring)");
        return;
      }
      for (std::size_t k = 0; k * 5 < values.size(); ++k)
        add(values[5 * k], values[5 * k + 1], values[5 * k + 2], values[5 * k + 3],
            values[5 * k + 4], k);
    } else {
      // SOFA's per-spring lists: shorter lists are extended with their last value.
      const std::vector<Index>& i1 = p.indices("indices1");
      const std::vector<Index>& i2 = p.indices("indices2");
      if (i1.size() != i2.size()) {
        problems_.Scene(line, "<" + c.element->type + "> 'indices1' has " +
                                  std::to_string(i1.size()) + " entries and 'indices2' " +
                                  std::to_string(i2.size()) + " (expected as many)");
        return;
      }
      const auto at = [](const std::vector<double>& list, std::size_t k, double fallback) {
        if (list.empty()) return fallback;
        return k < list.size() ? list[k] : list.back();
      };
      for (std::size_t k = 0; k < i1.size(); ++k)
        add(static_cast<double>(i1[k]), static_cast<double>(i2[k]),
            at(p.reals("stiffness"), k, 100.0), at(p.reals("damping"), k, 5.0),
            at(p.reals("lengths"), k, 0.0), k);
    }
    if (!CountSprings(c, springs.size(), too_many_springs) || !usable || springs.empty()) return;
    parts[a.system].force_fields.push_back(std::make_unique<SpringForceField>(
        a.dimension, std::move(springs), p.flag("exactDampingJacobian")));
  }

  void AddMeshSprings(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    int first = -1, second = -1;
    if (!SpringObjects(node, c, first, second)) return;
    const MechanicalObjectData& object = objects_[first];
    const int line = c.element->line;
    if (first != second) {
      problems_.Scene(
          line, "MeshSpringForceField between two objects is not supported (expected one object)");
      return;
    }
    if (!c.parameters.text("topology").empty()) {
      problems_.Scene(
          line,
          "MeshSpringForceField 'topology' links are not supported (expected the topology in "
          "the same node)");
      return;
    }
    if (!node.topology) {
      problems_.Scene(line,
                      "MeshSpringForceField needs a topology (RegularGridTopology) in node '" +
                          node.path + "'");
      return;
    }
    if (c.parameters.flag("noCompression")) {
      problems_.Scene(line, "MeshSpringForceField 'noCompression=1' is not supported");
      return;
    }
    const Parameters& p = c.parameters;
    const auto stiffness = [&](const char* kind) {
      return p.has("stiffness") ? p.real("stiffness") : p.real(std::string(kind) + "Stiffness");
    };
    const auto damping = [&](const char* kind) {
      return p.has("damping") ? p.real("damping") : p.real(std::string(kind) + "Damping");
    };
    const Topology& topology = *node.topology;
    if (static_cast<Index>(topology.points.size()) != object.num_points) {
      problems_.Scene(line, "MeshSpringForceField: the topology has " +
                                PointCount(static_cast<Index>(topology.points.size())) + " but '" +
                                object.id + "' has " + PointCount(object.num_points));
      return;
    }
    // SOFA's MeshSpringForceField::init: kinds in this order, each only if its stiffness or damping
    // is non-zero; one spring per vertex pair, the first kind to claim it wins; ks = s/L0 and
    // kd = d/L0 with L0 the rest distance.
    std::set<std::pair<Index, Index>> seen;
    std::vector<Spring> springs;
    bool too_many_springs = false;
    const int dim = object.dimension;
    const auto add = [&](Index m1, Index m2, double s, double d) {
      if (too_many_springs || !seen.insert({std::min(m1, m2), std::max(m1, m2)}).second) return;
      if (total_springs_ + springs.size() >= kMaxSceneSprings) {
        too_many_springs = true;
        return;
      }
      const double length = (object.rest_position.segment(m2 * dim, dim) -
                             object.rest_position.segment(m1 * dim, dim))
                                .norm();
      const bool divide = length > std::numeric_limits<double>::epsilon();
      springs.push_back({object.offset + m1 * dim, object.offset + m2 * dim,
                         divide ? s / length : s, divide ? d / length : d, length});
    };
    const auto all_pairs = [&](const auto& element, double s, double d) {
      for (std::size_t k = 0; k < element.size(); ++k)
        for (std::size_t j = k + 1; j < element.size(); ++j) add(element[k], element[j], s, d);
    };
    if (stiffness("lines") != 0 || damping("lines") != 0)
      for (const auto& e : topology.edges) add(e[0], e[1], stiffness("lines"), damping("lines"));
    if (stiffness("triangles") != 0 || damping("triangles") != 0)
      for (const auto& t : topology.triangles)
        all_pairs(t, stiffness("triangles"), damping("triangles"));
    if (stiffness("quads") != 0 || damping("quads") != 0)
      for (const auto& q : topology.quads) all_pairs(q, stiffness("quads"), damping("quads"));
    if (stiffness("tetrahedra") != 0 || damping("tetrahedra") != 0)
      for (const auto& t : topology.tetrahedra)
        all_pairs(t, stiffness("tetrahedra"), damping("tetrahedra"));
    if (stiffness("cubes") != 0 || damping("cubes") != 0)
      for (const auto& h : topology.hexahedra) all_pairs(h, stiffness("cubes"), damping("cubes"));
    if (!CountSprings(c, springs.size(), too_many_springs) || object.system < 0 || springs.empty())
      return;
    parts[object.system].force_fields.push_back(std::make_unique<SpringForceField>(
        dim, std::move(springs), p.flag("exactDampingJacobian")));
  }

  // SOFA's RegularGridSpringForceField walks the grid at each evaluation; the springs it walks are
  // built here once, in the same order, with rest lengths from the grid spacing.
  // Deviation: SOFA leaves these springs out of assembled matrices (direct solvers) and energies;
  // Fluxion includes them everywhere (SOFA's matrix-free CG does include them).
  void AddGridSprings(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    int first = -1, second = -1;
    if (!SpringObjects(node, c, first, second)) return;
    const MechanicalObjectData& object = objects_[first];
    const int line = c.element->line;
    if (!node.topology || first != second) {
      problems_.Scene(line,
                      "RegularGridSpringForceField needs a RegularGridTopology and a "
                      "MechanicalObject in node '" +
                          node.path + "'");
      return;
    }
    const Topology& grid = *node.topology;
    if (static_cast<Index>(grid.points.size()) != object.num_points) {
      problems_.Scene(line, "RegularGridSpringForceField: the grid has " +
                                PointCount(static_cast<Index>(grid.points.size())) + " but '" +
                                object.id + "' has " + PointCount(object.num_points));
      return;
    }
    const Parameters& p = c.parameters;
    const Index nx = grid.grid_size[0], ny = grid.grid_size[1], nz = grid.grid_size[2];
    const auto point = [&](Index x, Index y, Index z) { return nx * (ny * z + y) + x; };
    const auto coordinates = [&](Index id) {
      return Eigen::Vector3d(grid.points[id][0], grid.points[id][1], grid.points[id][2]);
    };
    // Grid spacing vectors.
    const Eigen::Vector3d dx = nx > 1
                                   ? Eigen::Vector3d(coordinates(point(1, 0, 0)) - coordinates(0))
                                   : Eigen::Vector3d::Zero();
    const Eigen::Vector3d dy = ny > 1
                                   ? Eigen::Vector3d(coordinates(point(0, 1, 0)) - coordinates(0))
                                   : Eigen::Vector3d::Zero();
    const Eigen::Vector3d dz = nz > 1
                                   ? Eigen::Vector3d(coordinates(point(0, 0, 1)) - coordinates(0))
                                   : Eigen::Vector3d::Zero();
    const int dim = object.dimension;
    std::vector<Spring> springs;
    bool too_many_springs = false;
    const auto add = [&](Index m1, Index m2, const Eigen::Vector3d& span, double s, double d) {
      if (too_many_springs || total_springs_ + springs.size() >= kMaxSceneSprings) {
        too_many_springs = true;
        return;
      }
      const double length = span.norm();
      springs.push_back(
          {object.offset + m1 * dim, object.offset + m2 * dim, s / length, d / length, length});
    };
    const double ls = p.real("linesStiffness"), ld = p.real("linesDamping");
    if (ls != 0 || ld != 0) {
      for (Index z = 0; z < nz; ++z)
        for (Index y = 0; y < ny; ++y)
          for (Index x = 0; x + 1 < nx; ++x) add(point(x, y, z), point(x + 1, y, z), dx, ls, ld);
      for (Index z = 0; z < nz; ++z)
        for (Index y = 0; y + 1 < ny; ++y)
          for (Index x = 0; x < nx; ++x) add(point(x, y, z), point(x, y + 1, z), dy, ls, ld);
      for (Index z = 0; z + 1 < nz; ++z)
        for (Index y = 0; y < ny; ++y)
          for (Index x = 0; x < nx; ++x) add(point(x, y, z), point(x, y, z + 1), dz, ls, ld);
    }
    const double qs = p.real("quadsStiffness"), qd = p.real("quadsDamping");
    if (qs != 0 || qd != 0) {
      for (Index z = 0; z < nz; ++z)
        for (Index y = 0; y + 1 < ny; ++y)
          for (Index x = 0; x + 1 < nx; ++x) {
            add(point(x, y, z), point(x + 1, y + 1, z), dx + dy, qs, qd);
            add(point(x + 1, y, z), point(x, y + 1, z), dx - dy, qs, qd);
          }
      for (Index z = 0; z + 1 < nz; ++z)
        for (Index y = 0; y < ny; ++y)
          for (Index x = 0; x + 1 < nx; ++x) {
            add(point(x, y, z), point(x + 1, y, z + 1), dx + dz, qs, qd);
            add(point(x + 1, y, z), point(x, y, z + 1), dx - dz, qs, qd);
          }
      for (Index z = 0; z + 1 < nz; ++z)
        for (Index y = 0; y + 1 < ny; ++y)
          for (Index x = 0; x < nx; ++x) {
            add(point(x, y, z), point(x, y + 1, z + 1), dy + dz, qs, qd);
            add(point(x, y + 1, z), point(x, y, z + 1), dy - dz, qs, qd);
          }
    }
    const double cs = p.real("cubesStiffness"), cd = p.real("cubesDamping");
    if (cs != 0 || cd != 0) {
      for (Index z = 0; z + 1 < nz; ++z)
        for (Index y = 0; y + 1 < ny; ++y)
          for (Index x = 0; x + 1 < nx; ++x) {
            add(point(x, y, z), point(x + 1, y + 1, z + 1), dx + dy + dz, cs, cd);
            add(point(x + 1, y, z), point(x, y + 1, z + 1), -dx + dy + dz, cs, cd);
            add(point(x, y + 1, z), point(x + 1, y, z + 1), dx - dy + dz, cs, cd);
            add(point(x, y, z + 1), point(x + 1, y + 1, z), dx + dy - dz, cs, cd);
          }
    }
    if (!CountSprings(c, springs.size(), too_many_springs) || object.system < 0 || springs.empty())
      return;
    parts[object.system].force_fields.push_back(std::make_unique<SpringForceField>(
        dim, std::move(springs), p.flag("exactDampingJacobian")));
  }

  void AddConstantForce(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const int line = c.element->line;
    const MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr) return;
    const MechanicalObjectData& object = *found;
    const Parameters& p = c.parameters;
    const int dim = object.dimension;
    const std::vector<Index> points = PointsOrAll(p, "indices", object);
    for (const Index point : points)
      if (!CheckIndex(c, point, object, "index")) return;
    if (points.empty()) return;
    const int given = int(p.has("forces")) + int(p.has("force")) + int(p.has("totalForce"));
    if (given == 0) {
      problems_.Scene(line, "ConstantForceField needs 'forces', 'force' or 'totalForce'");
      return;
    }
    if (given > 1) {
      problems_.Scene(
          line,
          "ConstantForceField has more than one of 'forces', 'force', 'totalForce' (expected one)");
      return;
    }
    const char* field = p.has("forces") ? "forces" : p.has("force") ? "force" : "totalForce";
    const std::vector<double>& values = p.reals(field);
    const std::size_t n = points.size();
    std::vector<double> per_point;  // n × dim
    if (values.size() == static_cast<std::size_t>(dim) && std::string(field) != "forces") {
      for (std::size_t k = 0; k < n; ++k)
        for (int axis = 0; axis < dim; ++axis)
          per_point.push_back(std::string(field) == "totalForce"
                                  ? values[axis] / static_cast<double>(n)
                                  : values[axis]);
    } else if (std::string(field) == "forces" && values.size() == static_cast<std::size_t>(dim)) {
      for (std::size_t k = 0; k < n; ++k)
        per_point.insert(per_point.end(), values.begin(), values.end());  // SOFA broadcasts one
    } else if (std::string(field) == "forces" &&
               values.size() == n * static_cast<std::size_t>(dim)) {
      per_point = values;
    } else {
      problems_.Scene(line, "ConstantForceField '" + std::string(field) + "' has " +
                                std::to_string(values.size()) + " numbers (expected " +
                                (std::string(field) == "forces"
                                     ? std::to_string(dim) + " or " + std::to_string(n * dim) +
                                           ": one vector per index"
                                     : std::to_string(dim) + ": one vector") +
                                ")");
      return;
    }
    if (object.system < 0) return;
    std::vector<Index> dofs;
    std::vector<double> forces;
    for (std::size_t k = 0; k < n; ++k) {
      const Index target = p.flag("indexFromEnd") ? object.num_points - 1 - points[k] : points[k];
      for (int axis = 0; axis < dim; ++axis) {
        dofs.push_back(object.offset + target * dim + axis);
        forces.push_back(per_point[k * dim + axis]);
      }
    }
    parts[object.system].force_fields.push_back(
        std::make_unique<ConstantForce>(std::move(dofs), std::move(forces)));
  }

  void AddVelocityDamping(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr || found->system < 0) return;
    const MechanicalObjectData& object = *found;
    std::vector<Index> dofs;
    for (Index d = 0; d < object.num_dofs(); ++d) dofs.push_back(object.offset + d);
    parts[object.system].force_fields.push_back(std::make_unique<UniformVelocityDamping>(
        std::move(dofs), c.parameters.real("dampingCoefficient"), c.parameters.flag("implicit")));
  }

  // The system DOF of each point of `points` (axis 0), or false after reporting the first point
  // out of range.
  bool PointDofs(const Component& c, const MechanicalObjectData& object,
                 const std::vector<Index>& points, std::vector<Index>& dofs) {
    for (const Index point : points) {
      if (!CheckIndex(c, point, object, "point")) return false;
      dofs.push_back(object.offset + point * object.dimension);
    }
    return true;
  }

  // SOFA's LinearForceField (mechanics/time_dependent_forces.h); its `points` default to none.
  void AddLinearForce(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const int line = c.element->line;
    const MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr) return;
    const MechanicalObjectData& object = *found;
    const Parameters& p = c.parameters;
    const int dim = object.dimension;
    const std::vector<double>& times = p.reals("times");
    const std::vector<double>& forces = p.reals("forces");
    const auto bad = std::adjacent_find(times.begin(), times.end(), std::greater_equal<>());
    if (bad != times.end()) {
      problems_.Scene(
          line, "LinearForceField 'times' is not strictly increasing: " + FormatReal(*(bad + 1)) +
                    " follows " + FormatReal(*bad) + " (expected increasing key times)");
      return;
    }
    if (forces.size() != times.size() * static_cast<std::size_t>(dim)) {
      problems_.Scene(line, "LinearForceField 'forces' has " + std::to_string(forces.size()) +
                                " numbers (expected " + std::to_string(times.size() * dim) +
                                ": one Vec" + std::to_string(dim) + " per key time)");
      return;
    }
    std::vector<Index> dofs;
    if (!PointDofs(c, object, p.indices("points"), dofs)) return;
    const std::string where = problems_.file() + ":" + std::to_string(line) + ": LinearForceField ";
    if (dofs.empty() || times.empty()) {
      LogWarn(where + "has no 'points' or no key 'times': it applies no force (as in SOFA)");
      return;
    }
    // SOFA holds the last key's force unscaled: say so when the multiplier would have changed it.
    const bool last_is_zero =
        std::all_of(forces.end() - dim, forces.end(), [](double value) { return value == 0.0; });
    if (p.real("force") != 1.0 && !last_is_zero)
      LogWarn(where + "'force' = " + FormatReal(p.real("force")) +
              " does not scale the last key's force, applied as given from t = " +
              FormatReal(times.back()) + " on (as in SOFA)");
    if (object.system < 0) return;
    parts[object.system].force_fields.push_back(
        std::make_unique<KeyFramedForce>(dim, std::move(dofs), times, forces, p.real("force")));
  }

  // Fazarinc's driving force A·cos(ωt + φ) (mechanics/time_dependent_forces.h); `amplitude`
  // broadcasts one vector to every index, as ConstantForceField's `forces`.
  void AddSinusoidalForce(const Node& node, const Component& c, std::vector<SystemParts>& parts) {
    const int line = c.element->line;
    const MechanicalObjectData* found = NodeObject(node, c);
    if (found == nullptr) return;
    const MechanicalObjectData& object = *found;
    const Parameters& p = c.parameters;
    const int dim = object.dimension;
    const std::vector<Index> points = PointsOrAll(p, "indices", object);
    std::vector<Index> dofs;
    if (!PointDofs(c, object, points, dofs)) return;
    if (!p.has("amplitude") || !p.has("omega")) {
      problems_.Scene(line, "SinusoidalForceField needs 'amplitude' and 'omega'");
      return;
    }
    const std::vector<double>& given = p.reals("amplitude");
    const std::size_t n = dofs.size(), vector = static_cast<std::size_t>(dim);
    std::vector<double> amplitudes;  // n × dim
    if (given.size() == vector) {
      for (std::size_t k = 0; k < n; ++k)
        amplitudes.insert(amplitudes.end(), given.begin(), given.end());
    } else if (given.size() == n * vector) {
      amplitudes = given;
    } else {
      problems_.Scene(line, "SinusoidalForceField 'amplitude' has " + std::to_string(given.size()) +
                                " numbers (expected " + std::to_string(dim) + " or " +
                                std::to_string(n * vector) +
                                ": one vector for every index or one per index)");
      return;
    }
    if (object.system < 0 || dofs.empty()) return;
    parts[object.system].force_fields.push_back(std::make_unique<SinusoidalForce>(
        dim, std::move(dofs), std::move(amplitudes), p.real("omega"), p.real("phase")));
  }

  // --- Checks and solvers -----------------------------------------------------------------------

  void CheckMasses(const std::vector<SystemParts>& parts) {
    for (const MechanicalObjectData& object : objects_) {
      if (object.system < 0) continue;
      const SystemParts& system = parts[object.system];
      for (Index i = 0; i < object.num_points; ++i) {
        const Index dof = object.offset + i * object.dimension;
        if (system.fixed[static_cast<std::size_t>(dof)] || system.mass[dof] > 0.0) continue;
        problems_.Scene(
            object.line,
            "point " + std::to_string(i) + " of '" + object.id +
                "' has no mass and is not fixed (expected a UniformMass or DiagonalMass "
                "in its node, or a FixedProjectiveConstraint)");
        break;
      }
    }
  }

  const Component* FindLinearSolver(const Node& solver_node) {
    const Component& solver = *solver_node.solver;
    const std::string& link = solver.parameters.text("linearSolver");
    if (!link.empty()) {
      // "@name" or "@path/name": the last segment names a linear solver in the solver's subtree.
      const std::string name = link.substr(link.find_last_of("@/") + 1);
      const Component* found = nullptr;
      ForEachConst(solver_node, [&](const Node& node) {
        for (const Component& c : node.components)
          if (!found && c.kind() == ComponentKind::kLinearSolver && c.name == name) found = &c;
      });
      if (found == nullptr)
        problems_.Scene(solver.element->line, "'linearSolver' link '" + link +
                                                  "' does not name a linear solver in node '" +
                                                  solver_node.path + "' or below");
      return found;
    }
    const Component* found = nullptr;
    ForEachConst(solver_node, [&](const Node& node) {
      for (const Component& c : node.components)
        if (!found && c.kind() == ComponentKind::kLinearSolver) found = &c;
    });
    return found;
  }

  template <class F>
  void ForEachConst(const Node& node, F&& visit) {
    visit(node);
    for (const auto& child : node.children) ForEachConst(*child, visit);
  }

  std::vector<SolverNode> CreateSolvers(std::vector<SystemParts>& parts) {
    std::vector<SolverNode> nodes;
    for (std::size_t k = 0; k < solver_owners_.size(); ++k) {
      const Node& owner = *solver_owners_[k];
      const Component& solver = *owner.solver;
      SolverNode node;
      node.solver_type = solver.entry->spec.name;
      node.node_path = owner.path;
      try {
        node.solver = ComponentRegistry::CreateSolver(*solver.entry, solver.parameters);
      } catch (const ConfigError& error) {
        problems_.Scene(solver.element->line,
                        solver.entry->spec.name +
                            (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
                            error.what());
        continue;
      } catch (const PluginError& error) {
        problems_.Plugin(solver.element->line, error.what());
        continue;
      }
      // The instance's traits: its parameters may change what it needs (RefineTraits).
      const SolverTraits traits = node.solver->RefineTraits(solver.entry->traits);
      if (const Component* linear = FindLinearSolver(owner)) {
        if (linear->entry->spec.name == "CGLinearSolver")
          node.linear_solver = std::make_unique<CgLinearSolver>(linear->parameters);
        else
          node.linear_solver = std::make_unique<LdlLinearSolver>(linear->parameters);
      } else if ((traits.flags & kNeedsLinearSolver) && options_.solver_override) {
        // The scene was written for another solver: give the replacement a direct solver.
        LogInfo(owner.path + ": " + solver.entry->spec.name +
                " uses a SparseLDLSolver (the scene has no linear solver)");
        node.linear_solver = std::make_unique<LdlLinearSolver>(Parameters());
      } else if (traits.flags & kNeedsLinearSolver) {
        problems_.Scene(solver.element->line,
                        solver.entry->spec.name +
                            " needs a linear solver (expected "
                            "<CGLinearSolver/> or <SparseLDLSolver/> in node '" +
                            owner.path + "')");
      }
      node.system = std::make_unique<AssembledSystem>(std::move(parts[k]));
      node.state.x.resize(node.system->num_dofs());
      node.state.v.resize(node.system->num_dofs());
      for (std::size_t o = 0; o < objects_.size(); ++o) {
        const MechanicalObjectData& object = objects_[o];
        if (object.system != static_cast<int>(k)) continue;
        node.state.x.segment(object.offset, object.num_dofs()) = object.position;
        node.state.v.segment(object.offset, object.num_dofs()) = object.velocity;
        node.objects.push_back(static_cast<int>(o));
      }
      nodes.push_back(std::move(node));
    }
    return nodes;
  }

  const SceneDescription& scene_;
  const ComponentRegistry& registry_;
  const PluginLoader* plugins_;
  BuildOptions options_;
  Problems problems_;
  std::unique_ptr<Node> root_;
  std::vector<MechanicalObjectData> objects_;
  std::vector<Node*> solver_owners_;
  std::vector<std::pair<Node*, const Component*>> plugin_force_fields_;
  Index topology_points_ = 0;      // points of every grid so far
  Index object_points_ = 0;        // points of every mechanical object so far
  std::size_t total_springs_ = 0;  // springs of every force field so far
};

}  // namespace

Simulation BuildSimulation(const SceneDescription& scene, const ComponentRegistry& registry,
                           const PluginLoader* plugins, const BuildOptions& options) {
  return Builder(scene, registry, plugins, options).Build();
}

}  // namespace fluxion::internal
