// Sources: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//          CylinderGridTopology.cpp and SphereGridTopology.cpp (getPointInGrid).
#include "mechanics/shaped_grids.h"

#include <algorithm>
#include <cmath>

#include "mechanics/regular_grid.h"

namespace fluxion::internal {

namespace {

using GridPoint3 = std::array<double, 3>;

GridPoint3 Cross(const GridPoint3& a, const GridPoint3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double Norm(const GridPoint3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

GridPoint3 Normalized(const GridPoint3& a) {
  const double norm = Norm(a);
  return {a[0] / norm, a[1] / norm, a[2] / norm};
}

// Moves every point of `grid` (SOFA's numbering: i fastest, then j, then k) to `place(i, j, k)`
// given in the frame's coordinates, around `center`.
template <class Place>
void Reshape(Topology& grid, const std::array<Index, 3>& n, const GridPoint3& center,
             const GridPoint3& axis, Place place) {
  const auto frame = SofaGridFrame(axis);
  for (Index k = 0; k < n[2]; ++k)
    for (Index j = 0; j < n[1]; ++j)
      for (Index i = 0; i < n[0]; ++i) {
        const GridPoint3 p = place(i, j, k);
        GridPoint3& point = grid.points[static_cast<std::size_t>(i + n[0] * (j + n[1] * k))];
        for (int c = 0; c < 3; ++c)
          point[c] = center[c] + frame[0][c] * p[0] + frame[1][c] * p[1] + frame[2][c] * p[2];
      }
}

}  // namespace

std::array<GridPoint3, 3> SofaGridFrame(const GridPoint3& axis) {
  const GridPoint3 z = Normalized(axis);
  const GridPoint3 difference = {z[0] - 1.0, z[1], z[2]};
  GridPoint3 x = Norm(difference) < 1e-6 ? GridPoint3{0.0, 1.0, 0.0} : GridPoint3{1.0, 0.0, 0.0};
  const GridPoint3 y = Cross(z, x);
  x = Cross(y, z);
  return {Normalized(x), Normalized(y), z};
}

Topology MakeCylinderGrid(const std::array<Index, 3>& n, const GridPoint3& center,
                          const GridPoint3& axis, double radius, double length) {
  Topology grid = MakeRegularGrid(n, {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0});
  Reshape(grid, n, center, axis, [&](Index i, Index j, Index k) {
    GridPoint3 p = {static_cast<double>(i) * 2 * radius / static_cast<double>(n[0] - 1) - radius,
                    static_cast<double>(j) * 2 * radius / static_cast<double>(n[1] - 1) - radius,
                    0.0};
    const double norm = Norm(p);
    if (norm > 1e-7) {
      const double scale = std::max(std::abs(p[0]), std::abs(p[1])) / norm;
      p = {p[0] * scale, p[1] * scale, 0.0};
    }
    if (n[2] > 1) p[2] = static_cast<double>(k) * length / static_cast<double>(n[2] - 1);
    return p;
  });
  return grid;
}

Topology MakeSphereGrid(const std::array<Index, 3>& n, const GridPoint3& center,
                        const GridPoint3& axis, double radius) {
  Topology grid = MakeRegularGrid(n, {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0});
  Reshape(grid, n, center, axis, [&](Index i, Index j, Index k) {
    GridPoint3 p = {static_cast<double>(i) * 2 * radius / static_cast<double>(n[0] - 1) - radius,
                    static_cast<double>(j) * 2 * radius / static_cast<double>(n[1] - 1) - radius,
                    static_cast<double>(k) * 2 * radius / static_cast<double>(n[2] - 1) - radius};
    const double norm = Norm(p);
    if (norm > 1e-7) {
      const double scale = std::max({std::abs(p[0]), std::abs(p[1]), std::abs(p[2])}) / norm;
      p = {p[0] * scale, p[1] * scale, p[2] * scale};
    }
    return p;
  });
  return grid;
}

}  // namespace fluxion::internal
