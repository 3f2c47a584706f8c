#include "build/component_build_context.h"

#include <algorithm>
#include <array>

#include "build/data_links.h"
#include "build/memory_charges.h"
#include "core/text_parsing.h"

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

namespace {

template <std::size_t N>
std::vector<Index> Flattened(const std::vector<std::array<Index, N>>& elements) {
  std::vector<Index> flat;
  flat.reserve(elements.size() * N);
  for (const auto& element : elements) flat.insert(flat.end(), element.begin(), element.end());
  return flat;
}

// Gives `node` its topology and publishes the topology's data under `component`, for links such
// as position="@grid.position" or src="@topology".
void PublishTopology(BuildState& state, Node& node, const Component& component, Topology topology) {
  std::shared_ptr<const Topology>& slot = state.topologies[&component];
  const Index before = slot ? static_cast<Index>(slot->points.size()) : 0;
  state.topology_points += static_cast<Index>(topology.points.size()) - before;
  slot = std::make_shared<const Topology>(std::move(topology));
  if (node.topology_component == &component || node.topology_component == nullptr)
    node.topology = slot;
  // Flattened when a link reads them, from this version of the topology (a topological mapping
  // may publish another one later).
  const std::shared_ptr<const Topology> built = slot;
  auto& outputs = state.outputs[&component];
  outputs["position"] = PublishedData(std::function<FieldValue()>([built] {
    std::vector<double> position;
    position.reserve(built->points.size() * 3);
    for (const auto& point : built->points)
      position.insert(position.end(), point.begin(), point.end());
    return FieldValue(std::move(position));
  }));
  const auto publish = [&](const char* name, auto list) {
    outputs[name] = PublishedData(
        std::function<FieldValue()>([built, list] { return FieldValue(Flattened(*built.*list)); }));
  };
  publish("edges", &Topology::edges);
  publish("triangles", &Topology::triangles);
  publish("quads", &Topology::quads);
  publish("tetrahedra", &Topology::tetrahedra);
  publish("hexahedra", &Topology::hexahedra);
}

// Publishes the data of object `index` under `component`: position, velocity, rest_position as
// they are when a link reads them.
void PublishObject(BuildState& state, const Component& component, std::size_t index) {
  auto& outputs = state.outputs[&component];
  const auto publish = [&](const char* name, Vector ObjectModel::*vector) {
    outputs[name] = PublishedData(std::function<FieldValue()>([&state, index, vector] {
      const Vector& v = state.objects[index].*vector;
      return FieldValue(std::vector<double>(v.data(), v.data() + v.size()));
    }));
  };
  publish("position", &ObjectModel::position);
  publish("velocity", &ObjectModel::velocity);
  publish("rest_position", &ObjectModel::rest_position);
}

}  // namespace

void ComponentBuildContext::SetTopology(Topology topology) {
  PublishTopology(state_, node_, component_, std::move(topology));
}

std::pair<Node*, const Component*> ComponentBuildContext::LinkedTopologyComponent(
    std::string_view field) {
  const std::string name(field);
  const std::string& text = parameters().text(name);
  // A link to a node names the node's topology, when it has exactly one (SOFA: the node's only
  // object of the link's type; SOFA's Hexa2TetraTopologicalMapping examples write input="@../").
  std::string why;
  if (Node* target = ResolveNodeLink(*state_.root, node_, text, why)) {
    Component* only = nullptr;
    int count = 0;
    for (Component& c : target->components)
      if (c.valid && c.kind() == ComponentKind::kTopology) {
        only = &c;
        ++count;
      }
    if (count != 1) {
      Error("<" + type() + "> '" + name + "' = '" + Shown(text) + "' names node '" + target->path +
            "', which has " +
            (count == 0 ? std::string("no topology") : std::to_string(count) + " topologies") +
            " (expected a node with one topology, or the topology's own name)");
      return {nullptr, nullptr};
    }
    return FinishTopologyLink(name, text, *target, *only);
  }
  if (!why.empty()) {
    Error("<" + type() + "> link '" + Shown(text) + "' " + why);
    return {nullptr, nullptr};
  }
  const auto [node, component] = ResolveComponentLink(state_, node_, text, line());
  if (component == nullptr) return {nullptr, nullptr};
  return FinishTopologyLink(name, text, *node, *component);
}

