// fluxion-benchmark's finite-element cases (issue #29): one implicit step of a 20 × 20 × 80 beam
// (21 × 21 × 81 = 35 721 points, 107 163 DOFs, cells of 5 cm) as
//
//   hexahedra   HexahedronFEMForceField, method large, on the 32 000 cells of its
//               RegularGridTopology;
//   tetrahedra  TetrahedronFEMForceField, method large, on the 192 000 tetrahedra that
//               Hexa2TetraTopologicalMapping cuts the same cells into;
//   springs     MeshSpringForceField on the grid's 103 320 edges (SOFA's cheap stand-in for an
//               elastic solid),
//
// clamped at z = 0, under gravity, EulerImplicitSolver (Rayleigh 0.1/0.1) with CGLinearSolver held
// to exactly 25 iterations (tolerance and threshold 0: the matrix-free tangent product 26 times per
// step), dt = 0.01; on 1 and 2 threads:
//
//   FemBeam/<kind>/<threads>
//
// Counter `RSS MB`: the growth of the process's resident memory while the scene is loaded and
// its first step taken (the mesh, the force field's rest data, the solver's buffers), after
// malloc_trim so that memory freed by an earlier case is not counted as reused. It is a
// measure of the whole scene, not of the force field alone. tools/benchmarks/fem_ratios.py runs
// the cases and prints each as a ratio to the springs.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <fstream>
#include <string>

#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/threads.h"

namespace {

using fluxion::Simulation;

const fluxion::Host& FemComponents() {
  // CG's 25 deliberately unconverged iterations would log a warning at every step.
  fluxion::SetLogLevel(fluxion::LogLevel::kError);
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

std::string FemBeamScene(const std::string& kind) {
  std::string elastic;
  if (kind == "hexahedra") {
    elastic = R"(<HexahedronFEMForceField youngModulus="1e6" poissonRatio="0.3" method="large"/>)";
  } else if (kind == "tetrahedra") {
    elastic = R"(<Node name="tetrahedra"><MeshTopology name="tets"/>
      <Hexa2TetraTopologicalMapping input="@../grid" output="@tets"/>
      <TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0.3" method="large"/></Node>)";
  } else {
    elastic = R"(<MeshSpringForceField linesStiffness="1e4" linesDamping="0"/>)";
  }
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="25" tolerance="0" threshold="0"/>
    <RegularGridTopology name="grid" n="21 21 81" min="0 0 0" max="1 1 4"/>
    <MechanicalObject name="beam"/>
    <UniformMass totalMass="100"/>
    <BoxROI name="clamp" box="-0.1 -0.1 -0.1 1.1 1.1 0.001"/>
    <FixedProjectiveConstraint indices="@clamp.indices"/>
    )" + elastic +
         "\n</Node>";
}

// Resident memory of this process [MB] (Linux: /proc/self/status, VmRSS in kB).
double ResidentMegabytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kilobytes = 0.0;
      status >> kilobytes;
      return kilobytes / 1024.0;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0.0;
}

void BM_FemBeam(benchmark::State& state, const std::string& kind) {
  fluxion::SetThreadCount(static_cast<int>(state.range(0)));
  const fluxion::Host& host = FemComponents();
  malloc_trim(0);
  const double before = ResidentMegabytes();
  Simulation simulation = host.LoadString(FemBeamScene(kind), "fem_benchmark.scn");
  simulation.Step();  // first step: buffers sized, partitions built
  const double after = ResidentMegabytes();
  for (auto _ : state) simulation.Step();
  state.counters["RSS MB"] = after - before;
  state.counters["DOFs"] =
      static_cast<double>(simulation.solver_nodes().front().system->num_dofs());
  fluxion::SetThreadCount(0);
}

int RegisterFem() {
  for (const char* kind : {"hexahedra", "tetrahedra", "springs"})
    benchmark::RegisterBenchmark((std::string("FemBeam/") + kind).c_str(), BM_FemBeam,
                                 std::string(kind))
        ->Arg(1)
        ->Arg(2)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  return 0;
}
const int fem_registered = RegisterFem();

}  // namespace
