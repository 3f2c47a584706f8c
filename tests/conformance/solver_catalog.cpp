// The only file of the conformance suites that asks the host for its components.
#include "conformance/solver_catalog.h"

#include <algorithm>
#include <exception>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/linear_solver.h"
#include "fluxion/solver.h"
#include "support/test_support.h"

namespace fluxion::conformance {

namespace {

// The built-ins and the plugins of the default search path (the bundled folder, then each folder
// of FLUXION_PLUGIN_PATH) and of the test's folder, loaded once. In the build tree the bundled
// folder is the test's folder, searched once. (testing::TestHost() searches the test's folder
// only, so it would not see a plugin on FLUXION_PLUGIN_PATH.)
const Host& CatalogHost() {
  // Never destroyed: simulations and solvers made in tests may outlive any scope.
  static const Host* host = [] {
    HostOptions options;
    options.default_plugin_directories = true;
    options.plugin_directories = {testing::PluginDirectory()};
    return new Host(options);
  }();
  return *host;
}

SolverDescription Describe(const ComponentInfo& entry) {
  SolverDescription solver;
  solver.name = entry.spec.name;
  solver.origin = entry.origin;
  for (const FieldSpec& field : entry.spec.fields) solver.attributes.push_back(field.name);
  // The traits of a default-configured instance: its parameters may refine the registered ones.
  SolverTraits traits = entry.traits;
  try {
    const SolverHandle instance = CatalogHost().CreateSolver({entry.spec.name, {}});
    traits = instance->RefineTraits(entry.traits);
  } catch (const std::exception& error) {
    solver.problem = error.what();
  }
  solver.order = traits.order;
  solver.is_explicit = (traits.flags & kExplicitMethod) != 0;
  solver.is_implicit = (traits.flags & kImplicitMethod) != 0;
  solver.needs_linear_solver = (traits.flags & kNeedsLinearSolver) != 0;
  solver.has_history = (traits.flags & kHasHistory) != 0;
  solver.symplectic = (traits.flags & kSymplecticMethod) != 0;
  solver.is_static = (traits.flags & kStaticMethod) != 0;
  return solver;
}

}  // namespace

bool SolverDescription::declares(std::string_view attribute) const {
  return std::find(attributes.begin(), attributes.end(), attribute) != attributes.end();
}

void PrintTo(const SolverDescription& solver, std::ostream* out) { *out << solver.name; }

std::vector<SolverDescription> AllSolvers() {
  std::vector<SolverDescription> solvers;
  for (const ComponentInfo* entry : CatalogHost().components())
    if (entry->spec.kind == ComponentKind::kOdeSolver) solvers.push_back(Describe(*entry));
  return solvers;  // components() is sorted by name
}

bool LinearSolverDescription::declares(std::string_view attribute) const {
  return std::find(attributes.begin(), attributes.end(), attribute) != attributes.end();
}

void PrintTo(const LinearSolverDescription& solver, std::ostream* out) { *out << solver.name; }

std::vector<LinearSolverDescription> AllLinearSolvers() {
  std::vector<LinearSolverDescription> solvers;
  for (const ComponentInfo* entry : CatalogHost().components()) {
    if (entry->spec.kind != ComponentKind::kLinearSolver) continue;
    LinearSolverDescription solver;
    solver.name = entry->spec.name;
    solver.origin = entry->origin;
    for (const FieldSpec& field : entry->spec.fields) solver.attributes.push_back(field.name);
    const LinearSolverHandle instance = CreateLinearSolver(solver.name, {});
    solver.accepts_operator = instance->accepts_operator();
    solver.approximate = instance->approximate();
    solvers.push_back(std::move(solver));
  }
  return solvers;  // components() is sorted by name
}

LinearSolverHandle CreateLinearSolver(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& attributes) {
  const ComponentInfo* entry = CatalogHost().FindComponent(name);
  if (entry == nullptr || entry->linear_solver_factory == nullptr)
    throw UsageError("no linear solver called " + name);
  return LinearSolverHandle(
      entry->linear_solver_factory(ParseParameters(entry->spec, attributes)).release(),
      PinnedDeleter<LinearSolver>{entry->library});
}

std::vector<ComponentSpec> AllComponentSpecs() {
  std::vector<ComponentSpec> specs;
  for (const ComponentInfo* entry : CatalogHost().components()) specs.push_back(entry->spec);
  return specs;
}

Simulation LoadScene(const std::string& xml, const std::string& file_name) {
  return CatalogHost().LoadString(xml, file_name);
}

}  // namespace fluxion::conformance
