#include "plugin/component_registry.h"

#include <algorithm>

#include "fluxion/errors.h"

namespace fluxion::internal {

std::vector<FieldSpec> CommonSolverFields() {
  return {FieldSpec::Link("linearSolver",
                          "the linear solver to use (default: the first one in the solver's node "
                          "or below)"),
          FieldSpec::Bool("threadSafeVisitor", false, "SOFA option, accepted and ignored"),
          FieldSpec::Bool("parallelODESolving", false, "SOFA option, accepted and ignored")};
}

void ComponentRegistry::Add(ComponentEntry entry) {
  std::vector<std::string> names = entry.spec.aliases;
  names.insert(names.begin(), entry.spec.name);
  for (const std::string& name : names) {
    if (const auto it = by_name_.find(name); it != by_name_.end()) {
      throw PluginError("component '" + name + "' is registered twice: by " + it->second->origin +
                        " and by " + entry.origin +
                        " (expected each component name once; remove "
                        "one of the plugins from the search path)");
    }
  }
  if (entry.spec.kind == ComponentKind::kOdeSolver) {
    for (FieldSpec& field : CommonSolverFields())
      if (entry.spec.FindField(field.name) == nullptr)
        entry.spec.fields.push_back(std::move(field));
  }
  entries_.push_back(std::make_unique<ComponentEntry>(std::move(entry)));
  for (const std::string& name : names) by_name_[name] = entries_.back().get();
}

const ComponentEntry* ComponentRegistry::Find(const std::string& name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<const ComponentEntry*> ComponentRegistry::Entries() const {
  std::vector<const ComponentEntry*> sorted;
  for (const auto& entry : entries_) sorted.push_back(entry.get());
  std::sort(sorted.begin(), sorted.end(), [](const ComponentEntry* a, const ComponentEntry* b) {
    return a->spec.name < b->spec.name;
  });
  return sorted;
}

std::vector<std::string> ComponentRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : by_name_) names.push_back(name);
  return names;
}

SolverHandle ComponentRegistry::CreateSolver(const ComponentEntry& entry,
                                             const Parameters& parameters) {
  if (entry.solver_factory == nullptr)
    throw UsageError("component '" + entry.spec.name + "' is not an ODE solver");
  std::unique_ptr<Solver> created = entry.solver_factory(parameters);
  if (!created)
    throw PluginError(entry.origin + ": the factory of " + entry.spec.name + " returned null");
  return SolverHandle(created.release(), PinnedDeleter<Solver>{entry.library});
}

}  // namespace fluxion::internal

#include "scene/builtin_components.h"

namespace fluxion::internal {

ComponentRegistry ComponentRegistry::WithBuiltins() {
  ComponentRegistry registry;
  for (ComponentSpec& spec : BuiltinComponentSpecs()) {
    ComponentEntry entry;
    entry.spec = std::move(spec);
    registry.Add(std::move(entry));
  }
  return registry;
}

}  // namespace fluxion::internal
