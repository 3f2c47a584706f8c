#include "build/component_passes.h"

#include <algorithm>
#include <optional>
#include <span>

#include "build/component_build_context.h"
#include "build/data_links.h"
#include "build/point_use.h"
#include "fluxion/log.h"

namespace fluxion::internal {

void BuildComponents(BuildState& state, Node& node, std::initializer_list<ComponentKind> kinds) {
  for (Component& component : node.components)
    if (std::find(kinds.begin(), kinds.end(), component.kind()) != kinds.end())
      BuildComponent(state, node, component);  // once: a link may have built it already
}

void LayOutSystems(BuildState& state) {
  ForEachNode(*state.root, [&](Node& node) {
    if (node.solver != nullptr) {
      node.system = static_cast<int>(state.solver_owners.size());
      state.solver_owners.push_back(&node);
    } else if (node.parent != nullptr) {
      node.system = node.parent->system;
    }
    if (node.object >= 0) state.objects[static_cast<std::size_t>(node.object)].system = node.system;
  });
  state.parts.resize(state.solver_owners.size());
  for (ObjectModel& object : state.objects) {
    if (object.system < 0 || object.mapped_from >= 0) continue;  // mapped: no DOFs of its own
    SystemParts& system = state.parts[static_cast<std::size_t>(object.system)];
    object.offset = system.num_dofs;
    system.num_dofs += object.num_dofs();
  }
  for (SystemParts& system : state.parts) {
    system.mass = Vector::Zero(system.num_dofs);
    system.fixed.assign(static_cast<std::size_t>(system.num_dofs), false);
  }
  // The systems' external force, allocated only for a system where some object has one (it is
  // usually zero everywhere: a vector of the system's size that nothing reads).
  for (const ObjectModel& object : state.objects) {
    if (object.system < 0 || object.mapped_from >= 0 || object.external_force.isZero(0.0)) continue;
    SystemParts& system = state.parts[static_cast<std::size_t>(object.system)];
    if (system.external_force.size() != system.num_dofs)
      system.external_force = Vector::Zero(system.num_dofs);
    system.external_force.segment(object.offset, object.num_dofs()) = object.external_force;
  }
}

// Force fields registered by plugins act on the MechanicalObject of their node. Their factories
// run in document order, once every mass is known, and are told the object's layout.
void BuildPluginForceFields(BuildState& state) {
  for (const auto& [node, c] : state.plugin_force_fields) {
    ComponentBuildContext context(state, *node, *c);
    const std::string& type = c->entry->spec.name;
    const ObjectModel* found = context.NodeObject();
    if (found == nullptr) continue;
    const ObjectModel& object = *found;
    if (object.system < 0) continue;  // a static object: nothing moves, no force needed
    const std::vector<double> point_mass = context.PointMass(object);
    ForceFieldContext field_context;
    field_context.object = object.id;
    field_context.dimension = object.dimension;
    field_context.num_points = object.num_points;
    field_context.first_dof = object.offset;
    field_context.point_mass = point_mass;
    field_context.positions = std::span<const double>(object.position.data(),
                                                      static_cast<std::size_t>(object.num_dofs()));
    field_context.velocities = std::span<const double>(object.velocity.data(),
                                                       static_cast<std::size_t>(object.num_dofs()));
    try {
      context.AddForceField(
          object, ComponentRegistry::CreateForceField(*c->entry, c->parameters, field_context));
    } catch (const ConfigError& error) {
      context.Error(type + (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
                    error.what());
    } catch (const PluginError& error) {
      context.PluginProblem(error.what());
    } catch (const std::exception& error) {
      context.PluginProblem(c->entry->origin + ": " + type + " failed: " + error.what());
    }
  }
}

namespace {

// For each object, whether its node has a mass component: one visit of the tree, not one per
// object (the build stays linear in the number of objects).
std::vector<bool> ObjectsWithMassComponent(const BuildState& state) {
  std::vector<bool> with_mass(state.objects.size(), false);
  if (state.root == nullptr) return with_mass;
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    if (node.object < 0) return;
    for (const Component& component : node.components)
      if (component.entry != nullptr && component.kind() == ComponentKind::kMass)
        with_mass[static_cast<std::size_t>(node.object)] = true;
  });
  return with_mass;
}

}  // namespace

