// fluxion-benchmark's topological-change cases (issue #30): what removing k triangles from an
// n × n cloth costs, as a ratio to one plain step of the same cloth, for several n at fixed k and
// several k at fixed n. The change should cost what it changes: at fixed k its cost must not grow
// with n (docs/architecture.md "Topological changes").
//
// The cloth is SOFA's TopologicalChanges examples' set-up (FixedConstraint_RemovingMeshTest.scn)
// on a regular mesh: n × n points 1 cm apart in the plane z = 0, each cell cut into two triangles
// (TriangleSetTopologyContainer, its edges derived), DiagonalMass (massDensity 1),
// MeshSpringForceField (stiffness 100, damping 0.5: a spring per edge), two corners fixed,
// EulerImplicitSolver (Rayleigh 0.1, 0.1) with CGLinearSolver (25 iterations, tolerance and
// threshold 1e-5, as the example), gravity along −y, dt = 0.01 s. TopologicalChangeProcessor
// (a process file) removes, at t = 0.02 (the third step), both triangles of k/2 cells of the
// middle row, every other cell from the left, and at t = 0.04 (the fifth step) as many cells of
// the row below: each cell removed takes a triangle pair and the diagonal edge between them (its
// spring) and frees no point (their other edges and points keep a triangle).
//
//   TopologyChange/<n>/<k>   the wall time of the second change itself: the step that applies
//                            it, less the plain step before it (manual time); counters: `step`
//                            the plain step [s], `change_over_step` the change's cost in units
//                            of the plain step, `first_change_over_step` the same for the first
//                            change (which also sets up the in-place follow of the node: a
//                            whole-mesh cost paid once per build of the scene); per iteration,
//                            averaged
//
//   TopologyChangeFreeing/<n>/<k>   the same for removals that free points (SOFA's examples
//                            all do): at t = 0.02 the first k/2 cells of the bottom row, at
//                            t = 0.04 the next k/2 (their ids untouched by the first removal,
//                            which moved top-row cells into the freed slots). Each removal frees
//                            k/2 points of the bottom row (fixed corner 0 among the first); the
//                            last points move into their slots and the system shrinks
//
//   TopologyAddition/<n>/<k>   additions (ADD= Triangles): the cloth with
//                            TriangularFEMForceField (Young 1000, ν 0.3, large) in place of the
//                            springs (MeshSpringForceField does not follow an addition in place)
//                            and DiagonalMass by density, built without the second triangle of the
//                            k/2 cells of the middle row and of the row below that the removals
//                            take; at t = 0.02 the middle row's are added, at t = 0.04 the other
//                            row's. No point is added and the system keeps its size
//                            (build/addition_in_place.h). Measured (one thread, median of 3,
//                            the same loaded machine, docs/architecture.md "Additions in place:
//                            cost"): the rebuild 0.72, 5.0, 11.9, 42.9 ms at n = 16, 32, 64,
//                            128; in place 13 µs, 0.23, 0.91, 3.9 ms (a difference of two CG
//                            steps; the stage itself is about 33 000 instructions per addition
//                            whatever n, callgrind)
//
// tools/benchmarks/topology_change_ratios.py prints the table (n = 16, 32, 64, 128 at k = 8;
// k = 2, 8, 32 at n = 64).
//
// Measured on the 2-CPU build machine (2096 MHz, one thread, RelWithDebInfo, loaded by other
// builds; table and caveats in docs/architecture.md "Topological changes"), k = 8: the rebuild
// (main before issue #30's in-place follow) costs 37.7, 23.9, 2.25, 1.98 plain steps at
// n = 16, 32, 64, 128 (its time 61 times larger at 128 than at 16); the in-place follow 1.31,
// 1.03, 0.10, 0.02 plain steps (56 µs at n = 16, 2–3 ms at n ≥ 64, within the step's noise).
// TopologyChangeFreeing, k = 8, one thread (OMP_NUM_THREADS=1), load 3.4–5: the rebuild 25.0,
// 2.85, 2.86, 3.17 plain steps at n = 16, 32, 64, 128; in place 0.77, 0.21, 0.06, 0.09 (49 µs to
// 3.2 ms: the solver's re-initialisation for the smaller system grew with n). Since
// Solver::FollowSystemChange the change is about 40 000 instructions whatever n (callgrind, the
// load-independent measure: docs/architecture.md "Topological changes"), below the noise of the
// step differences measured here.
//
//   TopologyChangeFreeingExplicit/<n>/<k>   TopologyChangeFreeing under EulerExplicitSolver at
//                            dt = 1 ms: a step with no inner iteration, the same work before and
//                            after the change
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"

