#include "registry/component_registry.h"

#include <algorithm>

#include "core/parameter_parsing.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

// A force field created by plugin code. It keeps the plugin's library loaded for as long as the
// field exists, and checks once, at assembly, that the Jacobian entries the plugin lists stay
// inside its object's DOFs: an entry outside them would write into another object's matrix slots.
class PluginForceField final : public ForceField {
 public:
  PluginForceField(std::unique_ptr<ForceField, PinnedDeleter<ForceField>> field, std::string who,
                   Index first_dof, Index end_dof)
      : field_(std::move(field)), who_(std::move(who)), first_dof_(first_dof), end_dof_(end_dof) {}

  void AddForce(const State& state, Vector& f) const override { field_->AddForce(state, f); }
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override {
    const std::size_t first = entries.size();
    field_->StiffnessEntries(entries);
    Check(entries, first, "stiffness");
  }
  void AddStiffness(const State& state, const Index* slots, double* values) const override {
    field_->AddStiffness(state, slots, values);
  }
  void DampingEntries(std::vector<MatrixEntry>& entries) const override {
    const std::size_t first = entries.size();
    field_->DampingEntries(entries);
    Check(entries, first, "damping");
  }
  void AddDamping(const State& state, const Index* slots, double* values) const override {
    field_->AddDamping(state, slots, values);
  }
  double PotentialEnergy(const State& state) const override {
    return field_->PotentialEnergy(state);
  }

 private:
  void Check(const std::vector<MatrixEntry>& entries, std::size_t first, const char* what) const {
    for (std::size_t k = first; k < entries.size(); ++k) {
      const MatrixEntry& e = entries[k];
      if (e.row < first_dof_ || e.row >= end_dof_ || e.col < first_dof_ || e.col >= end_dof_)
        throw PluginError(who_ + " lists " + what + " entry (" + std::to_string(e.row) + ", " +
                          std::to_string(e.col) + ") outside its object's DOFs " +
                          std::to_string(first_dof_) + ".." + std::to_string(end_dof_ - 1) +
                          " (a bug in the plugin)");
    }
  }

  std::unique_ptr<ForceField, PinnedDeleter<ForceField>> field_;
  std::string who_;
  Index first_dof_, end_dof_;
};

std::string KindList(std::initializer_list<ComponentKind> kinds) {
  std::string text;
  for (const ComponentKind kind : kinds)
    text += (text.empty() ? "" : " or ") + std::string(ComponentKindName(kind));
  return text;
}

}  // namespace

std::vector<FieldSpec> CommonSolverFields() {
  return {FieldSpec::Link("linearSolver",
                          "the linear solver to use (default: the first one in the solver's node "
                          "or below)"),
          FieldSpec::Bool("threadSafeVisitor", false, "SOFA option, accepted and ignored"),
          FieldSpec::Bool("parallelODESolving", false, "SOFA option, accepted and ignored")};
}

// --- CollectingRegistrar ----------------------------------------------------------------------

ComponentEntry CollectingRegistrar::NewEntry(const ComponentSpec& spec, const char* method,
                                             bool has_factory,
                                             std::initializer_list<ComponentKind> kinds) const {
  if (std::find(kinds.begin(), kinds.end(), spec.kind) == kinds.end())
    throw PluginError(origin_ + ": " + method + " called for '" + spec.name +
                      "', whose kind is not " + KindList(kinds));
  if (!has_factory)
    throw PluginError(origin_ + ": " + method + "('" + spec.name + "') without a factory");
  ComponentEntry entry;
  entry.spec = spec;  // a deep copy: nothing keeps pointing into plugin memory
  entry.origin = origin_;
  entry.plugin_name = plugin_name_;
  entry.library = library_;
  return entry;
}

void CollectingRegistrar::AddSolver(const ComponentSpec& spec, const SolverTraits& traits,
                                    SolverFactory factory) {
  ComponentEntry entry =
      NewEntry(spec, "AddSolver", factory != nullptr, {ComponentKind::kOdeSolver});
  entry.traits = traits;
  entry.solver_factory = factory;
  entries.push_back(std::move(entry));
}

