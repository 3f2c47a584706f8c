#include "mechanics/barycentric_weights.h"

#include "mechanics/sparse_grid.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace fluxion::internal {

namespace {

Eigen::Vector3d ToEigen3(const Point3& p) { return {p[0], p[1], p[2]}; }

// The 8 trilinear weights of SOFA's corner order 0:(0,0,0) 1:(1,0,0) 2:(1,1,0) 3:(0,1,0), then the
// same at z = 1, for local coordinates f.
std::array<double, 8> TrilinearWeights(const Eigen::Vector3d& f) {
  const double x = f[0], y = f[1], z = f[2];
  return {
      (1 - x) * (1 - y) * (1 - z), x * (1 - y) * (1 - z), x * y * (1 - z), (1 - x) * y * (1 - z),
      (1 - x) * (1 - y) * z,       x * (1 - y) * z,       x * y * z,       (1 - x) * y * z};
}

// v = B⁻¹(p − origin) for the base whose columns are `a`, `b`, `c` (edges from the origin).
Eigen::Vector3d LocalCoordinates(const Eigen::Vector3d& origin, const Eigen::Vector3d& a,
                                 const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                                 const Eigen::Vector3d& p) {
  Eigen::Matrix3d base;
  base.col(0) = a - origin;
  base.col(1) = b - origin;
  base.col(2) = c - origin;
  return base.inverse() * (p - origin);
}

}  // namespace

bool IsRegularGrid(const Topology& topology) {
  // Plain copies, not structured bindings: lambdas capture them (clang 14 refuses bindings).
  const Index nx = topology.grid_size[0], ny = topology.grid_size[1], nz = topology.grid_size[2];
  if (nx <= 0 || ny <= 0 || nz <= 0 || static_cast<Index>(topology.points.size()) != nx * ny * nz)
    return false;
  const auto at = [&](Index i, Index j, Index k) {
    return ToEigen3(topology.points[static_cast<std::size_t>(nx * (ny * k + j) + i)]);
  };
  const Eigen::Vector3d p0 = at(0, 0, 0);
  const Eigen::Vector3d dx = nx > 1 ? Eigen::Vector3d(at(1, 0, 0) - p0) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d dy = ny > 1 ? Eigen::Vector3d(at(0, 1, 0) - p0) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d dz = nz > 1 ? Eigen::Vector3d(at(0, 0, 1) - p0) : Eigen::Vector3d::Zero();
  const double scale = dx.norm() + dy.norm() + dz.norm() + p0.norm();
  for (Index k = 0; k < nz; ++k)
    for (Index j = 0; j < ny; ++j)
      for (Index i = 0; i < nx; ++i) {
        const Eigen::Vector3d expected = p0 + static_cast<double>(i) * dx +
                                         static_cast<double>(j) * dy + static_cast<double>(k) * dz;
        if ((at(i, j, k) - expected).norm() > 1e-9 * scale) return false;
      }
  return true;
}

std::vector<PointStencil> GridWeights(const Topology& grid, const std::vector<Point3>& points) {
  const Index nx = grid.grid_size[0], ny = grid.grid_size[1], nz = grid.grid_size[2];
  if (nx < 2 || ny < 2 || nz < 2) return {};
  const auto index = [&](Index i, Index j, Index k) { return nx * (ny * k + j) + i; };
  const Eigen::Vector3d p0 = ToEigen3(grid.points[0]);
  const std::array<Eigen::Vector3d, 3> step = {
      ToEigen3(grid.points[static_cast<std::size_t>(index(1, 0, 0))]) - p0,
      ToEigen3(grid.points[static_cast<std::size_t>(index(0, 1, 0))]) - p0,
      ToEigen3(grid.points[static_cast<std::size_t>(index(0, 0, 1))]) - p0};
  const std::array<Index, 3> cells = {nx - 1, ny - 1, nz - 1};
  std::vector<PointStencil> stencils;
  stencils.reserve(points.size());
  for (const Point3& point : points) {
    const Eigen::Vector3d p = ToEigen3(point) - p0;
    // The cell holding the point, else the nearest one (SOFA's findCube, findNearestCube).
    std::array<Index, 3> cell{};
    Eigen::Vector3d f;
    for (int a = 0; a < 3; ++a) {
      const double t = p.dot(step[a]) / step[a].squaredNorm();
      const Index c = static_cast<Index>(std::floor(t));
      cell[a] = std::clamp<Index>(c, 0, cells[a] - 1);
      f[a] = t - static_cast<double>(cell[a]);
    }
    const auto [i, j, k] = cell;
    const std::array<Index, 8> corners = {index(i, j, k),
                                          index(i + 1, j, k),
                                          index(i + 1, j + 1, k),
                                          index(i, j + 1, k),
                                          index(i, j, k + 1),
                                          index(i + 1, j, k + 1),
                                          index(i + 1, j + 1, k + 1),
                                          index(i, j + 1, k + 1)};
    const std::array<double, 8> w = TrilinearWeights(f);
    PointStencil stencil;
    for (std::size_t c = 0; c < 8; ++c) stencil.emplace_back(corners[c], w[c]);
    stencils.push_back(std::move(stencil));
  }
  return stencils;
}