namespace {

using fluxion::Simulation;

const fluxion::Host& ChangeComponents() {
  fluxion::SetLogLevel(fluxion::LogLevel::kError);
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

// Point i + n·j at (i, j, 0) cm; cell (i, j) (p = i + n·j) cut into (p, p+1, p+n+1) and
// (p, p+n+1, p+n), cells row by row: cell c holds triangles 2c and 2c + 1.
// `explicit_solver`: EulerExplicitSolver at dt = 1 ms with a density of 1000 kg/m² (stable:
// ω·h ≈ 0.2), whose step does the same work whatever the state — no inner iteration whose count
// a change could alter — so that the change step less the plain step is the change alone.
std::string ChangeClothScene(int n, bool explicit_solver = false) {
  std::string points, triangles;
  for (int p = 0; p < n * n; ++p)
    points += std::to_string(0.01 * (p % n)) + " " + std::to_string(0.01 * (p / n)) + " 0 ";
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const int p = i + n * j;
      triangles += std::to_string(p) + " " + std::to_string(p + 1) + " " +
                   std::to_string(p + n + 1) + " " + std::to_string(p) + " " +
                   std::to_string(p + n + 1) + " " + std::to_string(p + n) + " ";
    }
  const std::string solver = explicit_solver ? R"(<Node name="root" gravity="0 -9.81 0" dt="0.001">
  <EulerExplicitSolver/>)"
                                             : R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-5"/>)";
  return solver + R"(
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity=")" +
         std::string(explicit_solver ? "1000" : "1") + R"("/>
  <MeshSpringForceField name="springs" stiffness="100" damping="0.5"/>
  <FixedProjectiveConstraint name="fix" indices="0 )" +
         std::to_string(n - 1) + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

// The process file: k/2 cells of the middle row at 0.02, of the row below at 0.04 (triangle
// numbers as first built: the first removal moves only top-row cells, the last ones); with
// `freeing`, the first k/2 cells of the bottom row, then the next k/2.
std::string ProcessFile(int n, int k, bool freeing, bool explicit_solver = false) {
  std::string text;
  // At the third and fifth steps.
  const char* first = explicit_solver ? "0.002" : "0.02";
  const char* second = explicit_solver ? "0.004" : "0.04";
  if (freeing) {
    for (const int offset : {0, 1}) {
      text += "T= " + std::string(offset == 0 ? first : second) + "\nREMOVE= " + std::to_string(k) +
              "\n";
      for (int c = 0; c < k / 2; ++c) {
        const int cell = c + offset * (k / 2);
        text += std::to_string(2 * cell) + " " + std::to_string(2 * cell + 1) + " ";
      }
      text += "\n";
    }
    return text;
  }
  for (const int offset : {0, 1}) {
    const int row = (n - 1) / 2 - offset;
    text +=
        "T= " + std::string(offset == 0 ? first : second) + "\nREMOVE= " + std::to_string(k) + "\n";
    for (int c = 0; c < k / 2; ++c) {
      const int cell = (1 + 2 * c) + (n - 1) * row;
      text += std::to_string(2 * cell) + " " + std::to_string(2 * cell + 1) + " ";
    }
    text += "\n";
  }
  return text;
}

// The cells whose second triangle the addition cases add: k/2 of the middle row at 0.02, k/2 of
// the row below at 0.04 (ProcessFile's cells).
std::vector<int> AddedCells(int n, int k, int offset) {
  std::vector<int> cells;
  const int row = (n - 1) / 2 - offset;
  for (int c = 0; c < k / 2; ++c) cells.push_back((1 + 2 * c) + (n - 1) * row);
  return cells;
}

// The cloth of ChangeClothScene with a membrane instead of springs, without the second triangle
// of the cells AddedCells gives.
std::string AdditionClothScene(int n, int k) {
  std::vector<int> missing = AddedCells(n, k, 0);
  for (const int c : AddedCells(n, k, 1)) missing.push_back(c);
  std::string points, triangles;
  for (int p = 0; p < n * n; ++p)
    points += std::to_string(0.01 * (p % n)) + " " + std::to_string(0.01 * (p / n)) + " 0 ";
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const int p = i + n * j;
      triangles +=
          std::to_string(p) + " " + std::to_string(p + 1) + " " + std::to_string(p + n + 1) + " ";
      if (std::find(missing.begin(), missing.end(), i + (n - 1) * j) == missing.end())
        triangles +=
            std::to_string(p) + " " + std::to_string(p + n + 1) + " " + std::to_string(p + n) + " ";
    }
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-5" threshold="1e-5"/>
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="1"/>
  <TriangularFEMForceField name="fem" youngModulus="1000" poissonRatio="0.3" method="large"/>
  <FixedProjectiveConstraint name="fix" indices="0 )" +
         std::to_string(n - 1) + R"("/>
  <TopologicalChangeProcessor filename="process.txt"/>
</Node>)";
}

