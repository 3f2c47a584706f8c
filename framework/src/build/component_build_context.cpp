#include "build/component_build_context.h"

#include <algorithm>

#include "fluxion/log.h"

namespace fluxion::internal {

void ComponentBuildContext::Error(const std::string& message) {
  state_.problems.Scene(line(), message);
}

void ComponentBuildContext::PluginProblem(const std::string& message) {
  state_.problems.Plugin(line(), message);
}

std::string ComponentBuildContext::Where() const { return state_.problems.Where(line()) + ": "; }

void ComponentBuildContext::Warn(const std::string& message) { LogWarn(Where() + message); }

std::array<double, 3> ComponentBuildContext::gravity() const {
  for (const Node* node = &node_; node != nullptr; node = node->parent)
    if (node->gravity) return *node->gravity;
  const std::vector<double>& root = state_.root->parameters.reals("gravity");
  return {root[0], root[1], root[2]};
}

void ComponentBuildContext::SetGravity(const std::array<double, 3>& gravity) {
  node_.gravity = gravity;
}

namespace {

template <std::size_t N>
std::vector<Index> Flattened(const std::vector<std::array<Index, N>>& elements) {
  std::vector<Index> flat;
  flat.reserve(elements.size() * N);
  for (const auto& element : elements) flat.insert(flat.end(), element.begin(), element.end());
  return flat;
}

}  // namespace

void ComponentBuildContext::SetTopology(Topology topology) {
  state_.topology_points += static_cast<Index>(topology.points.size());
  node_.topology = std::make_shared<const Topology>(std::move(topology));
  // A topology's data, for links such as position="@grid.position" or src="@topology".
  const Topology& built = *node_.topology;
  std::vector<double> position;
  position.reserve(built.points.size() * 3);
  for (const auto& point : built.points)
    position.insert(position.end(), point.begin(), point.end());
  SetOutput("position", std::move(position));
  SetOutput("edges", Flattened(built.edges));
  SetOutput("triangles", Flattened(built.triangles));
  SetOutput("quads", Flattened(built.quads));
  SetOutput("tetrahedra", Flattened(built.tetrahedra));
  SetOutput("hexahedra", Flattened(built.hexahedra));
}

void ComponentBuildContext::SetOutput(const std::string& name, FieldValue value) {
  state_.outputs[&component_][name] = std::move(value);
}

std::optional<BuildContext::InputFile> ComponentBuildContext::ReadInputFile(
    const std::string& name) {
  std::string why;
  std::optional<InputFile> file = state_.inputs.Read(name, why);
  if (!file) Error("<" + type() + "> " + why);
  return file;
}

void ComponentBuildContext::RequirePlugin(const std::string& plugin_name) {
  if (state_.plugins == nullptr || state_.plugins->FindLoaded(plugin_name) == nullptr) {
    PluginProblem("required plugin '" + plugin_name + "' was not found" + state_.SearchPathText());
    state_.missing_plugins.push_back(plugin_name);
  }
}

void ComponentBuildContext::AddObject(ObjectModel object) {
  object.id = node_.path + "/" + object.name;
  object.line = line();
  object.topology = node_.topology;
  for (const ObjectModel& other : state_.objects) {
    if (other.id == object.id)
      Error("two objects have the id '" + object.id + "' (expected distinct names)");
  }
  state_.object_points += object.num_points;
  node_.object = static_cast<int>(state_.objects.size());
  state_.objects.push_back(std::move(object));
  // The object's data, for links such as position="@dofs.rest_position" (BoxROI's input).
  const ObjectModel& added = state_.objects.back();
  const auto values = [](const Vector& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
  };
  SetOutput("position", values(added.position));
  SetOutput("velocity", values(added.velocity));
  SetOutput("rest_position", values(added.rest_position));
}

const ObjectModel* ComponentBuildContext::NodeObject() {
  if (node_.object >= 0) return &state_.objects[static_cast<std::size_t>(node_.object)];
  Error("<" + type() + "> needs a MechanicalObject in node '" + node_.path + "'");
  return nullptr;
}

const ObjectModel* ComponentBuildContext::LinkedObject(std::string_view field) {
  const std::string name(field);
  const int index = ResolveObjectLink(state_, node_, type(), name, parameters().text(name), line());
  return index < 0 ? nullptr : &state_.objects[static_cast<std::size_t>(index)];
}

ObjectModel& ComponentBuildContext::Mutable(const ObjectModel& object) {
  FLUXION_DEMAND(&object >= state_.objects.data() &&
                 &object < state_.objects.data() + state_.objects.size());
  return state_.objects[static_cast<std::size_t>(&object - state_.objects.data())];
}

void ComponentBuildContext::SetPointMass(const ObjectModel& object, std::span<const double> mass) {
  FLUXION_DEMAND(static_cast<Index>(mass.size()) == object.num_points);
  if (object.system < 0) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  for (Index i = 0; i < object.num_points; ++i)
    for (int axis = 0; axis < object.dimension; ++axis)
      system.mass[object.offset + i * object.dimension + axis] = mass[static_cast<std::size_t>(i)];
}

std::vector<double> ComponentBuildContext::PointMass(const ObjectModel& object) const {
  std::vector<double> mass(static_cast<std::size_t>(object.num_points), 0.0);
  if (object.system < 0) return mass;
  const SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  for (Index i = 0; i < object.num_points; ++i)
    mass[static_cast<std::size_t>(i)] = system.mass[object.offset + i * object.dimension];
  return mass;
}

void ComponentBuildContext::FixPoint(const ObjectModel& object, Index point) {
  FLUXION_DEMAND(point >= 0 && point < object.num_points);
  if (object.system < 0) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  for (int axis = 0; axis < object.dimension; ++axis)
    system.fixed[static_cast<std::size_t>(object.offset + point * object.dimension + axis)] = true;
}

void ComponentBuildContext::FixDof(const ObjectModel& object, Index point, int axis) {
  FLUXION_DEMAND(point >= 0 && point < object.num_points && axis >= 0 && axis < object.dimension);
  if (object.system < 0) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  system.fixed[static_cast<std::size_t>(object.offset + point * object.dimension + axis)] = true;
}

void ComponentBuildContext::SetInitialVelocity(const ObjectModel& object, Index point,
                                               std::span<const double> velocity) {
  FLUXION_DEMAND(point >= 0 && point < object.num_points &&
                 static_cast<int>(velocity.size()) == object.dimension);
  ObjectModel& target = Mutable(object);
  for (int axis = 0; axis < object.dimension; ++axis)
    target.velocity[point * object.dimension + axis] = velocity[static_cast<std::size_t>(axis)];
}

void ComponentBuildContext::AddForceField(const ObjectModel& object,
                                          std::unique_ptr<ForceField> field) {
  if (object.system < 0 || !field) return;
  state_.parts[static_cast<std::size_t>(object.system)].force_fields.push_back(std::move(field));
}

bool ComponentBuildContext::ReserveSprings(std::size_t count) {
  if (count > spring_budget()) {
    Error("<" + type() + "> makes the scene hold more than " + std::to_string(kMaxSceneSprings) +
          " springs (expected at most " + std::to_string(kMaxSceneSprings) + ")");
    return false;
  }
  state_.total_springs += count;
  return true;
}

}  // namespace fluxion::internal