namespace {

// The regular cell of `point` in the grid of n points per axis from `min` to `max` (SOFA's
// RegularGridTopology::findCube: t = (p − min)·d/|d|² per axis), its index and the fractions f;
// false outside the grid. With `clamp`, findNearestCube: the cell clamped into the grid, f
// relative to it (outside [0, 1] beyond the grid), always true.
bool RegularCell(const std::array<Index, 3>& n, const std::array<double, 3>& min,
                 const std::array<double, 3>& max, const Point3& point, bool clamp, Index& cell,
                 Eigen::Vector3d& f) {
  cell = 0;
  Index stride = 1;
  for (int a = 0; a < 3; ++a) {
    const double step = (max[a] - min[a]) / static_cast<double>(n[a] - 1);
    const double t = (point[a] - min[a]) * step * (1.0 / (step * step));
    double floor = std::floor(t);
    if (!(floor >= 0.0) || floor > static_cast<double>(n[a] - 2)) {
      if (!clamp) return false;
      floor = std::clamp(floor, 0.0, static_cast<double>(n[a] - 2));
    }
    f[a] = t - floor;
    cell += static_cast<Index>(floor) * stride;
    stride *= n[a] - 1;
  }
  return true;
}

// SparseGridRamificationTopology's findCube with virtual finer levels: the hexahedron the
// point's finest cell ends in (else that of the finest boundary cell of nearest centre, float
// distances as SOFA's findNearestCube), the fractions from the grid's own regular cell (else
// clamped).
std::pair<Index, Eigen::Vector3d> RamifiedCube(const SparseGridCells& cells, const Point3& point) {
  const SparseGridCells::FinestLevel& finest = *cells.finest;
  Index cell = 0, hexahedron = -1;
  Eigen::Vector3d f;
  if (RegularCell(finest.n, finest.min, finest.max, point, false, cell, f))
    hexahedron = finest.hexahedron_of_cell[static_cast<std::size_t>(cell)];
  bool clamp = false;
  if (hexahedron < 0) {
    clamp = true;
    float nearest = 99999999.0f;
    hexahedron = finest.first_hexahedron;
    for (std::size_t b = 0; b < finest.boundary_centres.size(); ++b) {
      const auto& c = finest.boundary_centres[b];
      const auto distance =
          static_cast<float>((ToEigen3(point) - Eigen::Vector3d(c[0], c[1], c[2])).norm());
      if (distance < nearest) {
        nearest = distance;
        hexahedron = finest.boundary_hexahedra[b];
      }
    }
  }
  RegularCell(cells.n, cells.min, cells.max, point, clamp, cell, f);
  return {hexahedron, f};
}

}  // namespace

