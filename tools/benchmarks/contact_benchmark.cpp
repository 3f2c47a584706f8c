// fluxion-benchmark's contact cases (issue #26): the cost of SOFA's collision pipeline per step,
// as a ratio to the same cloth's step without it, and its growth with the cloth's size.
//
// The cloth is solver_benchmark.cpp's (n × n points of a RegularGridTopology, MeshSpringForceField
// on its edges, two corners fixed, EulerExplicitSolver at dt = 2e-7, so it does not move during
// the benchmark) with triangle, line and point collision models, lying 8 mm above a static floor
// of 20 000 triangles (a 101 × 101 grid of 2 m × 2 m: cells of 2 cm). MinProximityIntersection
// with alarmDistance 1 cm and contactDistance 5 mm: every cloth point is a point–triangle contact
// (n² contacts, the worst case: a cloth that has landed), each cloth element's box overlaps a few
// floor triangles' boxes, and every contact gets a penalty force (the response) each step.
//
//   Contact/<n>/<threads>   one step of the cloth with the pipeline: detection, response, step
//   NoContact/<n>/<threads> the same scene without the pipeline (the models are inert then)
//
// (Contact − NoContact) / NoContact is what contact costs per step, in units of the plain step;
// tools/benchmarks/contact_ratios.py prints it for 64², 128², 256² on 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <string>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/threads.h"

namespace {

using fluxion::Simulation;

const fluxion::Host& ContactComponents() {
  fluxion::SetLogLevel(fluxion::LogLevel::kError);
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

std::string ContactClothScene(int n, bool pipeline) {
  const std::string size = std::to_string(n);
  std::string xml = R"(<Node name="root" gravity="0 -9.81 0" dt="2e-7">)";
  if (pipeline)
    xml += R"(<CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
      <MinProximityIntersection alarmDistance="0.01" contactDistance="0.005"/>
      <CollisionResponse response="PenalityContactForceField"/>)";
  xml += R"(<Node name="cloth"><EulerExplicitSolver/>
      <RegularGridTopology n=")" +
         size + " 1 " + size + R"(" min="0 0.008 0" max="1 0.008 1"/>
      <MechanicalObject name="dofs"/><UniformMass totalMass="1"/>
      <FixedProjectiveConstraint indices="0 )" +
         std::to_string(n - 1) + R"("/>
      <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
      <TriangleCollisionModel/><LineCollisionModel/><PointCollisionModel/></Node>
    <Node name="floor">
      <RegularGridTopology n="101 1 101" min="-0.5 0 -0.5" max="1.5 0 1.5"/>
      <MechanicalObject name="dofs"/>
      <TriangleCollisionModel simulated="0" moving="0"/></Node></Node>)";
  return xml;
}

void BM_ContactStep(benchmark::State& state, bool pipeline) {
  fluxion::SetThreadCount(static_cast<int>(state.range(1)));
  Simulation simulation = ContactComponents().LoadString(
      ContactClothScene(static_cast<int>(state.range(0)), pipeline), "contact_benchmark.scn");
  try {
    simulation.Step();  // first step: the trees are built, buffers reach their size
    if (pipeline && simulation.contacts().size() < static_cast<std::size_t>(state.range(0))) {
      state.SkipWithError("the cloth does not touch the floor: the scene is wrong");
      return;
    }
    for (auto _ : state) simulation.Step();
  } catch (const fluxion::NumericalError& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters["contacts"] = static_cast<double>(simulation.contacts().size());
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

int RegisterContact() {
  for (const bool pipeline : {true, false})
    benchmark::RegisterBenchmark(pipeline ? "Contact" : "NoContact", BM_ContactStep, pipeline)
        ->ArgsProduct({{64, 128, 256}, {1, 2}})
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  return 0;
}
const int registered = RegisterContact();

}  // namespace
