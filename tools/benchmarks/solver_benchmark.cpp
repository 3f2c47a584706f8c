// fluxion-benchmark: one step of each solver, and assembly alone, on a cloth of n × n points from
// RegularGridTopology (MeshSpringForceField on the grid's edges, two corners fixed), for
// n = 32, 64, 128, 256; implicit solvers with CGLinearSolver and with SparseLDLSolver.
//
// Counters: steps/s (items per second) and DOF·steps/s. Run from the build tree:
//   build-release/bin/fluxion-benchmark --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace {

using fluxion::Simulation;

// The built-in components and the plugins of the default search path, loaded once.
const fluxion::Host& Components() {
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

// A horizontal cloth falling under gravity. dt is small enough for every explicit solver to stay
// stable for the whole benchmark: on the 256² grid ks = 100/L0 ≈ 2.6e4 N/m, m ≈ 1.5e-5 kg, and
// ω_max ≲ √(32·ks/m) ≈ 2.4e5 rad/s, so ω_max·h ≲ 0.05.
std::string ClothScene(int n, const std::string& solver, const std::string& linear_solver) {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="2e-7">)" + solver + linear_solver +
         R"(<Node name="cloth"><RegularGridTopology n=")" + std::to_string(n) + " 1 " +
         std::to_string(n) +
         R"(" min="0 0 0" max="1 0 1"/><MechanicalObject name="dofs"/><UniformMass totalMass="1"/>)" +
         R"(<FixedProjectiveConstraint indices="0 )" + std::to_string(n - 1) +
         R"("/><MeshSpringForceField linesStiffness="100" linesDamping="0.1"/></Node></Node>)";
}

Simulation Load(const std::string& xml) { return Components().LoadString(xml, "benchmark.scn"); }

void SetCounters(benchmark::State& state, const Simulation& simulation) {
  const double dofs = static_cast<double>(simulation.solver_nodes().front().system->num_dofs());
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["DOF*steps/s"] = benchmark::Counter(dofs * static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["DOFs"] = dofs;
}

void BM_Step(benchmark::State& state, const std::string& solver, const std::string& linear_solver) {
  if (Components().FindComponent(solver.substr(1, solver.find(' ') - 1)) == nullptr) {
    state.SkipWithError("solver plugin not found");
    return;
  }
  Simulation simulation = Load(ClothScene(static_cast<int>(state.range(0)), solver, linear_solver));
  try {
    simulation.Step();  // first step: one-time work (factorisation analysis, start-up values)
    for (auto _ : state) simulation.Step();
  } catch (const fluxion::NumericalError& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, simulation);
}

// Assembly alone: the force and the tangent stiffness at the current state.
void BM_Assembly(benchmark::State& state) {
  const Simulation simulation =
      Load(ClothScene(static_cast<int>(state.range(0)), "<EulerExplicitSolver/>", ""));
  const auto& node = simulation.solver_nodes().front();
  fluxion::Vector force(node.system->num_dofs());
  fluxion::SparseMatrix stiffness = node.system->CreateMatrix();
  for (auto _ : state) {
    node.system->ComputeForce(node.state, force);
    node.system->AssembleStiffness(node.state, stiffness);
    benchmark::DoNotOptimize(stiffness.valuePtr());
  }
  SetCounters(state, simulation);
}

const std::map<std::string, std::string> kExplicit = {
    {"EulerExplicit", "<EulerExplicitSolver />"},
    {"RungeKutta2", "<RungeKutta2Solver />"},
    {"RungeKutta4", "<RungeKutta4Solver />"},
    {"CentralDifference", "<CentralDifferenceSolver />"},
};
const std::map<std::string, std::string> kImplicit = {
    {"EulerImplicit", "<EulerImplicitSolver />"},
    {"NewmarkImplicit", "<NewmarkImplicitSolver />"},
    {"VariationalSymplectic", "<VariationalSymplecticSolver />"},
};
const std::map<std::string, std::string> kLinearSolvers = {
    {"CG", R"(<CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-12"/>)"},
    {"LDL", "<SparseLDLSolver/>"},
};

int RegisterAll() {
  benchmark::RegisterBenchmark("Assembly", BM_Assembly)
      ->RangeMultiplier(2)
      ->Range(32, 256)
      ->Unit(benchmark::kMicrosecond);
  for (const auto& [name, xml] : kExplicit)
    benchmark::RegisterBenchmark(("Step/" + name).c_str(), BM_Step, xml, std::string())
        ->RangeMultiplier(2)
        ->Range(32, 256)
        ->Unit(benchmark::kMicrosecond);
  for (const auto& [name, xml] : kImplicit)
    for (const auto& [linear, linear_xml] : kLinearSolvers)
      benchmark::RegisterBenchmark(("Step/" + name + "/" + linear).c_str(), BM_Step, xml,
                                   linear_xml)
          ->RangeMultiplier(2)
          ->Range(32, 256)
          ->Unit(benchmark::kMillisecond);
  return 0;
}
const int registered = RegisterAll();

}  // namespace

BENCHMARK_MAIN();
