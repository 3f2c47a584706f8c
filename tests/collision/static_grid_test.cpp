// The static model's grid (collision/static_grid.h) visits exactly the boxes BoxesOverlap accepts,
// each once; detection through it (a model that is not `moving`) finds the reference's contacts —
// every element pair tested — bit for bit and in the same order, on one and two threads.
#include "collision/static_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "collision/detection.h"
#include "collision_test_meshes.h"
#include "conformance/allocation_counter.h"

namespace fluxion::internal::collision {
namespace {

using testing::ExpectSameContacts;
using testing::Grid;
using testing::GridMesh;
using testing::Jitter;
using testing::Model;
using Method = IntersectionSettings::Method;

std::vector<Index> Visited(const StaticGrid& grid, const Box& query, double margin) {
  std::vector<Index> visited;
  grid.ForEachOverlap(query, margin, [&](Index e) { visited.push_back(e); });
  std::sort(visited.begin(), visited.end());
  return visited;
}

// The reference: every box, BoxesOverlap, ascending.
std::vector<Index> Overlapping(const std::vector<Box>& boxes, const Box& query, double margin) {
  std::vector<Index> found;
  for (std::size_t e = 0; e < boxes.size(); ++e)
    if (BoxesOverlap(boxes[e], query, margin)) found.push_back(static_cast<Index>(e));
  return found;
}

Box BoxAround(const Vec3& centre, const Vec3& half) { return Box{centre - half, centre + half}; }

// Visited (sorted) has no repeated element and equals the reference.
void ExpectVisitsOverlapping(const StaticGrid& grid, const std::vector<Box>& boxes,
                             const Box& query, double margin) {
  const std::vector<Index> visited = Visited(grid, query, margin);
  EXPECT_EQ(std::adjacent_find(visited.begin(), visited.end()), visited.end()) << "twice";
  EXPECT_EQ(visited, Overlapping(boxes, query, margin))
      << "query (" << query.min.transpose() << ") – (" << query.max.transpose() << "), margin "
      << margin;
}

TEST(StaticGrid, VisitsExactlyTheOverlappingBoxesOnce) {
  // Boxes of sizes varying threefold scattered through a 10 × 10 × 1 slab, queries of every size
  // from a point to a fifth of the slab, margins from 0 to 0.3.
  Jitter random{3};
  std::vector<Box> boxes;
  for (int e = 0; e < 3000; ++e)
    boxes.push_back(BoxAround(Vec3(5 + 5 * random(), 5 + 5 * random(), 0.5 + 0.5 * random()),
                              Vec3(0.1, 0.1, 0.02) * (2 + random())));
  StaticGrid grid;
  ASSERT_TRUE(grid.Build(boxes));
  for (int q = 0; q < 3000; ++q) {
    const Vec3 centre(5 + 6 * random(), 5 + 6 * random(), 0.5 + 1.5 * random());
    const Vec3 half = Vec3(1.0, 1.0, 0.2) * (1 + random()) * (q % 3 == 0 ? 0.0 : 0.5);
    ExpectVisitsOverlapping(grid, boxes, BoxAround(centre, half), 0.15 * (1 + random()));
  }
}

TEST(StaticGrid, BoxesTouchingTheQueryAtTheMarginAreVisited) {
  // Coordinates on a binary lattice (multiples of 1/64), so that box.max + margin lands exactly on
  // the query's min: BoxesOverlap accepts equality, and so must the grid, on both sides of every
  // axis (the lower side is where a box starting a cell before the query is looked for).
  std::vector<Box> boxes;
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 40; ++j)
      boxes.push_back(Box{Vec3(i / 4.0, j / 4.0, 0.0),
                          Vec3(i / 4.0 + 7 / 32.0, j / 4.0 + 11 / 64.0, (i + j) % 5 / 64.0)});
  StaticGrid grid;
  ASSERT_TRUE(grid.Build(boxes));
  const double margin = 3 / 64.0;
  for (std::size_t e = 0; e < boxes.size(); e += 37)
    for (int axis = 0; axis < 3; ++axis) {
      Box above{boxes[e].max, boxes[e].max + Vec3::Constant(1 / 16.0)};
      above.min[axis] += margin;  // touches box e's max from above, at the margin
      above.max[axis] = above.min[axis] + 1 / 64.0;
      ExpectVisitsOverlapping(grid, boxes, above, margin);
      EXPECT_TRUE(BoxesOverlap(boxes[e], above, margin));
      Box below{boxes[e].min - Vec3::Constant(1 / 16.0), boxes[e].min};
      below.max[axis] -= margin;  // touches box e's min from below
      below.min[axis] = below.max[axis] - 1 / 64.0;
      ExpectVisitsOverlapping(grid, boxes, below, margin);
    }
}

TEST(StaticGrid, FlatMeshFarQueriesAndNaN) {
  // A floor's boxes, flat along y (one cell thick); queries beside, above and inside it.
  const GridMesh floor = Grid(30, 1.0, 0.0, 1, [](double, double) { return 0.0; });
  std::vector<Box> boxes;
  for (const auto& t : floor.triangles) {
    Box box{Vec3::Map(&floor.x[3 * t[0]]), Vec3::Map(&floor.x[3 * t[0]])};
    for (const Index v : t) {
      box.min = box.min.cwiseMin(Vec3::Map(&floor.x[3 * v]));
      box.max = box.max.cwiseMax(Vec3::Map(&floor.x[3 * v]));
    }
    boxes.push_back(box);
  }
  StaticGrid grid;
  ASSERT_TRUE(grid.Build(boxes));
  for (const Vec3& p : {Vec3(0.5, 0.5, 0.01), Vec3(0.5, 0.5, 0.3), Vec3(-0.2, 0.5, 0.0),
                        Vec3(1.0, 1.0, 0.0), Vec3(0.0, 0.0, -0.01), Vec3(7.0, -3.0, 2.0)})
    ExpectVisitsOverlapping(grid, boxes, Box{p, p}, 0.02);
  // BoxesOverlap never rejects on an axis where a coordinate is NaN: neither does the grid.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ExpectVisitsOverlapping(grid, boxes, Box{Vec3(0.5, nan, 0.0), Vec3(0.5, nan, 0.0)}, 0.02);
  ExpectVisitsOverlapping(grid, boxes, Box{Vec3(nan, nan, nan), Vec3(nan, nan, nan)}, 0.02);
}

TEST(StaticGrid, RefusesBoxesThatDoNotSuitAGrid) {
  StaticGrid grid;
  EXPECT_FALSE(grid.Build({}));
  // One box across everything sets the cell size for a thousand small ones: one crowded cell.
  std::vector<Box> boxes = {Box{Vec3::Zero(), Vec3::Constant(10.0)}};
  Jitter random{5};
  for (int e = 0; e < 1000; ++e)
    boxes.push_back(BoxAround(Vec3(5 + 5 * random(), 5 + 5 * random(), 5 + 5 * random()),
                              Vec3::Constant(0.01)));
  EXPECT_FALSE(grid.Build(boxes));
  EXPECT_FALSE(grid.usable());
  boxes.erase(boxes.begin());
  EXPECT_TRUE(grid.Build(boxes));
  boxes[3].max[1] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(grid.Build(boxes));
}

// A static jittered wavy floor (object 0: triangle, line and point models, simulated="0"
// moving="0") and a moving cloth crossing it (object 1: triangle, line, point and sphere models).
// Pairs with the floor's triangles, lines or points are searched through the floor's grids, with
// the floor's model first (e.g. floor triangles, cloth points) and second (cloth triangles, floor
// points).
struct StaticFloorAndCloth {
  GridMesh floor = Grid(24, 1.0, 0.01, 31, [](double u, double v) {
    return 0.03 * std::sin(7 * u) * std::cos(5 * v);
  });
  GridMesh cloth = Grid(20, 0.9, 0.01, 37, [](double u, double v) {
    return 0.01 + 0.04 * (v - 0.5) + 0.02 * std::sin(9 * u);
  });
  std::vector<CollisionModelDescription> models;
  std::vector<const double*> positions = {floor.x.data(), cloth.x.data()};