namespace {

// Per point of `object`, whether it is a vertex of some element of `topology`.
std::vector<char> PointsInElements(const ObjectModel& object, const Topology& topology) {
  std::vector<char> in_element(static_cast<std::size_t>(object.num_points), 0);
  const auto mark = [&](const auto& elements) {
    for (const auto& element : elements)
      for (const Index v : element)
        if (v >= 0 && v < object.num_points) in_element[static_cast<std::size_t>(v)] = 1;
  };
  mark(topology.edges);
  mark(topology.triangles);
  mark(topology.quads);
  mark(topology.tetrahedra);
  mark(topology.hexahedra);
  return in_element;
}

bool HasElements(const Topology* topology) {
  return topology != nullptr &&
         !(topology->edges.empty() && topology->triangles.empty() && topology->quads.empty() &&
           topology->tetrahedra.empty() && topology->hexahedra.empty());
}

// A massless point of an object with a mass component: held still when it is in no element of
// its node's topology and nothing acts on it (SOFA's SubsetTopology example: the points outside
// the triangles kept; a volume mesh with a stray vertex), else the error. `used` is computed on
// the first call that needs it, for the object's system; `topology` is its node's (null: none).
void CheckMasslessPoints(BuildState& state, const ObjectModel& object, const Topology* topology,
                         const ContactPlan* contacts, std::optional<std::vector<char>>& used) {
  SystemParts& system = state.parts[static_cast<std::size_t>(object.system)];
  const auto is_free_massless = [&](Index i) {
    const Index dof = object.offset + i * object.dimension;
    return !system.fixed[static_cast<std::size_t>(dof)] && !(system.mass[dof] > 0.0);
  };
  Index first = 0;
  while (first < object.num_points && !is_free_massless(first)) ++first;
  if (first == object.num_points) return;
  // A dynamic container emptied by a topological change (SOFA's performanceTest removes every
  // tetrahedron) has points in no element, as a stray vertex of a mesh is.
  std::vector<char> in_element;
  if (HasElements(topology) || (topology != nullptr && state.rebuild != nullptr)) {
    in_element = PointsInElements(object, *topology);
    if (!used) used = DofsInUse(state, object.system, contacts);
  }
  // Every massless free point must be held; the first that cannot be is the error.
  std::vector<Index> held;
  for (Index i = first; i < object.num_points; ++i) {
    if (!is_free_massless(i)) continue;
    bool free = !in_element.empty() && !in_element[static_cast<std::size_t>(i)];
    for (int axis = 0; free && axis < object.dimension; ++axis)
      free = !(*used)[static_cast<std::size_t>(object.offset + i * object.dimension + axis)];
    if (!free) {
      state.problems.Scene(object.line,
                           "point " + std::to_string(i) + " of '" + object.id +
                               "' has no mass and is not fixed (expected a UniformMass or "
                               "DiagonalMass in its node, or a FixedProjectiveConstraint)");
      return;
    }
    held.push_back(i);
  }
  for (const Index i : held)
    for (int axis = 0; axis < object.dimension; ++axis)
      system.fixed[static_cast<std::size_t>(object.offset + i * object.dimension + axis)] = true;
  const std::string message =
      state.problems.Where(object.line) + ": " + std::to_string(held.size()) + " point" +
      (held.size() == 1 ? " of '" : "s of '") + object.id + "' " +
      (held.size() == 1 ? "has" : "have") +
      " no mass and no element: held still (as SOFA's implicit solvers leave them)";
  if (state.rebuild == nullptr)
    LogWarn(message);
  else
    LogDebug(message);
}

}  // namespace

void CheckMasses(BuildState& state, const ContactPlan* contacts) {
  const std::vector<bool> with_mass = ObjectsWithMassComponent(state);
  // Each object's node topology: the node's, complete now (the object's own copy is the node's
  // topology when the object was built, null when a link built the object first: a container
  // whose position="@object.position").
  std::vector<const Topology*> node_topology(state.objects.size(), nullptr);
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    if (node.object >= 0)
      node_topology[static_cast<std::size_t>(node.object)] = node.topology.get();
  });
  // What acts on each system's DOFs, computed once per system that needs it.
  std::vector<std::optional<std::vector<char>>> used(state.parts.size());
  for (std::size_t index = 0; index < state.objects.size(); ++index) {
    const ObjectModel& object = state.objects[index];
    if (object.system < 0 || object.mapped_from >= 0) continue;  // mapped: its mass acts above
    SystemParts& system = state.parts[static_cast<std::size_t>(object.system)];
    // An object without a mass component (SOFA's examples show loaded meshes this way): in SOFA
    // nothing accelerates it (its explicit solvers skip massless DOFs, the implicit ones see a
    // zero right-hand side), so it stays as loaded. Fluxion holds it with the same result and
    // says so once; a zero mass given by a mass component is still an error (below).
    bool massless = object.num_points > 0 && !with_mass[index];
    for (Index dof = object.offset; massless && dof < object.offset + object.num_dofs(); ++dof)
      massless = system.mass[dof] == 0.0 && !system.fixed[static_cast<std::size_t>(dof)];
    if (massless) {
      for (Index dof = object.offset; dof < object.offset + object.num_dofs(); ++dof)
        system.fixed[static_cast<std::size_t>(dof)] = true;
      LogWarn(state.problems.Where(object.line) + ": '" + object.id +
              "' has no mass: it does not move (as in SOFA, where nothing accelerates a massless "
              "object); add a UniformMass or DiagonalMass to simulate it");
      continue;
    }
    CheckMasslessPoints(state, object, node_topology[index], contacts,
                        used[static_cast<std::size_t>(object.system)]);
  }
}

}  // namespace fluxion::internal