std::vector<PointStencil> SparseGridWeights(const Topology& grid,
                                            const std::vector<Point3>& points) {
  const SparseGridCells& cells = *grid.sparse_grid;
  std::vector<PointStencil> stencils;
  stencils.reserve(points.size());
  for (const Point3& point : points) {
    if (cells.finest) {
      const auto [hexahedron, f] = RamifiedCube(cells, point);
      const auto& corners = grid.hexahedra[static_cast<std::size_t>(hexahedron)];
      const std::array<double, 8> w = TrilinearWeights(f);
      PointStencil stencil;
      for (std::size_t c = 0; c < 8; ++c) stencil.emplace_back(corners[c], w[c]);
      stencils.push_back(std::move(stencil));
      continue;
    }
    // The regular cell holding the point: t = (p − min)·d/|d|² per axis (SOFA's findCube).
    Index hexahedron = -1;
    Eigen::Vector3d f;
    Index cell = 0, stride = 1;
    bool in_grid = true;
    for (int a = 0; a < 3; ++a) {
      const double step = cells.step(a);
      const double t = (point[a] - cells.min[a]) * step * (1.0 / (step * step));
      const double floor = std::floor(t);
      if (!(floor >= 0.0) || floor > static_cast<double>(cells.n[a] - 2)) {
        in_grid = false;
        break;
      }
      f[a] = t - floor;
      cell += static_cast<Index>(floor) * stride;
      stride *= cells.n[a] - 1;
    }
    if (in_grid) hexahedron = cells.hexahedron_of_cell[static_cast<std::size_t>(cell)];
    if (hexahedron < 0) {
      // Outside every kept cell: the boundary cell of nearest centre, extrapolated
      // (findNearestCube: float distances, 99999999 to start, the first hexahedron by default).
      float nearest = 99999999.0f;
      hexahedron = 0;
      for (std::size_t h = 0; h < grid.hexahedra.size(); ++h) {
        if (cells.boundary[h] == 0) continue;
        const Eigen::Vector3d centre =
            (ToEigen3(grid.points[static_cast<std::size_t>(grid.hexahedra[h][0])]) +
             ToEigen3(grid.points[static_cast<std::size_t>(grid.hexahedra[h][6])])) *
            0.5;
        const auto distance = static_cast<float>((ToEigen3(point) - centre).norm());
        if (distance < nearest) {
          nearest = distance;
          hexahedron = static_cast<Index>(h);
        }
      }
      const auto& corners = grid.hexahedra[static_cast<std::size_t>(hexahedron)];
      const Eigen::Vector3d first = ToEigen3(grid.points[static_cast<std::size_t>(corners[0])]);
      const Eigen::Vector3d last = ToEigen3(grid.points[static_cast<std::size_t>(corners[6])]);
      f = (ToEigen3(point) - first).cwiseQuotient(last - first);
    }
    const auto& corners = grid.hexahedra[static_cast<std::size_t>(hexahedron)];
    const std::array<double, 8> w = TrilinearWeights(f);
    PointStencil stencil;
    for (std::size_t c = 0; c < 8; ++c) stencil.emplace_back(corners[c], w[c]);
    stencils.push_back(std::move(stencil));
  }
  return stencils;
}

std::vector<PointStencil> TetrahedronWeights(const std::vector<std::array<Index, 4>>& tetrahedra,
                                             const std::vector<Point3>& vertices,
                                             const std::vector<Point3>& points) {
  std::vector<PointStencil> stencils;
  stencils.reserve(points.size());
  for (const Point3& point : points) {
    const Eigen::Vector3d p = ToEigen3(point);
    double best = std::numeric_limits<double>::max();
    PointStencil chosen;
    for (const auto& t : tetrahedra) {
      const Eigen::Vector3d a = ToEigen3(vertices[static_cast<std::size_t>(t[0])]);
      const Eigen::Vector3d b = ToEigen3(vertices[static_cast<std::size_t>(t[1])]);
      const Eigen::Vector3d c = ToEigen3(vertices[static_cast<std::size_t>(t[2])]);
      const Eigen::Vector3d d = ToEigen3(vertices[static_cast<std::size_t>(t[3])]);
      const Eigen::Vector3d v = LocalCoordinates(a, b, c, d, p);
      double distance = std::max({-v[0], -v[1], -v[2], v[0] + v[1] + v[2] - 1});
      if (distance > 0) distance = (p - (a + b + c + d) * 0.25).squaredNorm();
      if (distance < best) {
        best = distance;
        chosen = {{t[0], 1 - v[0] - v[1] - v[2]}, {t[1], v[0]}, {t[2], v[1]}, {t[3], v[2]}};
      }
    }
    stencils.push_back(std::move(chosen));
  }
  return stencils;
}

std::vector<PointStencil> HexahedronWeights(const std::vector<std::array<Index, 8>>& hexahedra,
                                            const std::vector<Point3>& vertices,
                                            const std::vector<Point3>& points) {
  std::vector<PointStencil> stencils;
  stencils.reserve(points.size());
  for (const Point3& point : points) {
    const Eigen::Vector3d p = ToEigen3(point);
    double best = std::numeric_limits<double>::max();
    PointStencil chosen;
    for (const auto& h : hexahedra) {
      const auto at = [&](int c) { return ToEigen3(vertices[static_cast<std::size_t>(h[c])]); };
      const Eigen::Vector3d v = LocalCoordinates(at(0), at(1), at(3), at(4), p);
      double distance = std::max({-v[0], -v[1], -v[2], v[0] - 1, v[1] - 1, v[2] - 1});
      if (distance > 0) {
        Eigen::Vector3d centre = Eigen::Vector3d::Zero();
        for (int c = 0; c < 8; ++c) centre += at(c) / 8.0;
        distance = (p - centre).squaredNorm();
      }
      if (distance < best) {
        best = distance;
        const std::array<double, 8> w = TrilinearWeights(v);
        chosen.clear();
        for (std::size_t c = 0; c < 8; ++c) chosen.emplace_back(h[c], w[c]);
      }
    }
    stencils.push_back(std::move(chosen));
  }
  return stencils;
}

}  // namespace fluxion::internal
