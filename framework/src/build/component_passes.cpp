#include "build/component_passes.h"

#include <algorithm>
#include <span>

#include "build/component_build_context.h"
#include "build/data_links.h"
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

void CheckMasses(BuildState& state) {
  const std::vector<bool> with_mass = ObjectsWithMassComponent(state);
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
    for (Index i = 0; i < object.num_points; ++i) {
      const Index dof = object.offset + i * object.dimension;
      if (system.fixed[static_cast<std::size_t>(dof)] || system.mass[dof] > 0.0) continue;
      state.problems.Scene(object.line,
                           "point " + std::to_string(i) + " of '" + object.id +
                               "' has no mass and is not fixed (expected a UniformMass or "
                               "DiagonalMass in its node, or a FixedProjectiveConstraint)");
      break;
    }
  }
}

}  // namespace fluxion::internal
