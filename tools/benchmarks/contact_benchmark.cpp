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
//   NoContact/<n>/<threads>         one step of the cloth without the pipeline (the models inert)
//   Contact/<pose>/<n>/<threads>    one step with the pipeline: detection, response, step
//   Detection/<pose>/<n>/<threads>  the pipeline's detection alone (collision/detection.h), on the
//                                   scene's own models and positions after one step
//
// Detection / NoContact is what detection costs per step, (Contact − NoContact) / NoContact what
// detection and response cost, in units of the plain step; tools/benchmarks/contact_ratios.py
// prints both for 64², 128², 256² on 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "collision/detection.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/threads.h"

namespace {

using fluxion::Simulation;
namespace collision = fluxion::internal::collision;

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
    for (auto _ : state) simulation.Step();
  } catch (const fluxion::NumericalError& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters["contacts"] = static_cast<double>(simulation.contacts().size());
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// The scene's collision models as its pipeline describes them to detection (build/
// collision_pipeline.cpp): the cloth's triangle, line and point models (node 0, the defaults),
// the floor's triangles (node 1, simulated="0" moving="0"), on the objects' own topologies.
std::vector<collision::CollisionModelDescription> SceneModels(const Simulation& simulation) {
  std::vector<collision::CollisionModelDescription> models;
  const auto model_of = [&](collision::ElementKind kind, int node, const char* object) {
    const int index = simulation.FindObject(object);
    const fluxion::ObjectModel& o = simulation.objects()[static_cast<std::size_t>(index)];
    collision::CollisionModelDescription d;
    d.path = std::string(object) + "/model";
    d.kind = kind;
    d.node = node;
    d.object = index;
    d.topology.num_points = o.num_points;
    d.topology.edges = o.topology->edges;
    d.topology.triangles = o.topology->triangles;
    d.topology.quads = o.topology->quads;
    return d;
  };
  using Kind = collision::ElementKind;
  for (const Kind kind : {Kind::kTriangle, Kind::kLine, Kind::kPoint})
    models.push_back(model_of(kind, 0, "root/cloth/dofs"));
  models.push_back(model_of(Kind::kTriangle, 1, "root/floor/dofs"));
  models.back().simulated = false;
  models.back().moving = false;
  return models;
}

bool SameBits(const std::array<double, 3>& a, const collision::Vec3& b) {
  return std::memcmp(a.data(), b.data(), sizeof(a)) == 0;
}

void BM_Detection(benchmark::State& state, Pose pose) {
  fluxion::SetThreadCount(static_cast<int>(state.range(1)));
  Simulation simulation = ContactComponents().LoadString(
      ContactClothScene(static_cast<int>(state.range(0)), true, pose), "contact_benchmark.scn");
  collision::IntersectionSettings intersection;
  intersection.alarm_distance = 0.01;
  intersection.contact_distance = 0.005;
  collision::PipelineSettings pipeline;
  pipeline.threads = static_cast<int>(state.range(1));
  collision::Detection detection(SceneModels(simulation), intersection, pipeline);
  std::vector<const double*> positions;
  for (int o = 0; o < static_cast<int>(simulation.objects().size()); ++o)
    positions.push_back(simulation.position(o).data());
  std::vector<collision::ModelPairContacts> contacts;
  // The detection the pipeline ran at the first step's start, on the same positions: the same
  // contacts (one output per cloth point here, so the response keeps them all, in order).
  detection.Detect(positions, contacts);
  try {
    simulation.Step();
  } catch (const fluxion::NumericalError& error) {
    state.SkipWithError(error.what());
    return;
  }
  const std::vector<fluxion::Contact>& expected = simulation.contacts();
  bool same = contacts.size() == 1 && contacts[0].outputs.size() == expected.size();
  for (std::size_t k = 0; same && k < expected.size(); ++k) {
    const collision::DetectionOutput& o = contacts[0].outputs[k];
    same = expected[k].model == std::array<int, 2>{contacts[0].model1, contacts[0].model2} &&
           expected[k].element[0] == o.element[0] && expected[k].element[1] == o.element[1] &&
           SameBits(expected[k].point[0], o.point[0]) &&
           SameBits(expected[k].point[1], o.point[1]) && SameBits(expected[k].normal, o.normal);
  }
  if (!same) {
    state.SkipWithError("detection here and in the scene's pipeline differ: the models are wrong");
    return;
  }
  // Now at the positions after one step, as a step's detection would be.
  positions.clear();
  for (int o = 0; o < static_cast<int>(simulation.objects().size()); ++o)
    positions.push_back(simulation.position(o).data());
  for (auto _ : state) {
    detection.Detect(positions, contacts);
    benchmark::DoNotOptimize(contacts.data());
  }
  state.counters["contacts"] =
      static_cast<double>(contacts.empty() ? 0 : contacts[0].outputs.size());
}

int RegisterContact() {
  const auto sizes_and_threads = [](benchmark::internal::Benchmark* b) {
    b->ArgsProduct({{64, 128, 256}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
  };
  sizes_and_threads(
      benchmark::RegisterBenchmark("NoContact", BM_ContactStep, false, Pose::kLanded));
  for (const Pose pose : {Pose::kLanded, Pose::kFalling}) {
    const std::string name = PoseName(pose);
    sizes_and_threads(
        benchmark::RegisterBenchmark(("Contact/" + name).c_str(), BM_ContactStep, true, pose));
    sizes_and_threads(
        benchmark::RegisterBenchmark(("Detection/" + name).c_str(), BM_Detection, pose));
  }
  return 0;
}
const int registered = RegisterContact();

}  // namespace