  StaticFloorAndCloth() {
    for (const ElementKind kind :
         {ElementKind::kTriangle, ElementKind::kLine, ElementKind::kPoint}) {
      models.push_back(Model(kind, 0, 0, floor.x, {}, floor.triangles));
      models.back().simulated = false;
      models.back().moving = false;
    }
    for (const ElementKind kind :
         {ElementKind::kTriangle, ElementKind::kLine, ElementKind::kPoint, ElementKind::kSphere})
      models.push_back(Model(kind, 1, 1, cloth.x, {}, cloth.triangles));
    models.back().radius = 0.01;
    models[1].contact_distance = 0.002;
    models[5].line_model_in_context = true;
  }
};

IntersectionSettings Settings(Method method) {
  IntersectionSettings s;
  s.method = method;
  s.alarm_distance = 0.03;
  s.contact_distance = 0.01;
  return s;
}

class StaticModelDetection : public ::testing::TestWithParam<std::tuple<Method, int>> {};

TEST_P(StaticModelDetection, FindsEveryPairsContactsThroughTheGrid) {
  StaticFloorAndCloth scene;
  PipelineSettings reference;
  reference.test_all_element_pairs = true;
  PipelineSettings pipeline;
  pipeline.threads = std::get<1>(GetParam());
  Detection all(scene.models, Settings(std::get<0>(GetParam())), reference);
  Detection fast(scene.models, Settings(std::get<0>(GetParam())), pipeline);
  std::vector<ModelPairContacts> expected, found;
  for (int step = 0; step < 2; ++step) {
    all.Detect(scene.positions, expected);
    fast.Detect(scene.positions, found);
    EXPECT_GT(testing::CountOutputs(expected), 100U);  // the comparison is not empty
    ExpectSameContacts(found, expected);
    // The cloth moves (the floor's boxes and grids stay as first seen, as SOFA's).
    for (double& v : scene.cloth.x) v = 0.98 * v + 0.004;
  }
  // Every pair with a floor model went through its grid: 3 floor models × 4 cloth models, less
  // the pairs MinProximity, NewProximity, LocalMinDistance or Discrete has no test for.
  EXPECT_GT(fast.grid_searched_pairs(), 0);
  EXPECT_EQ(all.grid_searched_pairs(), 0);
}

TEST_P(StaticModelDetection, AllocatesNothingOnceWarmedUp) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "AddressSanitizer owns malloc";
  StaticFloorAndCloth scene;
  PipelineSettings pipeline;
  pipeline.threads = std::get<1>(GetParam());
  Detection detection(scene.models, Settings(std::get<0>(GetParam())), pipeline);
  std::vector<ModelPairContacts> contacts;
  detection.Detect(scene.positions, contacts);
  detection.Detect(scene.positions, contacts);
  const long before = conformance::AllocationCount();
  detection.Detect(scene.positions, contacts);
  EXPECT_EQ(conformance::AllocationCount() - before, 0);
  EXPECT_GT(testing::CountOutputs(contacts), 0U);
}

INSTANTIATE_TEST_SUITE_P(
    MethodsAndThreads, StaticModelDetection,
    ::testing::Combine(::testing::Values(Method::kMinProximity, Method::kNewProximity,
                                         Method::kLocalMinDistance, Method::kDiscrete),
                       ::testing::Values(1, 2)));

}  // namespace
}  // namespace fluxion::internal::collision
