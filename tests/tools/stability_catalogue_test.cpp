// scene-runner S --solver X, for every gallery scene S and every registered ODE solver X: the
// replacement keeps only parameters X declares, the stability check rebuilds X with them and
// gives each stiff node a verdict named after X (before, it rebuilt X with the scene's old
// solver's parameters and gave up), and the run takes its first steps. The same code path as
// scene-runner (LoadOptions::solver, then CheckStability), in one process: load, check and two
// steps per pair, not full runs.
#include <gmock/gmock.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis.h"
#include "fluxion/errors.h"
#include "fluxion/frequency.h"
#include "fluxion/log.h"
#include "stability_check.h"
#include "support/test_support.h"

namespace fluxion::testing {
namespace {

std::vector<std::string> GalleryScenes() {
  std::vector<std::string> scenes;
  for (const auto& file :
       std::filesystem::directory_iterator(std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes"))
    if (file.path().extension() == ".scn") scenes.push_back(file.path().string());
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

std::vector<const ComponentInfo*> OdeSolvers(const Host& host) {
  std::vector<const ComponentInfo*> solvers;
  for (const ComponentInfo* entry : host.components())
    if (entry->spec.kind == ComponentKind::kOdeSolver) solvers.push_back(entry);
  return solvers;
}

// The solver nodes with a stiffest mode to check: a positive ω_max at the initial state (the
// gravity-only and n-body scenes of the gallery have none, or a negative one).
std::size_t StiffNodes(const Simulation& simulation) {
  std::size_t count = 0;
  for (const SolverNode& node : simulation.solver_nodes())
    if (EstimateHighestFrequency(*node.system, node.state, runner::kStabilityIterations).omega_max >
        0.0)
      ++count;
  return count;
}

TEST(StabilityCatalogue, EverySolverOnEveryGallerySceneIsCheckedWithItsOwnParameters) {
  const Host& host = TestHost();
  const std::vector<std::string> scenes = GalleryScenes();
  const std::vector<const ComponentInfo*> solvers = OdeSolvers(host);
  ASSERT_GE(scenes.size(), 20u);   // the gallery of scenes/README.md
  ASSERT_GE(solvers.size(), 20u);  // every bundled plugin's solver
  std::size_t checked = 0;
  for (const std::string& scene : scenes) {
    for (const ComponentInfo* solver : solvers) {
      SCOPED_TRACE(scene + " --solver " + solver->spec.name);
      LoadOptions options;
      options.solver = SolverChoice{solver->spec.name, {}};
      std::optional<Simulation> simulation;
      try {
        simulation.emplace(host.LoadFile(scene, options));
      } catch (const SceneError& error) {
        ADD_FAILURE() << error.what();
        continue;
      }
      // The parameters the check rebuilds the solver with are the replacement's own.
      // StaticSolver computes equilibria, which have no stiffest mode to check (the analyzer
      // refuses it), and its static solve of a falling body is singular: it is loaded only.
      const bool static_method = (solver->traits.flags & kStaticMethod) != 0;
      for (const SolverNode& node : simulation->solver_nodes()) {
        EXPECT_EQ(node.solver_type, solver->spec.name);
        for (const auto& [name, value] : node.solver_parameters)
          EXPECT_NE(solver->spec.FindField(name), nullptr) << name << "=" << value;
        // What the check does first for every node: rebuild the solver on the oscillator.
        if (static_method)
          EXPECT_THROW(analysis::Analyzer(host, {node.solver_type, node.solver_parameters}),
                       ConfigError);
        else
          EXPECT_NO_THROW(analysis::Analyzer(host, {node.solver_type, node.solver_parameters}));
      }
      if (static_method) {
        EXPECT_TRUE(runner::CheckStability(host, *simulation, 2).empty());
        continue;
      }
      // A verdict for each node with stiffness, named after the replacement (a node whose
      // check cannot run has none: before, every node of a scene whose solver had parameters
      // the replacement lacks).
      const std::vector<runner::StabilityVerdict> verdicts =
          runner::CheckStability(host, *simulation, 2);
      for (const runner::StabilityVerdict& verdict : verdicts) {
        EXPECT_EQ(verdict.solver, solver->spec.name);
        EXPECT_GT(verdict.omega_max, 0.0);
        EXPECT_EQ(verdict.explicit_method, (solver->traits.flags & kExplicitMethod) != 0);
      }
      EXPECT_EQ(verdicts.size(), StiffNodes(*simulation)) << "a node was not checked";
      checked += verdicts.size();
      // Two steps: the replacement runs (a numerical failure is a finding, not a crash).
      try {
        simulation->Step();
        simulation->Step();
      } catch (const NumericalError& error) {
        ADD_FAILURE() << error.what();
      }
    }
  }
  EXPECT_GT(checked, 350u);
}

}  // namespace
}  // namespace fluxion::testing
