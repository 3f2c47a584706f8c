// fluxion-benchmark's contact cases (issue #26): the cost of SOFA's collision pipeline per step,
// detection alone and detection with the response, as ratios to the same cloth's step without
// it, and their growth with the cloth's size.
//
// The cloth is solver_benchmark.cpp's (n × n points of a RegularGridTopology, MeshSpringForceField
// on its edges, two corners fixed, EulerExplicitSolver at dt = 2e-7, so it does not move during
// the benchmark; here in the plane z = const, gravity along −z) with triangle, line and point
// collision models, above a static floor of 20 000 triangles (GridMeshCreator: a 101 × 101 grid
// over 2 m × 2 m, cells of 2 cm cut in two). MinProximityIntersection with alarmDistance 1 cm and
// contactDistance 5 mm. Two poses of the cloth:
//
//   landed   flat, 8 mm above the floor: every cloth point is a point–triangle contact (n² of
//            them, less the few above a floor edge), the worst case — a cloth that has landed;
//   falling  tilted by 2.75° about its edge x = 0, which is 4 mm above the floor: the cloth is
//            coming down edge first, and the points of its first eighth (x < 0.125) are within
//            the alarm distance, the rest higher up.
//
// The floor's triangles are checked against the cloth's points (MinProximity has no triangle–
// triangle nor triangle–line test): one model pair.
//
//   NoContact/<n>/<threads>       one step of the cloth without the pipeline (the models inert)
//   Contact/<pose>/<n>/<threads>  one step with the pipeline: detection, response, step; its
//                                 counter `detection` is the pipeline's detection phase alone
//                                 per step (fluxion/contact_times.h), within those same steps
//
// detection / NoContact is what detection costs per step, (Contact − NoContact) / NoContact what
// detection and response cost, in units of the plain step; tools/benchmarks/contact_ratios.py
// prints both for 64², 128², 256² on 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <string>

#include "fluxion/contact_times.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/threads.h"

namespace {

using fluxion::Simulation;

enum class Pose { kLanded, kFalling };

const fluxion::Host& ContactComponents() {
  fluxion::SetLogLevel(fluxion::LogLevel::kError);
  static const fluxion::Host* host = new fluxion::Host();
  return *host;
}

std::string ContactClothScene(int n, bool pipeline, Pose pose) {
  const std::string size = std::to_string(n);
  // Falling: the cloth's edge x = 0 at 4 mm, the plane rising 0.048 per metre (sin 2.75°), so
  // that its points with x < (10 − 4) mm / 0.048 = 0.125 are within the 1 cm alarm distance.
  const std::string height = pose == Pose::kLanded ? "0.008" : "0.004";
  const std::string tilt = pose == Pose::kLanded ? "" : R"( rotation="0 -2.75 0")";
  std::string xml = R"(<Node name="root" gravity="0 0 -9.81" dt="2e-7">)";
  if (pipeline)
    xml += R"(<CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
      <MinProximityIntersection alarmDistance="0.01" contactDistance="0.005"/>
      <CollisionResponse response="PenalityContactForceField"/>)";
  xml += R"(<Node name="cloth"><EulerExplicitSolver/>
      <RegularGridTopology n=")" +
         size + " " + size + R"( 1" min="0 0 )" + height + R"(" max="1 1 )" + height + R"("/>
      <MechanicalObject name="dofs")" +
         tilt + R"(/><UniformMass totalMass="1"/>
      <FixedProjectiveConstraint indices="0 )" +
         std::to_string(n - 1) + R"("/>
      <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
      <TriangleCollisionModel/><LineCollisionModel/><PointCollisionModel/></Node>
    <Node name="floor">
      <GridMeshCreator name="grid" resolution="101 101" scale="2" translation="-0.5 -0.5 0"/>
      <MeshTopology src="@grid"/><MechanicalObject name="dofs" src="@grid"/>
      <TriangleCollisionModel simulated="0" moving="0"/></Node></Node>)";
  return xml;
}

const char* PoseName(Pose pose) { return pose == Pose::kLanded ? "landed" : "falling"; }

void BM_ContactStep(benchmark::State& state, bool pipeline, Pose pose) {
  fluxion::SetThreadCount(static_cast<int>(state.range(1)));
  const auto n = static_cast<std::size_t>(state.range(0));
  Simulation simulation = ContactComponents().LoadString(
      ContactClothScene(static_cast<int>(n), pipeline, pose), "contact_benchmark.scn");
  try {
    simulation.Step();  // first step: the trees are built, buffers reach their size
    // Landed: every point touches, falling: those of the first eighth of the columns — less
    // the few above a floor edge; half of that catches a scene that is wrong.
    const std::size_t expected = (pose == Pose::kLanded ? n * n : n * (n / 8)) / 2;
    if (pipeline && simulation.contacts().size() < expected) {
      state.SkipWithError("the cloth touches the floor less than expected: the scene is wrong");
      return;
    }
    const fluxion::ContactTimes before = fluxion::MeasuredContactTimes(simulation);
    for (auto _ : state) simulation.Step();
    // The pipeline's detection phase within those steps, per step [s].
    const fluxion::ContactTimes after = fluxion::MeasuredContactTimes(simulation);
    if (pipeline)
      state.counters["detection"] = benchmark::Counter(after.detection - before.detection,
                                                       benchmark::Counter::kAvgIterations);
  } catch (const fluxion::NumericalError& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters["contacts"] = static_cast<double>(simulation.contacts().size());
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

int RegisterContact() {
  const auto sizes_and_threads = [](benchmark::internal::Benchmark* b) {
    b->ArgsProduct({{64, 128, 256}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
  };
  sizes_and_threads(
      benchmark::RegisterBenchmark("NoContact", BM_ContactStep, false, Pose::kLanded));
  for (const Pose pose : {Pose::kLanded, Pose::kFalling})
    sizes_and_threads(benchmark::RegisterBenchmark(
        ("Contact/" + std::string(PoseName(pose))).c_str(), BM_ContactStep, true, pose));
  return 0;
}
const int registered = RegisterContact();

}  // namespace
