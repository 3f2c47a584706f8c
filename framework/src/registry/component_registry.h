// The registry of component types: built-in components and those added by plugins, all
// registered through the same PluginRegistrar interface.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fluxion/force_field.h"
#include "fluxion/host.h"
#include "fluxion/parameters.h"
#include "fluxion/plugin.h"
#include "fluxion/simulation.h"
#include "fluxion/solver.h"

namespace fluxion::internal {

using ComponentEntry = ComponentInfo;

class ComponentRegistry {
 public:
  /// An empty registry; `RegisterBuiltins` (components/) adds the built-in components.
  ComponentRegistry() = default;

  /// Adds `entry`; throws PluginError when its name or an alias is already taken, naming both
  /// origins. ODE solvers get the fields every solver accepts (CommonSolverFields).
  void Add(ComponentEntry entry);

  /// The entry registered under `name` (or an alias), or nullptr.
  const ComponentEntry* Find(std::string_view name) const;
  /// Every entry, sorted by name.
  std::vector<const ComponentEntry*> Entries() const;
  /// Every registered name and alias (for "did you mean").
  std::vector<std::string> Names() const;

  /// Creates a solver from a solver entry; ConfigError from the plugin's constructor propagates.
  static SolverHandle CreateSolver(const ComponentEntry& entry, const Parameters& parameters);
  /// Creates a linear solver from a linear-solver entry; ConfigError propagates.
  static LinearSolverHandle CreateLinearSolver(const ComponentEntry& entry,
                                               const Parameters& parameters);

  /// The linear solvers a solver that needs one gets when the scene has none (a replacement
  /// solver: scene-runner --solver, Simulation::ReplaceSolver): a direct one, and for a system
  /// receiving contacts, whose stiffness is outside the assembled pattern (docs/contact.md), one
  /// that takes the matrix as an operator. A setting of the registry, not a name in each caller.
  struct DefaultLinearSolvers {
    std::string direct = "SparseLDLSolver";
    std::string matrix_free = "CGLinearSolver";
  };
  const DefaultLinearSolvers& default_linear_solvers() const { return default_linear_solvers_; }
  void SetDefaultLinearSolvers(DefaultLinearSolvers names) {
    default_linear_solvers_ = std::move(names);
  }
  /// The entry of the default linear solver (matrix_free: the operator one); demands that it is
  /// registered as a linear solver.
  const ComponentEntry& DefaultLinearSolver(bool matrix_free) const;
  /// Creates it with its default parameters.
  LinearSolverHandle CreateDefaultLinearSolver(bool matrix_free) const;
  /// Creates a plugin force field acting on `context`'s object. The result keeps the plugin
  /// loaded and refuses (PluginError) Jacobian entries outside the object's DOFs. ConfigError from
  /// the plugin's factory propagates.
  static std::unique_ptr<ForceField> CreateForceField(const ComponentEntry& entry,
                                                      const Parameters& parameters,
                                                      const ForceFieldContext& context);

 private:
  std::vector<std::unique_ptr<ComponentEntry>> entries_;
  std::map<std::string, const ComponentEntry*, std::less<>> by_name_;
  DefaultLinearSolvers default_linear_solvers_;
};

/// The fields every ODE solver accepts in addition to its own (the framework handles them).
std::vector<FieldSpec> CommonSolverFields();

/// A PluginRegistrar that collects what a plugin (or the framework, for its built-ins) registers,
/// stamped with its origin, checking that each registration is of the kind its method says. The
/// caller adds the entries to the registry afterwards, all or nothing.
class CollectingRegistrar final : public PluginRegistrar {
 public:
  CollectingRegistrar(std::string origin, std::string plugin_name,
                      std::shared_ptr<const void> library)
      : origin_(std::move(origin)),
        plugin_name_(std::move(plugin_name)),
        library_(std::move(library)) {}

  using PluginRegistrar::AddForceField;
  using PluginRegistrar::AddLinearSolver;
  using PluginRegistrar::AddSolver;
  void AddSolver(const ComponentSpec& spec, const SolverTraits& traits,
                 SolverFactory factory) override;
  void AddForceField(const ComponentSpec& spec, ForceFieldFactory factory) override;
  void AddLinearSolver(const ComponentSpec& spec, LinearSolverFactory factory) override;
  void AddComponent(const ComponentSpec& spec, ComponentBuilder build) override;

  std::vector<ComponentEntry> entries;

 private:
  ComponentEntry NewEntry(const ComponentSpec& spec, const char* method, bool has_factory,
                          std::initializer_list<ComponentKind> kinds) const;

  std::string origin_;
  std::string plugin_name_;
  std::shared_ptr<const void> library_;
};

}  // namespace fluxion::internal
