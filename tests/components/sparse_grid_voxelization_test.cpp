// SOFA's SparseGridTopology voxelization (mechanics/sparse_grid.cpp, triangle_box_overlap.cpp)
// against closed forms: a cube's exact cell counts and volumes; an inscribed sphere polyhedron
// whose volume the inside cells bound from below and the kept (inside + boundary) cells from
// above, the gap shrinking as the cell size; the triangle–cell test's separating axes.
#include <gmock/gmock.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mechanics/sparse_grid.h"
#include "mechanics/triangle_box_overlap.h"
#include "sparse_grid_test_meshes.h"

namespace fluxion {
namespace {

using internal::CellKind;
using internal::VoxelGrid;
using sparse_grid_test::Cube;
using sparse_grid_test::EnclosedVolume;
using sparse_grid_test::Icosphere;
using sparse_grid_test::Mesh;
using sparse_grid_test::Point;

struct Counts {
  long boundary = 0, inside = 0;
};
Counts Count(const std::vector<CellKind>& kinds) {
  Counts counts;
  for (const CellKind kind : kinds) {
    counts.boundary += kind == CellKind::kBoundary;
    counts.inside += kind == CellKind::kInside;
  }
  return counts;
}

// --- The triangle–cell test ---------------------------------------------------------------------

TEST(TriangleMeetsCentredBox, SeparatedByEachKindOfAxisAndTouchingMeets) {
  using internal::TriangleMeetsCentredBox;
  // Inside, and a large triangle through the box with no vertex in it.
  EXPECT_TRUE(TriangleMeetsCentredBox({0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({-5, -5, 0}, {5, -5, 0}, {0, 5, 0}, 0.5));
  // A face normal separates; touching the face x = ½ meets.
  EXPECT_FALSE(TriangleMeetsCentredBox({0.6, 0, 0}, {1, 0, 0}, {1, 1, 0}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({0.5, 0, 0}, {1, 0, 0}, {1, 1, 0}, 0.5));
  // The triangle's plane x + y + z = 1.6 separates (the corner reaches 1.5); 1.5 touches it.
  EXPECT_FALSE(TriangleMeetsCentredBox({1.6, 0, 0}, {0, 1.6, 0}, {0, 0, 1.6}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({1.5, 0, 0}, {0, 1.5, 0}, {0, 0, 1.5}, 0.5));
  // An edge axis: the triangle x + y = 1.1 (standing along z) misses the edge x = y = ½ while
  // its bounding box and plane tests cannot tell (its plane contains the z direction).
  EXPECT_FALSE(TriangleMeetsCentredBox({1.1, 0, -1}, {0, 1.1, -1}, {0.55, 0.55, 1}, 0.5));
  EXPECT_TRUE(TriangleMeetsCentredBox({1.0, 0, -1}, {0, 1.0, -1}, {0.5, 0.5, 1}, 0.5));
  // A degenerate triangle (a segment) through the box, and one beside it.
  EXPECT_TRUE(TriangleMeetsCentredBox({-1, 0, 0}, {1, 0, 0}, {0, 0, 0}, 0.5));
  EXPECT_FALSE(TriangleMeetsCentredBox({-1, 0.6, 0}, {1, 0.6, 0}, {0, 0.6, 0}, 0.5));
}

// --- Voxelization against closed forms ----------------------------------------------------------

TEST(SparseGridVoxelization, CubeCellsAndVolumeAreExact) {
  // The cube [0.2, 0.8]³ in the grid [0, 1]³ of n points per axis (cell h = 1/(n − 1)); no face
  // lies on a grid plane for these n. The surface crosses the cells whose index range along each
  // axis reaches a face: m = ⌊0.8/h⌋ − ⌊0.2/h⌋ + 1 cells per axis are kept, the (m − 2)³ of the
  // middle inside, so the kept volume is m³h³ ≥ 0.216 ≥ (m − 2)³h³.
  const Mesh cube = Cube(0.2, 0.8);
  for (const Index n : {4, 6, 9, 12, 23, 47}) {
    const double h = 1.0 / static_cast<double>(n - 1);
    const VoxelGrid grid{.n = {n, n, n}, .min = {0, 0, 0}, .max = {1, 1, 1}};
    const Counts counts = Count(internal::VoxelizeSurface(grid, cube.vertices, cube.triangles));
    const long m = static_cast<long>(std::floor(0.8 / h) - std::floor(0.2 / h)) + 1;
    EXPECT_EQ(counts.boundary + counts.inside, m * m * m) << n;
    EXPECT_EQ(counts.inside, (m - 2) * (m - 2) * (m - 2)) << n;
    const double cell = h * h * h;
    EXPECT_GE(static_cast<double>(counts.boundary + counts.inside) * cell, 0.216) << n;
    EXPECT_LE(static_cast<double>(counts.inside) * cell, 0.216) << n;
  }
}

TEST(SparseGridVoxelization, SphereVolumeIsBoundedAndTheBoundGapHalvesWithTheCell) {
  // An icosphere of radius 1 (5 subdivisions, 20480 triangles) inscribed in the unit ball: its
  // volume V lies between the inside cells' volume and the kept (inside + boundary) cells'. The
  // gap is the boundary cells' volume ≈ (surface area)·h·c, first order in the cell size h: it
  // must halve (ratio 2, ±15 % for the cell count's discreteness) each time h halves. V itself
  // is 4/3·π·(1 − O(edge²)): within 0.2 % of the ball's for this subdivision.
  const Mesh sphere = Icosphere(5, 1.0, {0.1, -0.2, 0.3});
  const double volume = EnclosedVolume(sphere);
  EXPECT_NEAR(volume, 4.0 / 3.0 * M_PI, 2e-3 * 4.0 / 3.0 * M_PI);
  double previous_gap = 0.0;
  for (const Index cells : {8, 16, 32, 64}) {
    // The grid: SOFA's default box, the mesh's bounding box grown by 1 % per side.
    VoxelGrid grid{.n = {cells + 1, cells + 1, cells + 1}, .min = {}, .max = {}};
    for (int a = 0; a < 3; ++a) {
      double lo = 1e9, hi = -1e9;
      for (const Point& p : sphere.vertices) {
        lo = std::min(lo, p[a]);
        hi = std::max(hi, p[a]);
      }
      grid.min[a] = lo - (hi - lo) / 100;
      grid.max[a] = hi + (hi - lo) / 100;
    }
    double cell = 1.0;
    for (int a = 0; a < 3; ++a) cell *= (grid.max[a] - grid.min[a]) / static_cast<double>(cells);
    const Counts counts = Count(internal::VoxelizeSurface(grid, sphere.vertices, sphere.triangles));
    const double lower = static_cast<double>(counts.inside) * cell;
    const double upper = static_cast<double>(counts.inside + counts.boundary) * cell;
    std::printf("[ info ] %ld³ cells: %ld boundary, %ld inside; %.5f <= V = %.5f <= %.5f\n",
                static_cast<long>(cells), counts.boundary, counts.inside, lower, volume, upper);
    EXPECT_LE(lower, volume) << cells;
    EXPECT_GE(upper, volume) << cells;
    if (previous_gap > 0.0) {
      EXPECT_GT(previous_gap / (upper - lower), 1.7) << cells;
      EXPECT_LT(previous_gap / (upper - lower), 2.3) << cells;
    }
    previous_gap = upper - lower;
  }
}

TEST(SparseGridVoxelization, OpenSurfaceLeaksAndVertexOnlyInputMarksItsCells) {
  // Without its top face the cube's inside is reached by the flood: only the shell is kept.
  Mesh open = Cube(0.2, 0.8);
  open.triangles.resize(10);
  const VoxelGrid grid{.n = {7, 7, 7}, .min = {0, 0, 0}, .max = {1, 1, 1}};
  EXPECT_EQ(Count(internal::VoxelizeSurface(grid, open.vertices, open.triangles)).inside, 0);
  // Points alone (SOFA's position input without elements) mark the cells holding them.
  const Counts points =
      Count(internal::VoxelizeSurface(grid, {{0.1, 0.1, 0.1}, {0.9, 0.5, 0.5}}, {}));
  EXPECT_EQ(points.boundary, 2);
  EXPECT_EQ(points.inside, 0);
}

}  // namespace
}  // namespace fluxion
