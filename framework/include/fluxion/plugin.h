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
// The host reads the descriptor's magic number and ABI version before anything else and refuses a
// library built against other headers; it copies every string out of plugin memory, and every
// object a plugin creates is destroyed before its library is unloaded.
#pragma once

#include <cstdint>
#include <memory>

#include "fluxion/export.h"
#include "fluxion/parameters.h"
#include "fluxion/solver.h"
#include "fluxion/version.h"

namespace fluxion {

/// Creates a solver from its validated parameters. May throw ConfigError for invalid
/// combinations of values that single-field bounds cannot express.
using SolverFactory = std::unique_ptr<Solver> (*)(const Parameters& parameters);

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