std::pair<Node*, const Component*> ComponentBuildContext::FinishTopologyLink(
    const std::string& name, const std::string& text, Node& node, Component& found) {
  Component* component = &found;
  if (component->kind() != ComponentKind::kTopology) {
    Error("<" + type() + "> '" + name + "' = '" + Shown(text) + "' names <" +
          component->element->type + "> '" + component->name +
          "' (expected a topology: a container, MeshTopology or a grid)");
    return {nullptr, nullptr};
  }
  if (state_.building.count(component) != 0) {
    Error("<" + type() + "> '" + name + "' = '" + Shown(text) +
          "' closes a cycle of links (expected a topology that does not depend on this one)");
    return {nullptr, nullptr};
  }
  BuildComponent(state_, node, *component);  // once: usually built already, in document order
  if (state_.topologies.count(component) == 0) {
    Error("<" + type() + "> '" + name + "' = '" + Shown(text) +
          "' names a topology that could not be built");
    return {nullptr, nullptr};
  }
  return {&node, component};
}

std::shared_ptr<const Topology> ComponentBuildContext::LinkedTopology(std::string_view field) {
  const std::string name(field);
  if (!parameters().has(name) ||
      parameters().text(name).find_first_not_of(" \t\r\n") == std::string::npos)
    return node_.topology;
  const auto [node, component] = LinkedTopologyComponent(field);
  return component == nullptr ? nullptr : state_.topologies.at(component);
}

void ComponentBuildContext::SetLinkedTopology(std::string_view field, Topology topology) {
  const auto [node, component] = LinkedTopologyComponent(field);
  if (component != nullptr) PublishTopology(state_, *node, *component, std::move(topology));
}

void ComponentBuildContext::SetOutput(const std::string& name, FieldValue value) {
  ChargeData(state_, HeldBytes(value), line(),
             "<" + type() + "> '" + Shown(component_.name) + "' output '" + name + "'");
  state_.outputs[&component_][name] = PublishedData(std::move(value));
}

std::optional<FieldValue> ComponentBuildContext::ContextOutput(std::string_view type,
                                                               std::string_view name,
                                                               std::string_view output) {
  for (const Node* node = &node_; node != nullptr; node = node->parent)
    for (const Component& component : node->components) {
      if (!component.valid || component.entry->spec.name != type) continue;
      if (!name.empty() && component.name != name) continue;
      const auto published = state_.outputs.find(&component);
      if (published == state_.outputs.end()) return std::nullopt;
      const auto data = published->second.find(output);
      if (data == published->second.end()) return std::nullopt;
      return data->second.value();
    }
  return std::nullopt;
}

std::optional<BuildContext::InputFile> ComponentBuildContext::ReadInputFile(
    const std::string& name) {
  std::string why;
  std::optional<InputFile> file = state_.inputs.Read(name, why);
  if (!file) Error("<" + type() + "> " + why);
  return file;
}

bool ComponentBuildContext::AddInputFolder(const std::string& folder) {
  std::string why;
  if (state_.inputs.AddFolder(folder, why)) return true;
  Error("<" + type() + "> " + why);
  return false;
}

void ComponentBuildContext::RequirePlugin(const std::string& plugin_name) {
  if (state_.rebuild != nullptr) return;  // checked when the scene was first built
  if (state_.plugins == nullptr || state_.plugins->FindLoaded(plugin_name) == nullptr) {
    PluginProblem("required plugin '" + plugin_name + "' was not found" + state_.SearchPathText());
    state_.missing_plugins.push_back(plugin_name);
  }
}

void ComponentBuildContext::AddObject(ObjectModel object) {
  object.id = node_.path + "/" + object.name;
  object.line = line();
  object.topology = node_.topology;
  if (!state_.object_ids.insert(object.id).second)
    Error("two objects have the id '" + object.id + "' (expected distinct names)");
  state_.object_points += object.num_points;
  node_.object = static_cast<int>(state_.objects.size());
  state_.objects.push_back(std::move(object));
  // The object's data, for links such as position="@dofs.rest_position" (BoxROI's input): read
  // from the object when a link reads them.
  PublishObject(state_, component_, static_cast<std::size_t>(node_.object));
}

