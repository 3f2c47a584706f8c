// fluxion-benchmark's cases for SOFA's element FEM (issue #33): one implicit step of a cantilever
// of 10 × 10 × 40 cells (11 × 11 × 41 = 4961 points, 14 883 DOFs, 1 m long) with the material of
// SOFA's Validation/cantilever_beam scenes (E = 2e6, ν = 0.45, NodalMassDensity 1100 and FEMMass
// on the grid's hexahedra), clamped at z = 0, under gravity, EulerImplicitSolver (Rayleigh
// 0.1/0.1), dt = 0.01, as
//
//   corotational-hexahedra / linear-hexahedra     CorotationalFEMForceField /
//                                                 LinearSmallStrainFEMForceField on the 4000 cells
//   corotational-tetrahedra / linear-tetrahedra   the same on the 24 000 tetrahedra that
//                                                 Hexa2TetraTopologicalMapping cuts them into
//   springs                                       MeshSpringForceField on the grid's edges
//
// each with the linear system assembled (SparseLDLSolver: the stiffness assembled and factorised
// every step) and matrix-free (CGLinearSolver held to exactly 25 iterations: the tangent product
// 26 times per step), on 1 and 2 threads:
//
//   ElementFemBeam/<kind>/<assembled|matrixfree>/<threads>
//
// The mesh is large enough for the element loops to split over two threads (4000 hexahedra and
// 24 000 tetrahedra, above the kernels' grains of 512 and 2048 per thread) and small enough for
// the direct solver's factorisation. tools/benchmarks/element_fem_ratios.py prints each case as
// a ratio to the springs' step with the same linear system and threads.
#include <benchmark/benchmark.h>

#include <string>

#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/threads.h"

namespace {

using fluxion::Simulation;

const fluxion::Host& ElementFemHost() {
  // CG's 25 deliberately unconverged iterations would log a warning at every step.
  fluxion::SetLogLevel(fluxion::LogLevel::kError);
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

std::string ElementFemBeamScene(const std::string& kind, const std::string& system) {
  const bool tetrahedra = kind.find("tetrahedra") != std::string::npos;
  const std::string shape = tetrahedra ? "Tetrahedron" : "Hexahedron";
  const std::string component = kind.rfind("corotational", 0) == 0
                                    ? "CorotationalFEMForceField"
                                    : "LinearSmallStrainFEMForceField";
  std::string elastic;
  if (kind == "springs") {
    elastic = R"(<MeshSpringForceField linesStiffness="1e4" linesDamping="0"/>)";
  } else {
    elastic = "<" + component + " template=\"Vec3," + shape +
              "\" youngModulus=\"2e6\" poissonRatio=\"0.45\"/>";
    if (tetrahedra)
      elastic = R"(<Node name="fem"><TetrahedronSetTopologyContainer name="tets"/>
      <Hexa2TetraTopologicalMapping input="@../grid" output="@tets" swapping="true"/>
      )" + elastic +
                "</Node>";
  }
  const std::string solver =
      system == "assembled" ? R"(<SparseLDLSolver/>)"
                            : R"(<CGLinearSolver iterations="25" tolerance="0" threshold="0"/>)";
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    )" + solver +
         R"(
    <RegularGridTopology name="grid" n="11 11 41" min="0 0 0" max="0.25 0.25 1"/>
    <MechanicalObject name="beam"/>
    <NodalMassDensity property="1100"/>
    <FEMMass template="Vec3,Hexahedron"/>
    <BoxROI name="clamp" box="-0.1 -0.1 -0.1 1.1 1.1 0.001"/>
    <FixedProjectiveConstraint indices="@clamp.indices"/>
    )" + elastic +
         "\n</Node>";
}

void BM_ElementFemBeam(benchmark::State& state, const std::string& kind,
                       const std::string& system) {
  fluxion::SetThreadCount(static_cast<int>(state.range(0)));
  const fluxion::Host& host = ElementFemHost();
  Simulation simulation =
      host.LoadString(ElementFemBeamScene(kind, system), "element_fem_benchmark.scn");
  simulation.Step();  // first step: buffers sized, partitions built, pattern analysed
  for (auto _ : state) simulation.Step();
  fluxion::SetThreadCount(0);
}

int RegisterElementFem() {
  for (const char* kind : {"corotational-hexahedra", "linear-hexahedra", "corotational-tetrahedra",
                           "linear-tetrahedra", "springs"})
    for (const char* system : {"assembled", "matrixfree"})
      benchmark::RegisterBenchmark((std::string("ElementFemBeam/") + kind + "/" + system).c_str(),
                                   BM_ElementFemBeam, std::string(kind), std::string(system))
          ->Arg(1)
          ->Arg(2)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return 0;
}
const int element_fem_registered = RegisterElementFem();

}  // namespace