void CollectingRegistrar::AddForceField(const ComponentSpec& spec, ForceFieldFactory factory) {
  ComponentEntry entry =
      NewEntry(spec, "AddForceField", factory != nullptr, {ComponentKind::kForceField});
  entry.force_field_factory = factory;
  entries.push_back(std::move(entry));
}

void CollectingRegistrar::AddLinearSolver(const ComponentSpec& spec, LinearSolverFactory factory) {
  ComponentEntry entry =
      NewEntry(spec, "AddLinearSolver", factory != nullptr, {ComponentKind::kLinearSolver});
  entry.linear_solver_factory = factory;
  entries.push_back(std::move(entry));
}

void CollectingRegistrar::AddComponent(const ComponentSpec& spec, ComponentBuilder build) {
  // Ignored components, nonlinear solvers (whose fields the ODE solver reads), linear systems
  // (whose fields the linear solver reads) and collision models (read by the collision pipeline)
  // are never built.
  const bool unbuilt =
      spec.kind == ComponentKind::kIgnored || spec.kind == ComponentKind::kNonlinearSolver ||
      spec.kind == ComponentKind::kLinearSystem || spec.kind == ComponentKind::kCollisionModel ||
      spec.kind == ComponentKind::kCollisionPipeline;
  ComponentEntry entry = NewEntry(
      spec, "AddComponent", unbuilt || build != nullptr,
      {ComponentKind::kState, ComponentKind::kTopology, ComponentKind::kMass,
       ComponentKind::kForceField, ComponentKind::kConstraint, ComponentKind::kLoader,
       ComponentKind::kContext, ComponentKind::kEngine, ComponentKind::kIgnored,
       ComponentKind::kTopologicalMapping, ComponentKind::kObserver,
       ComponentKind::kNonlinearSolver, ComponentKind::kMapping, ComponentKind::kCollisionModel,
       ComponentKind::kLinearSystem, ComponentKind::kCollisionPipeline});
  entry.builder = build;
  entries.push_back(std::move(entry));
}

// --- ComponentRegistry ------------------------------------------------------------------------

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

const ComponentEntry* ComponentRegistry::Find(std::string_view name) const {
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

LinearSolverHandle ComponentRegistry::CreateLinearSolver(const ComponentEntry& entry,
                                                         const Parameters& parameters) {
  if (entry.linear_solver_factory == nullptr)
    throw UsageError("component '" + entry.spec.name + "' is not a linear solver");
  std::unique_ptr<LinearSolver> created = entry.linear_solver_factory(parameters);
  if (!created)
    throw PluginError(entry.origin + ": the factory of " + entry.spec.name + " returned null");
  return LinearSolverHandle(created.release(), PinnedDeleter<LinearSolver>{entry.library});
}

const ComponentEntry& ComponentRegistry::DefaultLinearSolver(bool matrix_free) const {
  const ComponentEntry* entry =
      Find(matrix_free ? default_linear_solvers_.matrix_free : default_linear_solvers_.direct);
  FLUXION_DEMAND(entry != nullptr && entry->spec.kind == ComponentKind::kLinearSolver);
  return *entry;
}

LinearSolverHandle ComponentRegistry::CreateDefaultLinearSolver(bool matrix_free) const {
  const ComponentEntry& entry = DefaultLinearSolver(matrix_free);
  std::vector<ParameterProblem> none;  // the defaults parse
  return CreateLinearSolver(entry, ParseAttributes(entry.spec, {}, none));
}

std::unique_ptr<ForceField> ComponentRegistry::CreateForceField(const ComponentEntry& entry,
                                                                const Parameters& parameters,
                                                                const ForceFieldContext& context) {
  if (entry.force_field_factory == nullptr)
    throw UsageError("component '" + entry.spec.name + "' is not a plugin force field");
  std::unique_ptr<ForceField> created = entry.force_field_factory(parameters, context);
  const std::string who = entry.origin + ": " + entry.spec.name;
  if (!created) throw PluginError(who + ": the factory returned null");
  return std::make_unique<PluginForceField>(
      std::unique_ptr<ForceField, PinnedDeleter<ForceField>>(
          created.release(), PinnedDeleter<ForceField>{entry.library}),
      who, context.first_dof, context.first_dof + context.num_points * context.dimension);
}

}  // namespace fluxion::internal