bool ComponentBuildContext::CheckMapping(const ObjectModel& child, const ObjectModel& parent,
                                         Index rows) {
  const int child_index = IndexOf(child), parent_index = IndexOf(parent);
  if (child_index == parent_index) {
    Error("<" + type() + "> maps '" + child.id + "' onto itself (expected 'input' and 'output' " +
          "to name two different objects)");
    return false;
  }
  if (child.mapped_from >= 0) {
    Error("<" + type() + "> maps '" + child.id + "', which is already mapped from '" +
          state_.objects[static_cast<std::size_t>(child.mapped_from)].id +
          "' (expected one mechanical mapping per object)");
    return false;
  }
  // A cycle of mappings has no independent DOFs to start from.
  for (int above = parent_index; above >= 0;
       above = state_.objects[static_cast<std::size_t>(above)].mapped_from) {
    if (above == child_index) {
      Error("<" + type() + "> maps '" + child.id + "' from '" + parent.id +
            "', which is mapped from it (expected mappings without a cycle)");
      return false;
    }
  }
  if (rows % child.dimension != 0) {
    Error("<" + type() + "> gives " + std::to_string(rows) + " values to '" + child.id + "' (Vec" +
          std::to_string(child.dimension) + ") (expected whole points)");
    return false;
  }
  return true;
}

void ComponentBuildContext::AddMapping(const ObjectModel& child,
                                       std::span<const ObjectModel* const> parents,
                                       MappedObject mapped, const PositionMap& positions) {
  const int child_index = IndexOf(child);
  for (const ObjectModel* parent : parents) mapped.parents.push_back(IndexOf(*parent));
  mapped.object = child_index;
  mapped.parent = mapped.parents.front();
  mapped.line = line();
  // A multi-mapping's input: the parents' vectors one after another.
  const auto stacked = [&](Vector ObjectModel::*member) {
    if (parents.size() == 1) return Vector((*parents.front()).*member);
    Index size = 0;
    for (const ObjectModel* parent : parents) size += (parent->*member).size();
    Vector out(size);
    Index at = 0;
    for (const ObjectModel* parent : parents) {
      out.segment(at, (parent->*member).size()) = parent->*member;
      at += (parent->*member).size();
    }
    return out;
  };
  // The child takes its size and state from the mapping (SOFA's Mapping::init: apply, applyJ;
  // with applyRestPosition, apply on the rest positions too); otherwise its rest positions keep
  // their own values unless their size no longer fits.
  const Parameters& p = parameters();
  const bool apply_rest = p.has("applyRestPosition") && p.flag("applyRestPosition");
  ObjectModel& target = Mutable(child);
  const Index old_points = target.num_points;
  target.mapped_from = mapped.parent;
  target.num_points = mapped.jacobian.rows() / child.dimension;
  target.offset = 0;
  target.position = positions(mapped.jacobian, stacked(&ObjectModel::position));
  target.velocity = mapped.jacobian * stacked(&ObjectModel::velocity);
  if (apply_rest || target.rest_position.size() != target.num_dofs())
    target.rest_position = positions(mapped.jacobian, stacked(&ObjectModel::rest_position));
  if (target.external_force.size() != target.num_dofs())
    target.external_force = Vector::Zero(target.num_dofs());
  state_.object_points += target.num_points - old_points;
  state_.mapped.push_back(std::move(mapped));
  // Links such as "@dofs.position" read the mapped state.
  ForEachNode(*state_.root, [&](const Node& node) {
    if (node.object != child_index) return;
    for (const Component& component : node.components) {
      if (component.kind() != ComponentKind::kState) continue;
      PublishObject(state_, component, static_cast<std::size_t>(child_index));
    }
  });
}

