// The conformance suites' one window on the component registry and on plugin loading.
//
// Only solver_catalog.cpp talks to the registry (through fluxion::Host); the suites see the plain
// descriptions below, the public ComponentSpec and a scene loader, so that a change in how
// components are listed or created touches these two files only.
//
// The components are the built-ins plus every plugin of the test's plugin folder
// (testing::PluginDirectory(): the build tree's, or $FLUXION_TEST_PLUGIN_DIR) and of the folders
// of FLUXION_PLUGIN_PATH, loaded once per process. That is how an out-of-tree plugin joins the
// suite: FLUXION_PLUGIN_PATH=<its folder> solver_conformance_test.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fluxion/parameters.h"
#include "fluxion/simulation.h"

namespace fluxion::conformance {

/// One registered ODE solver, as a default-configured instance describes itself (its registered
/// traits refined by its default parameters, Solver::RefineTraits).
struct SolverDescription {
  std::string name;  ///< XML element name, e.g. "RungeKutta4Solver"
  int order = 0;     ///< declared global order of accuracy
  bool is_explicit = false;
  bool is_implicit = false;
  bool needs_linear_solver = false;  ///< the scene must hold a linear solver
  bool has_history = false;  ///< keeps state between steps (multistep, stored accelerations)
  bool symplectic = false;
  /// Computes a static equilibrium, not a motion (kStaticMethod): order 0, velocities untouched.
  bool is_static = false;
  std::vector<std::string> attributes;  ///< every XML attribute it declares (own + common fields)
  std::string origin;                   ///< "built-in" or the plugin file that registered it
  /// Why no default-configured instance could be created (then the traits are the registered
  /// ones); empty normally.
  std::string problem;

  bool declares(std::string_view attribute) const;
};

/// gtest prints a parameter by its name.
void PrintTo(const SolverDescription& solver, std::ostream* out);

/// Every registered ODE solver, sorted by name.
std::vector<SolverDescription> AllSolvers();

/// One registered linear solver, as a default-configured instance describes itself.
struct LinearSolverDescription {
  std::string name;                     ///< XML element name, e.g. "CGLinearSolver"
  std::vector<std::string> attributes;  ///< every XML attribute it declares
  std::string origin;                   ///< "built-in" or the plugin file that registered it
  bool accepts_operator = false;        ///< LinearSolver::accepts_operator()
  bool approximate = false;             ///< LinearSolver::approximate(): a preconditioner

  bool declares(std::string_view attribute) const;
};

/// gtest prints a parameter by its name.
void PrintTo(const LinearSolverDescription& solver, std::ostream* out);

/// Every registered linear solver, sorted by name.
std::vector<LinearSolverDescription> AllLinearSolvers();

/// A new instance of the linear solver `name` with these XML attributes (throws ConfigError for
/// a bad one).
LinearSolverHandle CreateLinearSolver(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& attributes);

/// The declaration of every registered component (all kinds), sorted by name; ODE solvers
/// include the fields the framework adds to every solver.
std::vector<ComponentSpec> AllComponentSpecs();

/// What LoadScene returns.
using Simulation = fluxion::Simulation;

/// Builds the simulation of an inline XML scene with the catalog's components (throws SceneError
/// or PluginError as scene-runner would).
Simulation LoadScene(const std::string& xml, const std::string& file_name = "conformance.scn");

}  // namespace fluxion::conformance