// ADD= lines giving the missing triangles back, the middle row's at 0.02, the other's at 0.04.
std::string AdditionFile(int n, int k) {
  std::string text;
  for (const int offset : {0, 1}) {
    text += std::string(offset == 0 ? "T= 0.02" : "T= 0.04") + "\nADD= Triangles " +
            std::to_string(k / 2) + "\n";
    for (const int cell : AddedCells(n, k, offset)) {
      const int p = cell % (n - 1) + n * (cell / (n - 1));
      text +=
          std::to_string(p) + " " + std::to_string(p + n + 1) + " " + std::to_string(p + n) + " ";
    }
    text += "\n";
  }
  return text;
}

double Seconds(Simulation& simulation) {
  const auto start = std::chrono::steady_clock::now();
  simulation.Step();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void MeasureChange(benchmark::State& state, bool freeing, bool explicit_solver = false,
                   bool addition = false) {
  const int n = static_cast<int>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  if (k / 2 > (n - 2) / 2) {
    state.SkipWithError("the middle row has too few cells for k");
    return;
  }
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topology_change_benchmark";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt")
      << (addition ? AdditionFile(n, k) : ProcessFile(n, k, freeing, explicit_solver));
  const std::string xml =
      addition ? AdditionClothScene(n, k) : ChangeClothScene(n, explicit_solver);
  const std::string file = (folder / "cloth.scn").string();
  double steps = 0.0, ratios = 0.0, first_ratios = 0.0;
  for (auto _ : state) {
    Simulation simulation = ChangeComponents().LoadString(xml, file);
    simulation.Step();                                // t = 0: warms the solver's workspace
    const double first_plain = Seconds(simulation);   // t = 0.01
    const double first_change = Seconds(simulation);  // t = 0.02: the first removal, the step
    const double plain = Seconds(simulation);         // t = 0.03
    const double change = Seconds(simulation);        // t = 0.04: the second removal, the step
    if (simulation.model().objects[0].topology->triangles.size() !=
            static_cast<std::size_t>(2 * (n - 1) * (n - 1) - (addition ? 0 : 2 * k)) ||
        simulation.model().objects[0].num_points != (freeing ? n * n - k : n * n)) {
      state.SkipWithError(
          "the changes did not remove 2k triangles (and k points, freeing) or add k triangles");
      return;
    }
    state.SetIterationTime(std::max(change - plain, 0.0));
    steps += plain;
    ratios += (change - plain) / plain;
    first_ratios += (first_change - first_plain) / first_plain;
  }
  std::filesystem::remove_all(folder);
  state.counters["step"] = benchmark::Counter(steps, benchmark::Counter::kAvgIterations);
  state.counters["change_over_step"] =
      benchmark::Counter(ratios, benchmark::Counter::kAvgIterations);
  state.counters["first_change_over_step"] =
      benchmark::Counter(first_ratios, benchmark::Counter::kAvgIterations);
}

void TopologyChange(benchmark::State& state) { MeasureChange(state, false); }
void TopologyChangeFreeing(benchmark::State& state) { MeasureChange(state, true); }
void TopologyChangeFreeingExplicit(benchmark::State& state) { MeasureChange(state, true, true); }
void TopologyAddition(benchmark::State& state) { MeasureChange(state, false, false, true); }

BENCHMARK(TopologyAddition)
    ->ArgsProduct({{16, 32, 64, 128}, {8}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(TopologyChangeFreeingExplicit)
    ->ArgsProduct({{16, 32, 64, 128}, {8}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(TopologyChangeFreeing)
    ->ArgsProduct({{16, 32, 64, 128}, {8}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(TopologyChange)
    ->ArgsProduct({{16, 32, 64, 128}, {8}})
    ->Args({64, 2})
    ->Args({64, 32})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