void ComponentBuildContext::MapObject(const ObjectModel& child, const ObjectModel& parent,
                                      const SparseMatrix& jacobian) {
  if (!CheckMapping(child, parent, jacobian.rows())) return;
  if (jacobian.cols() != parent.num_dofs()) {
    Error("<" + type() + "> gives a Jacobian with " + std::to_string(jacobian.cols()) +
          " columns from '" + parent.id +
          "' (expected one per DOF of the input: " + std::to_string(parent.num_dofs()) + ")");
    return;
  }
  MappedObject mapped;
  mapped.jacobian = jacobian;
  const ObjectModel* const parents[] = {&parent};
  AddMapping(child, parents, std::move(mapped),
             [](const LinearMapping::RowMajorMatrix& j, const Vector& x) { return Vector(j * x); });
}

void ComponentBuildContext::MapObjectFromParents(const ObjectModel& child,
                                                 std::span<const ObjectModel* const> parents,
                                                 const SparseMatrix& jacobian) {
  if (parents.empty()) throw UsageError(type() + ": MapObjectFromParents was given no parent");
  Index columns = 0;
  for (std::size_t k = 0; k < parents.size(); ++k) {
    FLUXION_DEMAND(parents[k] != nullptr);
    if (!CheckMapping(child, *parents[k], jacobian.rows())) return;
    for (std::size_t l = 0; l < k; ++l) {
      if (parents[l] == parents[k]) {
        Error("<" + type() + "> names '" + parents[k]->id +
              "' twice among its inputs (expected distinct objects)");
        return;
      }
    }
    columns += parents[k]->num_dofs();
  }
  if (jacobian.cols() != columns) {
    Error("<" + type() + "> gives a Jacobian with " + std::to_string(jacobian.cols()) +
          " columns (expected one per DOF of its inputs: " + std::to_string(columns) + ")");
    return;
  }
  MappedObject mapped;
  mapped.jacobian = jacobian;
  AddMapping(child, parents, std::move(mapped),
             [](const LinearMapping::RowMajorMatrix& j, const Vector& x) { return Vector(j * x); });
}

void ComponentBuildContext::MapObject(const ObjectModel& child, const ObjectModel& parent,
                                      std::unique_ptr<Mapping> mapping) {
  if (!mapping) throw UsageError(type() + ": MapObject was given no mapping");
  if (!CheckMapping(child, parent, mapping->num_outputs())) return;
  if (parent.mapped_from >= 0) {
    Error("<" + type() + "> maps from '" + parent.id +
          "', which is itself mapped (expected the input of a nonlinear mapping to be an object "
          "with DOFs of its own)");
    return;
  }
  std::vector<MatrixEntry> entries;
  mapping->JacobianEntries(entries);
  for (const MatrixEntry& e : entries)
    FLUXION_DEMAND(e.row >= 0 && e.row < mapping->num_outputs() && e.col >= 0 &&
                   e.col < parent.num_dofs());
  // J's pattern with its values at the initial state.
  std::vector<double> values(entries.size());
  Vector initial(mapping->num_outputs());
  mapping->Apply(parent.position.data(), initial.data(), values.data());
  std::vector<Eigen::Triplet<double, int>> triplets;
  for (std::size_t k = 0; k < entries.size(); ++k)
    triplets.emplace_back(static_cast<int>(entries[k].row), static_cast<int>(entries[k].col),
                          values[k]);
  MappedObject mapped;
  mapped.jacobian = LinearMapping::RowMajorMatrix(mapping->num_outputs(), parent.num_dofs());
  mapped.jacobian.setFromTriplets(triplets.begin(), triplets.end());
  const Mapping& phi = *mapping;
  mapped.nonlinear = std::shared_ptr<const Mapping>(std::move(mapping));
  const ObjectModel* const parents[] = {&parent};
  AddMapping(child, parents, std::move(mapped),
             [&phi](const LinearMapping::RowMajorMatrix& /*j*/, const Vector& x) {
               Vector out(phi.num_outputs());
               phi.Apply(x.data(), out.data(), nullptr);
               return out;
             });
}

const ObjectModel* ComponentBuildContext::NodeObject() {
  // SOFA's context lookup (Node::getMechanicalState): the node's object, else the nearest
  // ancestor's — a force field beside a mapped topology acts on the object above it.
  for (const Node* node = &node_; node != nullptr; node = node->parent)
    if (node->object >= 0) return &state_.objects[static_cast<std::size_t>(node->object)];
  Error("<" + type() + "> needs a MechanicalObject in node '" + node_.path + "' or above it");
  return nullptr;
}

