// MakeRegularGrid (mechanics/regular_grid.h): SOFA's RegularGridTopology point numbering, point
// positions and element lists. Expected counts come from closed formulas, as in SOFA's
// RegularGridTopology_test.
#include "mechanics/regular_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

namespace fluxion::internal {
namespace {

struct GridSize {
  Index nx, ny, nz;
};

void PrintTo(const GridSize& n, std::ostream* out) { *out << n.nx << "x" << n.ny << "x" << n.nz; }

std::pair<Index, Index> Key(Index a, Index b) { return {std::min(a, b), std::max(a, b)}; }

class RegularGridCounts : public ::testing::TestWithParam<GridSize> {};

TEST_P(RegularGridCounts, ElementCountsMatchClosedFormulas) {
  const auto [nx, ny, nz] = GetParam();
  const Topology grid = MakeRegularGrid({nx, ny, nz}, {0, 0, 0}, {1, 1, 1});
  // Axis lines, faces in the XY, XZ and YZ planes (interior ones included), and cells.
  const Index lines = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
  const Index quads =
      (nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1);
  const Index hexahedra = (nx - 1) * (ny - 1) * (nz - 1);
  EXPECT_EQ(static_cast<Index>(grid.points.size()), nx * ny * nz);
  EXPECT_EQ(static_cast<Index>(grid.hexahedra.size()), hexahedra);
  EXPECT_EQ(static_cast<Index>(grid.quads.size()), quads);
  EXPECT_EQ(static_cast<Index>(grid.triangles.size()), 2 * quads);
  // Edges come from the triangles: the axis lines plus one diagonal per quad.
  EXPECT_EQ(static_cast<Index>(grid.edges.size()), lines + quads);
  EXPECT_TRUE(grid.tetrahedra.empty());
  EXPECT_EQ(grid.grid_size, (std::array<Index, 3>{nx, ny, nz}));
}

TEST_P(RegularGridCounts, EdgesAreDistinctAxisLinesAndQuadDiagonals) {
  const auto [nx, ny, nz] = GetParam();
  const Topology grid = MakeRegularGrid({nx, ny, nz}, {0, 0, 0}, {1, 1, 1});
  const auto point = [&](Index x, Index y, Index z) { return x + nx * (y + ny * z); };
  std::set<std::pair<Index, Index>> expected;
  for (Index z = 0; z < nz; ++z)
    for (Index y = 0; y < ny; ++y)
      for (Index x = 0; x < nx; ++x) {
        if (x + 1 < nx) expected.insert(Key(point(x, y, z), point(x + 1, y, z)));
        if (y + 1 < ny) expected.insert(Key(point(x, y, z), point(x, y + 1, z)));
        if (z + 1 < nz) expected.insert(Key(point(x, y, z), point(x, y, z + 1)));
      }
  for (const auto& q : grid.quads) expected.insert(Key(q[0], q[2]));  // the q0–q2 diagonal
  std::set<std::pair<Index, Index>> edges;
  for (const auto& e : grid.edges)
    EXPECT_TRUE(edges.insert(Key(e[0], e[1])).second) << "duplicate edge";
  EXPECT_EQ(edges, expected);
}

TEST_P(RegularGridCounts, QuadsAreUnitFacesAndTrianglesSplitThem) {
  const auto [nx, ny, nz] = GetParam();
  const Topology grid = MakeRegularGrid(
      {nx, ny, nz}, {0, 0, 0},
      {static_cast<double>(nx - 1), static_cast<double>(ny - 1), static_cast<double>(nz - 1)});
  // On a grid of unit spacing every quad is a unit square: consecutive vertices 1 apart, the
  // q0–q2 diagonal √2 long.
  const auto distance2 = [&](Index a, Index b) {
    double sum = 0;
    for (int c = 0; c < 3; ++c)
      sum += (grid.points[a][c] - grid.points[b][c]) * (grid.points[a][c] - grid.points[b][c]);
    return sum;
  };
  for (std::size_t k = 0; k < grid.quads.size(); ++k) {
    const auto& q = grid.quads[k];
    for (int i = 0; i < 4; ++i) EXPECT_EQ(distance2(q[i], q[(i + 1) % 4]), 1.0);
    EXPECT_EQ(distance2(q[0], q[2]), 2.0);
    EXPECT_EQ(grid.triangles[2 * k], (std::array<Index, 3>{q[0], q[1], q[2]}));
    EXPECT_EQ(grid.triangles[2 * k + 1], (std::array<Index, 3>{q[0], q[2], q[3]}));
  }
}

INSTANTIATE_TEST_SUITE_P(SofaGrids, RegularGridCounts,
                         ::testing::Values(GridSize{2, 2, 1}, GridSize{3, 3, 1}, GridSize{2, 2, 2},
                                           GridSize{3, 3, 3}, GridSize{4, 3, 2}, GridSize{1, 3, 2},
                                           GridSize{3, 1, 2}),
                         [](const ::testing::TestParamInfo<GridSize>& param_info) {
                           return ::testing::PrintToString(param_info.param);  // e.g. 4x3x2
                         });

TEST(RegularGrid, PointIndexIsXFastestThenYThenZ) {
  const Index nx = 4, ny = 3, nz = 2;
  const Topology grid = MakeRegularGrid({nx, ny, nz}, {-1, 0, 2}, {2, 4, 3});
  ASSERT_EQ(grid.points.size(), 24u);
  // Spacing (max − min)/(n − 1): 1 along x, 2 along y, 1 along z.
  for (Index k = 0; k < nz; ++k)
    for (Index j = 0; j < ny; ++j)
      for (Index i = 0; i < nx; ++i) {
        const auto& p = grid.points[static_cast<std::size_t>(i + nx * (j + ny * k))];
        EXPECT_EQ(p[0], -1.0 + 1.0 * static_cast<double>(i));
        EXPECT_EQ(p[1], 0.0 + 2.0 * static_cast<double>(j));
        EXPECT_EQ(p[2], 2.0 + 1.0 * static_cast<double>(k));
      }
}

TEST(RegularGrid, NonDyadicSpacingIsComputedAsSofaDoes) {
  // SOFA: p = p0 + dx·i with dx = (max − min)/(n − 1), one rounding each.
  const Topology grid = MakeRegularGrid({4, 1, 1}, {0.1, 0, 0}, {0.7, 0, 0});
  const double dx = (0.7 - 0.1) / 3.0;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(grid.points[static_cast<std::size_t>(i)][0], 0.1 + dx * i);
}

TEST(RegularGrid, SinglePointAxesSitAtMidpointForXYAndAtMinimumForZ) {
  const Topology grid = MakeRegularGrid({1, 1, 1}, {1, 2, 3}, {3, 6, 9});
  ASSERT_EQ(grid.points.size(), 1u);
  EXPECT_EQ(grid.points[0], (std::array<double, 3>{2.0, 4.0, 3.0}));  // SOFA's setPos: z = zmin
  EXPECT_TRUE(grid.edges.empty());
  EXPECT_TRUE(grid.quads.empty());
  EXPECT_TRUE(grid.hexahedra.empty());
}

TEST(RegularGrid, FlatGridLiesAtZMin) {
  const Topology grid = MakeRegularGrid({3, 3, 1}, {0, 0, -1}, {2, 2, 1});
  for (const auto& p : grid.points) EXPECT_EQ(p[2], -1.0);
}

TEST(RegularGrid, LineGridHasAxisEdgesOnly) {
  // No quads, hence no triangles: the edges are the axis lines (SOFA's fallback).
  const Topology grid = MakeRegularGrid({4, 1, 1}, {0, 0, 0}, {3, 0, 0});
  EXPECT_TRUE(grid.quads.empty());
  EXPECT_TRUE(grid.triangles.empty());
  ASSERT_EQ(grid.edges.size(), 3u);
  for (Index i = 0; i < 3; ++i)
    EXPECT_EQ(grid.edges[static_cast<std::size_t>(i)], (std::array<Index, 2>{i, i + 1}));
  const Topology vertical = MakeRegularGrid({1, 1, 3}, {0, 0, 0}, {0, 0, 2});
  ASSERT_EQ(vertical.edges.size(), 2u);
  EXPECT_EQ(vertical.edges[1], (std::array<Index, 2>{1, 2}));
}

TEST(RegularGrid, HexahedronVerticesFollowSofaOrder) {
  const Index nx = 3, ny = 2, nz = 2;
  const Topology grid = MakeRegularGrid({nx, ny, nz}, {0, 0, 0}, {2, 1, 1});
  const auto point = [&](Index x, Index y, Index z) { return x + nx * (y + ny * z); };
  ASSERT_EQ(grid.hexahedra.size(), 2u);
  // Cell x = 1: (x,y,z) (x+1,y,z) (x+1,y+1,z) (x,y+1,z), then the same at z+1.
  EXPECT_EQ(grid.hexahedra[1],
            (std::array<Index, 8>{point(1, 0, 0), point(2, 0, 0), point(2, 1, 0), point(1, 1, 0),
                                  point(1, 0, 1), point(2, 0, 1), point(2, 1, 1), point(1, 1, 1)}));
}

TEST(RegularGrid, QuadsListXYThenXZThenYZFaces) {
  const Topology grid = MakeRegularGrid({2, 2, 2}, {0, 0, 0}, {1, 1, 1});
  ASSERT_EQ(grid.quads.size(), 6u);
  // Two XY faces (z = 0, 1), two XZ faces (y = 0, 1), two YZ faces (x = 0, 1).
  const auto constant_axis = [&](const std::array<Index, 4>& q) {
    for (int axis = 0; axis < 3; ++axis) {
      const double value = grid.points[static_cast<std::size_t>(q[0])][axis];
      if (std::all_of(q.begin(), q.end(), [&](Index p) {
            return grid.points[static_cast<std::size_t>(p)][axis] == value;
          }))
        return axis;
    }
    return -1;
  };
  const int expected[6] = {2, 2, 1, 1, 0, 0};
  for (int k = 0; k < 6; ++k)
    EXPECT_EQ(constant_axis(grid.quads[static_cast<std::size_t>(k)]), expected[k]) << k;
}

}  // namespace
}  // namespace fluxion::internal
