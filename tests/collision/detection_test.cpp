// Detection end to end (collision/detection.h): the BVH finds the same contacts as testing every
// element pair, in SOFA's model-pair order, with the same bits on one and two threads, and
// without allocating once warmed up.
#include "collision/detection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "collision_test_meshes.h"
#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"

namespace fluxion::internal::collision {
namespace {

using testing::CountOutputs;
using testing::ExpectSameContacts;
using testing::Grid;
using testing::GridMesh;
using testing::Model;

using Method = IntersectionSettings::Method;

// Two jittered wavy sheets crossing each other (object 0 and 1), each with point, line and
// triangle models, plus spheres on the second sheet's points; the first sheet collides with
// itself.
struct TwoSheets {
  GridMesh lower = Grid(24, 1.0, 0.01, 11, [](double u, double v) {
    return 0.05 * std::sin(9 * u) * std::cos(7 * v);
  });
  GridMesh upper = Grid(20, 1.0, 0.01, 23, [](double u, double v) {
    return 0.04 + 0.08 * (u - 0.5) + 0.05 * std::sin(11 * v);
  });
  std::vector<CollisionModelDescription> models;
  std::vector<const double*> positions = {lower.x.data(), upper.x.data()};

  TwoSheets() {
    for (const ElementKind kind : {ElementKind::kTriangle, ElementKind::kLine, ElementKind::kPoint})
      models.push_back(Model(kind, 0, 0, lower.x, {}, lower.triangles));
    for (CollisionModelDescription& m : models) m.self_collision = true;
    for (const ElementKind kind :
         {ElementKind::kTriangle, ElementKind::kLine, ElementKind::kPoint, ElementKind::kSphere})
      models.push_back(Model(kind, 1, 1, upper.x, {}, upper.triangles));
    models.back().radius = 0.01;
    models[4].contact_distance = 0.002;  // a model's own contact distance widens its pairs
    // Each sheet's point model sits beside its line model: LocalMinDistance filters its points.
    models[2].line_model_in_context = models[5].line_model_in_context = true;
  }
};

IntersectionSettings Settings(Method method) {
  IntersectionSettings s;
  s.method = method;
  s.alarm_distance = 0.03;
  s.contact_distance = 0.01;
  if (method == Method::kNewProximity) s.use_line_line = false;  // NewProximity's default
  return s;
}

class EveryMethod : public ::testing::TestWithParam<Method> {};

TEST_P(EveryMethod, TreesFindWhatEveryPairFinds) {
  TwoSheets scene;
  PipelineSettings reference;
  reference.test_all_element_pairs = true;
  Detection all(scene.models, Settings(GetParam()), reference);
  Detection bvh(scene.models, Settings(GetParam()), PipelineSettings{});
  std::vector<ModelPairContacts> expected, found;
  all.Detect(scene.positions, expected);
  bvh.Detect(scene.positions, found);
  EXPECT_GT(CountOutputs(expected), 100U);  // the comparison is not empty
  ExpectSameContacts(found, expected);
  // Moved: the trees are refitted, not rebuilt; still the same contacts.
  for (double& v : scene.upper.x) v *= 0.97;
  all.Detect(scene.positions, expected);
  bvh.Detect(scene.positions, found);
  ExpectSameContacts(found, expected);
}

TEST_P(EveryMethod, SameBitsOnOneAndTwoThreads) {
  TwoSheets scene;
  PipelineSettings two;
  two.threads = 2;
  Detection serial(scene.models, Settings(GetParam()), PipelineSettings{});
  Detection parallel(scene.models, Settings(GetParam()), two);
  std::vector<ModelPairContacts> a, b;
  serial.Detect(scene.positions, a);
  parallel.Detect(scene.positions, b);
  ExpectSameContacts(b, a);
}

INSTANTIATE_TEST_SUITE_P(Detection, EveryMethod,
                         ::testing::Values(Method::kMinProximity, Method::kNewProximity,
                                           Method::kLocalMinDistance, Method::kDiscrete));

TEST(Detection, ModelPairsInSofasOrderWithSwaps) {
  TwoSheets scene;
  Detection detection(scene.models, Settings(Method::kMinProximity), PipelineSettings{});
  std::vector<ModelPairContacts> contacts;
  detection.Detect(scene.positions, contacts);
  // BruteForceBroadPhase: model by model, itself first, then each earlier model; (this, earlier)
  // unless the intersector takes them the other way. Models: 0–2 the lower sheet's triangles,
  // lines, points (one node, selfCollision), 3–6 the upper sheet's triangles, lines, points,
  // spheres (another node). MinProximity has no triangle–triangle nor triangle–line test.
  const std::vector<std::array<int, 2>> plan = {
      {1, 1}, {2, 2}, {0, 2}, {1, 2},  // lines, points; points with triangles, lines
      {3, 2}, {4, 1}, {4, 2},          // upper triangles, lines with the lower sheet
      {0, 5}, {1, 5}, {5, 2},          // upper points
      {0, 6}, {1, 6}, {6, 2}};         // upper spheres
  // Pairs without contacts are left out: the rest keep the plan's order.
  std::size_t next = 0;
  for (const ModelPairContacts& c : contacts) {
    while (next < plan.size() && plan[next] != std::array<int, 2>{c.model1, c.model2}) ++next;
    ASSERT_LT(next, plan.size()) << "unexpected or misplaced pair " << c.model1 << ", " << c.model2;
    ++next;
  }
  // The sheets cross: the pairs between them have contacts.
  for (const std::array<int, 2> crossing : {std::array{3, 2}, std::array{4, 1}, std::array{0, 5}})
    EXPECT_TRUE(std::any_of(contacts.begin(), contacts.end(),
                            [&](const ModelPairContacts& c) {
                              return std::array{c.model1, c.model2} == crossing;
                            }))
        << crossing[0] << ", " << crossing[1];
}

TEST(Detection, SwappedPairPutsTheTriangleModelFirst) {
  const std::vector<double> tri = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<double> point = {0.25, 0.25, 0.1};
  const std::vector<double>* objects[2] = {&point, &tri};
  std::vector<const double*> positions = {point.data(), tri.data()};
  const std::vector<CollisionModelDescription> models = {
      Model(ElementKind::kPoint, 0, 0, *objects[0]),
      Model(ElementKind::kTriangle, 1, 1, *objects[1], {}, {{0, 1, 2}})};
  Detection detection(models, IntersectionSettings{}, PipelineSettings{});
  std::vector<ModelPairContacts> contacts;
  detection.Detect(positions, contacts);
  ASSERT_EQ(contacts.size(), 1U);
  EXPECT_EQ(contacts[0].model1, 1);  // (triangle, point): SOFA's registered order
  EXPECT_EQ(contacts[0].model2, 0);
  ASSERT_EQ(contacts[0].outputs.size(), 1U);
  EXPECT_EQ(contacts[0].outputs[0].element, (std::array<Index, 2>{0, 0}));
  EXPECT_EQ(contacts[0].outputs[0].normal, Vec3(0, 0, 1));
  // Two point models: (later, earlier).
  const std::vector<CollisionModelDescription> two_points = {
      Model(ElementKind::kPoint, 0, 0, point), Model(ElementKind::kPoint, 1, 0, point)};
  Detection points(two_points, IntersectionSettings{}, PipelineSettings{});
  points.Detect(positions, contacts);
  ASSERT_EQ(contacts.size(), 1U);
  EXPECT_EQ(contacts[0].model1, 1);
  EXPECT_EQ(contacts[0].model2, 0);
}

TEST(Detection, SimulatedActiveGroupsAndSelfCollision) {
  const std::vector<double> x = {0, 0, 0, 0.1, 0, 0, 0.2, 0, 0, 0.3, 0, 0};
  std::vector<const double*> positions = {x.data()};
  const auto count = [&](std::vector<CollisionModelDescription> models) {
    Detection detection(std::move(models), IntersectionSettings{}, PipelineSettings{});
    std::vector<ModelPairContacts> contacts;
    detection.Detect(positions, contacts);
    return contacts.size();
  };
  CollisionModelDescription a = Model(ElementKind::kPoint, 0, 0, x);
  CollisionModelDescription b = Model(ElementKind::kPoint, 1, 0, x);
  EXPECT_EQ(count({a, b}), 1U);
  CollisionModelDescription static_a = a, static_b = b;
  static_a.simulated = static_b.simulated = false;
  EXPECT_EQ(count({static_a, static_b}), 0U);  // neither simulated
  EXPECT_EQ(count({static_a, b}), 1U);
  CollisionModelDescription inactive = b;
  inactive.active = false;
  EXPECT_EQ(count({a, inactive}), 0U);
  CollisionModelDescription grouped_a = a, grouped_b = b;
  grouped_a.groups = {3};
  grouped_b.groups = {3};
  EXPECT_EQ(count({grouped_a, grouped_b}), 0U);
  // One model with itself: only with selfCollision; points 0 and 3 of the chain 0-1-2-3 have no
  // common neighbour, nor do 0 and 2 without edges.
  EXPECT_EQ(count({a}), 0U);
  CollisionModelDescription self = a;
  self.self_collision = true;
  EXPECT_EQ(count({self}), 1U);
}

TEST(Detection, SelfCollisionPrunesNeighboursOfAChain) {
  // A folded chain: points 0 … 5 on a line, 6 … 9 coming back 0.05 above. Points closer than
  // the alarm distance but neighbours (or sharing one) are not contacts.
  std::vector<double> x;
  std::vector<std::array<Index, 2>> edges;
  for (int i = 0; i < 6; ++i) x.insert(x.end(), {0.1 * i, 0.0, 0.0});
  for (int i = 0; i < 4; ++i) x.insert(x.end(), {0.5 - 0.1 * i, 0.0, 0.05});
  for (Index i = 0; i + 1 < 10; ++i) edges.push_back({i, i + 1});
  CollisionModelDescription points = Model(ElementKind::kPoint, 0, 0, x, edges);
  points.self_collision = true;
  IntersectionSettings settings;
  settings.alarm_distance = 0.06;
  settings.contact_distance = 0.0;
  Detection detection({points}, settings, PipelineSettings{});
  std::vector<const double*> positions = {x.data()};
  std::vector<ModelPairContacts> contacts;
  detection.Detect(positions, contacts);
  ASSERT_EQ(contacts.size(), 1U);
  // Within 0.06: (6, 5) joined, (7, 4) sharing no neighbour… 7's neighbours 6, 8; 4's 3, 5:
  // kept; (8, 3), (9, 2) kept; (6, 5) and (7, 6)-like chain neighbours dropped.
  std::vector<std::array<Index, 2>> pairs;
  for (const DetectionOutput& o : contacts[0].outputs) pairs.push_back(o.element);
  EXPECT_EQ(pairs, (std::vector<std::array<Index, 2>>{{7, 4}, {8, 3}, {9, 2}}));
}

TEST(Detection, RefusesTooFewPositionArrays) {
  const std::vector<double> x = {0, 0, 0};
  Detection detection({Model(ElementKind::kPoint, 0, 3, x)}, IntersectionSettings{},
                      PipelineSettings{});
  std::vector<const double*> positions = {x.data()};
  std::vector<ModelPairContacts> contacts;
  EXPECT_THROW(detection.Detect(positions, contacts), UsageError);
}

class DetectionAllocation : public ::testing::TestWithParam<std::tuple<Method, int>> {};

TEST_P(DetectionAllocation, NoneOnceWarmedUp) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "AddressSanitizer owns malloc";
  TwoSheets scene;
  PipelineSettings pipeline;
  pipeline.threads = std::get<1>(GetParam());
  Detection detection(scene.models, Settings(std::get<0>(GetParam())), pipeline);
  std::vector<ModelPairContacts> contacts;
  detection.Detect(scene.positions, contacts);
  detection.Detect(scene.positions, contacts);
  const long before = conformance::AllocationCount();
  detection.Detect(scene.positions, contacts);
  EXPECT_EQ(conformance::AllocationCount() - before, 0);
  EXPECT_GT(CountOutputs(contacts), 0U);
}

INSTANTIATE_TEST_SUITE_P(MethodsAndThreads, DetectionAllocation,
                         ::testing::Combine(::testing::Values(Method::kNewProximity,
                                                              Method::kLocalMinDistance),
                                            ::testing::Values(1, 2)));

// Not a check: how detection time grows with size (run with --gtest_also_run_disabled_tests).
// A cloth of n² points (triangle, line, point models) over a 20 000-triangle wavy floor, 0.5 mesh
// cells above it, MinProximity.
TEST(DetectionBenchmark, DISABLED_TimeGrowsAsNLogN) {
  const GridMesh floor = Grid(101, 1.0, 0.0, 5, [](double u, double v) {
    return 0.02 * std::sin(13 * u) * std::sin(11 * v);
  });
  for (const int n : {64, 128, 256}) {
    for (const int threads : {1, 2}) {
      const double cell = 1.0 / (n - 1);
      const GridMesh cloth = Grid(n, 1.0, 0.0, 7, [&](double, double) { return 0.02 + cell; });
      std::vector<CollisionModelDescription> models;
      CollisionModelDescription f =
          Model(ElementKind::kTriangle, 0, 0, floor.x, {}, floor.triangles);
      f.simulated = false;
      f.moving = false;
      models.push_back(f);
      for (const ElementKind kind :
           {ElementKind::kTriangle, ElementKind::kLine, ElementKind::kPoint})
        models.push_back(Model(kind, 1, 1, cloth.x, {}, cloth.triangles));
      IntersectionSettings settings;
      settings.alarm_distance = 1.5 * cell;
      settings.contact_distance = 0.5 * cell;
      PipelineSettings pipeline;
      pipeline.threads = threads;
      Detection detection(models, settings, pipeline);
      std::vector<const double*> positions = {floor.x.data(), cloth.x.data()};
      std::vector<ModelPairContacts> contacts;
      detection.Detect(positions, contacts);
      const int repeats = 10;
      const auto start = std::chrono::steady_clock::now();
      for (int r = 0; r < repeats; ++r) detection.Detect(positions, contacts);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count() /
          repeats;
      std::printf("cloth %3d² on %zu floor triangles, %d thread(s): %8.3f ms, %zu contacts\n", n,
                  floor.triangles.size(), threads, ms, CountOutputs(contacts));
    }
  }
}

}  // namespace
}  // namespace fluxion::internal::collision