const ObjectModel* ComponentBuildContext::LinkedObject(std::string_view field) {
  const std::string name(field);
  const int index = ResolveObjectLink(state_, node_, type(), name, parameters().text(name), line());
  return index < 0 ? nullptr : &state_.objects[static_cast<std::size_t>(index)];
}

std::vector<const ObjectModel*> ComponentBuildContext::LinkedObjects(std::string_view field) {
  const std::string name(field);
  const std::string& text = parameters().text(name);
  std::vector<const ObjectModel*> objects;
  std::size_t at = 0;
  while ((at = text.find_first_not_of(" \t\r\n", at)) != std::string::npos) {
    const std::size_t end = std::min(text.find_first_of(" \t\r\n", at), text.size());
    const int index =
        ResolveObjectLink(state_, node_, type(), name, text.substr(at, end - at), line());
    if (index < 0) return {};
    objects.push_back(&state_.objects[static_cast<std::size_t>(index)]);
    at = end;
  }
  if (objects.empty())
    Error("<" + type() + "> '" + name +
          "' names no object (expected links such as \"@../a @../b\")");
  return objects;
}

ObjectModel& ComponentBuildContext::Mutable(const ObjectModel& object) {
  FLUXION_DEMAND(&object >= state_.objects.data() &&
                 &object < state_.objects.data() + state_.objects.size());
  return state_.objects[static_cast<std::size_t>(&object - state_.objects.data())];
}

int ComponentBuildContext::IndexOf(const ObjectModel& object) const {
  FLUXION_DEMAND(&object >= state_.objects.data() &&
                 &object < state_.objects.data() + state_.objects.size());
  return static_cast<int>(&object - state_.objects.data());
}

SystemParts* ComponentBuildContext::PartsFor(const ObjectModel& object) {
  if (object.system < 0) return nullptr;
  if (object.mapped_from >= 0) {
    MappedObject* mapped = state_.FindMapped(IndexOf(object));
    FLUXION_DEMAND(mapped != nullptr);
    return &mapped->parts;
  }
  return &state_.parts[static_cast<std::size_t>(object.system)];
}

const SystemParts* ComponentBuildContext::PartsFor(const ObjectModel& object) const {
  return const_cast<ComponentBuildContext*>(this)->PartsFor(object);
}

bool ComponentBuildContext::RefuseMapped(const ObjectModel& object) {
  if (object.mapped_from < 0) return true;
  if (!refused_mapped_)
    Error("<" + type() + "> acts on '" + object.id + "', which is mapped from '" +
          state_.objects[static_cast<std::size_t>(object.mapped_from)].id +
          "' (expected the constraint on the object it is mapped from: constraints on a mapped "
          "object are not supported)");
  refused_mapped_ = true;
  return false;
}

void ComponentBuildContext::SetPointMass(const ObjectModel& object, std::span<const double> mass) {
  FLUXION_DEMAND(static_cast<Index>(mass.size()) == object.num_points);
  SystemParts* parts = PartsFor(object);
  if (parts == nullptr) return;
  RecordMass(object);
  SystemParts& system = *parts;
  for (Index i = 0; i < object.num_points; ++i)
    for (int axis = 0; axis < object.dimension; ++axis)
      system.mass[object.offset + i * object.dimension + axis] = mass[static_cast<std::size_t>(i)];
}

std::vector<double> ComponentBuildContext::PointMass(const ObjectModel& object) const {
  std::vector<double> mass(static_cast<std::size_t>(object.num_points), 0.0);
  const SystemParts* parts = PartsFor(object);
  if (parts == nullptr) return mass;
  const SystemParts& system = *parts;
  for (Index i = 0; i < object.num_points; ++i)
    mass[static_cast<std::size_t>(i)] = system.mass[object.offset + i * object.dimension];
  const Index first = object.offset, end = object.offset + object.num_dofs();
  for (const auto& entry : system.mass_couplings)
    if (entry.row() >= first && entry.row() < end && (entry.row() - first) % object.dimension == 0)
      mass[static_cast<std::size_t>((entry.row() - first) / object.dimension)] += entry.value();
  return mass;
}

