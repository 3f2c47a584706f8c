// How a shared library becomes a Fluxion plugin: one exported, versioned descriptor whose
// registration function adds the library's components to the host's registry.
//
//   #include <fluxion/plugin.h>
//   class MySolver final : public fluxion::Solver { ... };
//   FLUXION_PLUGIN("my_solver", "1.0.0") {
//     registrar.AddSolver<MySolver>(MySolver::Spec(), {.order = 1, .flags =
//     fluxion::kExplicitMethod});
//   }
//
// A plugin may register any number of ODE solvers, force fields (fluxion/force_field.h), linear
// solvers (fluxion/linear_solver.h) and other components built from a scene (fluxion/component.h).
// Fluxion's built-in components are registered through this same interface.
//
// The host reads the descriptor's magic number and ABI version before anything else and refuses a
// library built against other headers; it copies every string out of plugin memory, and every
// object a plugin creates is destroyed before its library is unloaded.
#pragma once

#include <cstdint>
#include <memory>

#include "fluxion/component.h"
#include "fluxion/export.h"
#include "fluxion/force_field.h"
#include "fluxion/parameters.h"
#include "fluxion/solver.h"
#include "fluxion/version.h"

namespace fluxion {

/// Creates a solver from its validated parameters. May throw ConfigError for invalid
/// combinations of values that single-field bounds cannot express.
using SolverFactory = std::unique_ptr<Solver> (*)(const Parameters& parameters);

/// Creates a force field from its validated parameters and the mechanical object of its node.
/// May throw ConfigError (reported at the component's line in the scene, exit status 2; an empty
/// field name means the component as a whole).
using ForceFieldFactory = std::unique_ptr<ForceField> (*)(const Parameters& parameters,
                                                          const ForceFieldContext& context);

/// Creates a linear solver from its validated parameters. May throw ConfigError.
using LinearSolverFactory = std::unique_ptr<LinearSolver> (*)(const Parameters& parameters);

/// The host's registry, as a plugin sees it during registration.
class FLUXION_API PluginRegistrar {
 public:
  virtual ~PluginRegistrar();
  /// Registers an ODE solver component. `spec.kind` must be ComponentKind::kOdeSolver.
  virtual void AddSolver(const ComponentSpec& spec, const SolverTraits& traits,
                         SolverFactory factory) = 0;

  /// Convenience: registers `SolverType`, constructed from `const Parameters&`.
  template <class SolverType>
  void AddSolver(const ComponentSpec& spec, const SolverTraits& traits) {
    AddSolver(spec, traits, [](const Parameters& p) -> std::unique_ptr<Solver> {
      return std::make_unique<SolverType>(p);
    });
  }

  /// Registers a force-field component. `spec.kind` must be ComponentKind::kForceField. The
  /// component goes in a node with a MechanicalObject and acts on that object's points; the
  /// factory runs once per component in a scene, after the masses are known.
  virtual void AddForceField(const ComponentSpec& spec, ForceFieldFactory factory) = 0;

  /// Convenience: registers `FieldType`, constructed from
  /// `(const Parameters&, const ForceFieldContext&)`.
  template <class FieldType>
  void AddForceField(const ComponentSpec& spec) {
    AddForceField(
        spec, [](const Parameters& p, const ForceFieldContext& c) -> std::unique_ptr<ForceField> {
          return std::make_unique<FieldType>(p, c);
        });
  }

  /// Registers a linear solver component (`spec.kind` must be ComponentKind::kLinearSolver). An
  /// ODE solver that needs one uses the component named by its `linearSolver` link, else the
  /// first linear solver in its node or below.
  virtual void AddLinearSolver(const ComponentSpec& spec, LinearSolverFactory factory) = 0;

  /// Convenience: registers `SolverType` (a LinearSolver), constructed from `const Parameters&`.
  template <class SolverType>
  void AddLinearSolver(const ComponentSpec& spec) {
    AddLinearSolver(spec, [](const Parameters& p) -> std::unique_ptr<LinearSolver> {
      return std::make_unique<SolverType>(p);
    });
  }

  /// Registers any other component built from a scene (topologies, objects, masses, constraints,
  /// loads, context settings): `build` runs once per element, in the pass of `spec.kind` (see
  /// fluxion/component.h). kIgnored components need no build function (pass nullptr).
  virtual void AddComponent(const ComponentSpec& spec, ComponentBuilder build) = 0;
};

}  // namespace fluxion

/// Identifies a Fluxion plugin descriptor ("FLXP").
#define FLUXION_PLUGIN_MAGIC 0x504C5846u

/// The one symbol a plugin exports. Plain C layout, and never reordered: the host reads
/// `magic` and `abi_version` before touching anything else.
extern "C" {
struct FluxionPluginDescriptor {
  std::uint32_t magic;            ///< FLUXION_PLUGIN_MAGIC
  std::uint32_t abi_version;      ///< FLUXION_ABI_VERSION of the headers it was built with
  const char* name;               ///< plugin name, e.g. "euler_explicit"
  const char* version;            ///< the plugin's own version
  const char* framework_version;  ///< FLUXION_VERSION_STRING it was built with
  void (*register_components)(fluxion::PluginRegistrar& registrar);
};
}  // extern "C"

#define FLUXION_PLUGIN_DESCRIPTOR_SYMBOL fluxion_plugin_descriptor

/// Defines the plugin's descriptor and opens the body of its registration function, in which
/// `registrar` (a fluxion::PluginRegistrar&) is in scope.
#define FLUXION_PLUGIN(NAME, VERSION)                                           \
  static void FluxionRegisterComponents(::fluxion::PluginRegistrar& registrar); \
  extern "C" __attribute__((visibility("default")))                             \
  const FluxionPluginDescriptor FLUXION_PLUGIN_DESCRIPTOR_SYMBOL = {            \
      FLUXION_PLUGIN_MAGIC,   FLUXION_ABI_VERSION,       NAME, VERSION,         \
      FLUXION_VERSION_STRING, &FluxionRegisterComponents};                      \
  static void FluxionRegisterComponents(::fluxion::PluginRegistrar& registrar)
