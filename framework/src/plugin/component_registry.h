// The registry of component types: built-in components and those added by plugins.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/force_field.h"
#include "fluxion/parameters.h"
#include "fluxion/plugin.h"
#include "fluxion/solver.h"

namespace fluxion::internal {

/// Deletes an object created by plugin code while keeping the plugin's library loaded: the
/// destructor runs inside the library, which is released only after it returns.
template <class T>
struct PinnedDeleter {
  std::shared_ptr<const void> library;
  void operator()(T* object) const { delete object; }
};
using SolverHandle = std::unique_ptr<Solver, PinnedDeleter<Solver>>;

/// One registered component type.
struct ComponentEntry {
  ComponentSpec spec;
  std::string origin = "built-in";  ///< "built-in" or the plugin file that registered it
  std::string plugin_name;          ///< empty for built-in components
  // ODE solvers only:
  SolverTraits traits;
  SolverFactory solver_factory = nullptr;
  // Force fields registered by plugins (built-in ones are created by the scene builder):
  ForceFieldFactory force_field_factory = nullptr;
  std::shared_ptr<const void> library;  ///< keeps the plugin loaded while the entry exists
};

class FLUXION_API ComponentRegistry {
 public:
  /// A registry holding the built-in components (masses, springs, constraints, linear solvers…).
  static ComponentRegistry WithBuiltins();

  /// Adds `entry`; throws PluginError when its name or an alias is already taken, naming both
  /// origins.
  void Add(ComponentEntry entry);

  /// The entry registered under `name` (or an alias), or nullptr.
  const ComponentEntry* Find(const std::string& name) const;
  /// Every entry, sorted by name.
  std::vector<const ComponentEntry*> Entries() const;
  /// Every registered name and alias (for "did you mean").
  std::vector<std::string> Names() const;

  /// Creates a solver from a solver entry; ConfigError from the plugin's constructor propagates.
  static SolverHandle CreateSolver(const ComponentEntry& entry, const Parameters& parameters);
  /// Creates a plugin force field acting on `context`'s object. The result keeps the plugin
  /// loaded and refuses (PluginError) Jacobian entries outside the object's DOFs. ConfigError from
  /// the plugin's factory propagates.
  static std::unique_ptr<ForceField> CreateForceField(const ComponentEntry& entry,
                                                      const Parameters& parameters,
                                                      const ForceFieldContext& context);

 private:
  std::vector<std::unique_ptr<ComponentEntry>> entries_;
  std::map<std::string, const ComponentEntry*, std::less<>> by_name_;
};

/// The fields every ODE solver accepts in addition to its own (the framework handles them).
FLUXION_API std::vector<FieldSpec> CommonSolverFields();

}  // namespace fluxion::internal