void ComponentBuildContext::AddMassCoupling(const ObjectModel& object, Index a, Index b,
                                            double mass) {
  FLUXION_DEMAND(a >= 0 && a < object.num_points && b >= 0 && b < object.num_points && a != b);
  SystemParts* parts = PartsFor(object);
  if (parts == nullptr) return;
  RecordMass(object);
  SystemParts& system = *parts;
  for (int axis = 0; axis < object.dimension; ++axis) {
    const Index row = object.offset + a * object.dimension + axis;
    const Index col = object.offset + b * object.dimension + axis;
    system.mass_couplings.emplace_back(row, col, mass);
    system.mass_couplings.emplace_back(col, row, mass);
  }
}

void ComponentBuildContext::FixPoint(const ObjectModel& object, Index point) {
  FLUXION_DEMAND(point >= 0 && point < object.num_points);
  if (object.system < 0 || !RefuseMapped(object)) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  for (int axis = 0; axis < object.dimension; ++axis)
    system.fixed[static_cast<std::size_t>(object.offset + point * object.dimension + axis)] = true;
}

void ComponentBuildContext::FixDof(const ObjectModel& object, Index point, int axis) {
  FLUXION_DEMAND(point >= 0 && point < object.num_points && axis >= 0 && axis < object.dimension);
  if (object.system < 0 || !RefuseMapped(object)) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  system.fixed[static_cast<std::size_t>(object.offset + point * object.dimension + axis)] = true;
}

void ComponentBuildContext::ProjectPoint(const ObjectModel& object, Index point,
                                         std::span<const double> projector) {
  const int n = object.dimension;
  FLUXION_DEMAND(point >= 0 && point < object.num_points && n <= 3 &&
                 projector.size() == static_cast<std::size_t>(n * n));
  if (object.system < 0 || !RefuseMapped(object)) return;
  SystemParts& system = state_.parts[static_cast<std::size_t>(object.system)];
  const Index first = object.offset + point * n;
  const auto [found, added] = system.projector_at.emplace(first, system.projectors.size());
  if (added) {
    PointProjector fresh;
    fresh.first_dof = first;
    fresh.dimension = n;
    std::copy(projector.begin(), projector.end(), fresh.matrix.begin());
    system.projectors.push_back(fresh);
    return;
  }
  // A second projector on the point acts after the first: P ← P_new · P_old.
  PointProjector& existing = system.projectors[found->second];
  std::array<double, 9> product{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        product[static_cast<std::size_t>(i * n + j)] +=
            projector[static_cast<std::size_t>(i * n + k)] *
            existing.matrix[static_cast<std::size_t>(k * n + j)];
  existing.matrix = product;
}

void ComponentBuildContext::AddProjectiveConstraint(
    const ObjectModel& object, std::vector<Index> held_points,
    std::unique_ptr<ProjectiveConstraint> constraint) {
  if (object.system < 0 || !constraint || !RefuseMapped(object)) return;
  StateConstraint added;
  added.first_dof = object.offset;
  added.num_dofs = object.num_dofs();
  for (const Index point : held_points) {
    FLUXION_DEMAND(point >= 0 && point < object.num_points);
    for (int axis = 0; axis < object.dimension; ++axis)
      added.held_dofs.push_back(object.offset + point * object.dimension + axis);
  }
  added.constraint = std::move(constraint);
  state_.parts[static_cast<std::size_t>(object.system)].constraints.push_back(std::move(added));
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
  SystemParts* parts = PartsFor(object);
  if (parts == nullptr || !field) return;
  state_.matrix_sources.push_back(MatrixSource{node_.path + "/" + component_.name,
                                               ComponentMatrixKind::kStiffness, IndexOf(object),
                                               field.get()});
  parts->force_fields.push_back(std::move(field));
  ++state_.force_fields_added;
}

void ComponentBuildContext::AddObserver(std::unique_ptr<Observer> observer) {
  if (!observer) throw UsageError(type() + ": AddObserver was given no observer");
  const auto [file, local] = state_.scene.Locate(line());
  state_.observers.push_back(ObserverSlot{std::move(observer), file, local, type()});
}

}  // namespace fluxion::internal
