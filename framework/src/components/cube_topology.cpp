#include "components/cube_topology.h"

#include <array>
#include <string>
#include <vector>

#include "components/point_selection.h"
#include "mechanics/regular_grid.h"

namespace fluxion::internal {

ComponentSpec CubeTopologyComponent::Spec() {
  ComponentSpec spec{
      .name = "CubeTopology",
      .kind = ComponentKind::kTopology,
      .summary = "The surface of a box as a grid of points, with its quads and edges",
      .fields =
          {FieldSpec::Integer("nx", 0, "points along x (at least 2)"),
           FieldSpec::Integer("ny", 0, "points along y (at least 2)"),
           FieldSpec::Integer("nz", 0, "points along z (at least 2)"),
           FieldSpec::Bool("internalPoints", false,
                           "include the points inside the box (numbered as a regular grid)"),
           FieldSpec::Bool("splitNormals", false,
                           "one copy of an edge's or corner's point per face (flat normals)"),
           FieldSpec::RealList("min", "the minimum corner (x, y, z) [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("max", "the maximum corner (x, y, z) [m]").DefaultText("1 1 1"),
           FieldSpec::Real("scale", 1.0, "factor on the legacy xmin … zmax")},
      .aliases = {}};
  for (const char* legacy : {"xmin", "ymin", "zmin", "xmax", "ymax", "zmax"})
    spec.fields.push_back(FieldSpec::OptionalReal(
        legacy, "legacy corner coordinate [m]: with all six given, they replace min and max"));
  return spec;
}

namespace {

enum class CubePlane { kUnknown, kX0, kX1, kY0, kY1, kZ0, kZ1 };

// SOFA's CubeTopology numbering (point, getPoint), for one box's sizes and options.
struct CubeNumbering {
  int nx, ny, nz;
  bool internal, split;

  Index count() const {
    if (split)
      return Index{nx} * ny * (nz > 1 ? 2 : 1) + Index{ny} * nz * (nx > 1 ? 2 : 1) +
             Index{nz} * nx * (ny > 1 ? 2 : 1);
    if (!internal) return Index{nx} * ny * 2 + Index{nz - 2} * (2 * nx + 2 * ny - 4);
    return Index{nx} * ny * nz;
  }

  // The index of grid point (x, y, z), on face `p` when points are split by face.
  Index point(int x, int y, int z, CubePlane p = CubePlane::kUnknown) const {
    if (split) {
      if (p == CubePlane::kUnknown) {
        if (x == 0)
          p = CubePlane::kX0;
        else if (x == nx - 1)
          p = CubePlane::kX1;
        else if (y == 0)
          p = CubePlane::kY0;
        else if (y == ny - 1)
          p = CubePlane::kY1;
        else if (z == 0)
          p = CubePlane::kZ0;
        else if (z == nz - 1)
          p = CubePlane::kZ1;
      }
      const Index yz = Index{ny} * nz, xz = Index{nx} * nz, xy = Index{nx} * ny;
      switch (p) {
        case CubePlane::kX0:
          return y + Index{ny} * z;
        case CubePlane::kX1:
          return yz + xz + xy + y + Index{ny} * z;
        case CubePlane::kY0:
          return yz + x + Index{nx} * z;
        case CubePlane::kY1:
          return 2 * yz + xz + xy + x + Index{nx} * z;
        case CubePlane::kZ0:
          return yz + xz + x + Index{nx} * y;
        case CubePlane::kZ1:
          return 2 * yz + 2 * xz + xy + x + Index{nx} * y;
        case CubePlane::kUnknown:
          return 0;  // an inner point: never asked for
      }
    }
    if (!internal) {
      if (z == 0) return x + Index{nx} * y;
      if (z == nz - 1) return x + Index{nx} * (y + ny);
      const Index base = Index{nx} * ny * 2 + Index{2 * nx + 2 * ny - 4} * (z - 1);
      if (y == 0) return base + x;
      if (y == ny - 1) return base + x + nx;
      if (x == 0) return base + 2 * nx + (y - 1);
      return base + 2 * nx + (ny - 2) + (y - 1);
    }
    return x + Index{nx} * (y + Index{ny} * z);
  }

  // The grid coordinates of point i (SOFA's getPoint(int)).
  std::array<Index, 3> grid(Index i) const {
    Index x = 0, y = 0, z = 0;
    if (split) {
      const Index block = Index{ny} * nz + Index{nx} * nz + Index{nx} * ny;
      if (i >= block) {  // the faces at the maximum: the other coordinate is the last
        i -= block;
        x = nx - 1;
        y = ny - 1;
        z = nz - 1;
      }
      // Within the block: the x face (y + ny·z), the y face (x + nx·z), the z face (x + nx·y).
      const Index yz = Index{ny} * nz, xz = Index{nx} * nz;
      if (i < yz) {
        y = i % ny;
        z = i / ny;
      } else if (i < yz + xz) {
        x = (i - yz) % nx;
        z = (i - yz) / nx;
      } else {
        x = (i - yz - xz) % nx;
        y = (i - yz - xz) / nx;
      }
    } else if (!internal) {
      const Index layer = Index{nx} * ny;
      if (i < 2 * layer) {
        z = i < layer ? 0 : nz - 1;
        i %= layer;
        x = i % nx;
        y = i / nx;
      } else {
        i -= 2 * layer;
        const Index ring = 2 * nx + 2 * (ny - 2);
        z = i / ring + 1;
        i %= ring;
        if (i < nx) {
          x = i;
        } else if (i < 2 * nx) {
          x = i - nx;
          y = ny - 1;
        } else if (i < 2 * nx + (ny - 2)) {
          y = 1 + i - 2 * nx;
        } else {
          x = nx - 1;
          y = 1 + i - 2 * nx - (ny - 2);
        }
      }
    } else {
      x = i % nx;
      y = (i / nx) % ny;
      z = i / (Index{nx} * ny);
    }
    return {x, y, z};
  }
};

}  // namespace

void CubeTopologyComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const long nx = p.integer("nx"), ny = p.integer("ny"), nz = p.integer("nz");
  if (nx < 2 || ny < 2 || nz < 2) {
    context.Error("CubeTopology has nx=" + std::to_string(nx) + " ny=" + std::to_string(ny) +
                  " nz=" + std::to_string(nz) + " (expected at least 2 points along each axis)");
    return;
  }
  // Every grid point at most (internalPoints): checked before any numbering is made.
  const Index limit = std::min<Index>(kMaxGridPoints, context.max_scene_points());
  const double most = static_cast<double>(nx) * static_cast<double>(ny) * static_cast<double>(nz);
  if (most + static_cast<double>(context.topology_points()) > static_cast<double>(limit)) {
    context.Error("CubeTopology of " + std::to_string(nx) + "×" + std::to_string(ny) + "×" +
                  std::to_string(nz) + " points is too large (expected " +
                  PointLimitText(context, limit) + ")");
    return;
  }
  std::array<double, 3> min{}, max{};
  const std::vector<double>& min_list = p.reals("min");
  const std::vector<double>& max_list = p.reals("max");
  if (min_list.size() != 3 || max_list.size() != 3) {
    context.Error("CubeTopology 'min' and 'max' need 3 numbers each (x y z)");
    return;
  }
  const char* legacy[2][3] = {{"xmin", "ymin", "zmin"}, {"xmax", "ymax", "zmax"}};
  bool all_legacy = true;
  for (const auto& corner : legacy)
    for (const char* name : corner) all_legacy = all_legacy && p.has(name);
  for (int c = 0; c < 3; ++c) {
    min[c] = all_legacy ? p.real(legacy[0][c]) * p.real("scale") : min_list[c];
    max[c] = all_legacy ? p.real(legacy[1][c]) * p.real("scale") : max_list[c];
  }
  const CubeNumbering cube{static_cast<int>(nx), static_cast<int>(ny), static_cast<int>(nz),
                           p.flag("internalPoints"), p.flag("splitNormals")};
  const std::array<long, 3> n = {nx, ny, nz};

  Topology topology;
  const Index count = cube.count();
  topology.points.resize(static_cast<std::size_t>(count));
  for (Index i = 0; i < count; ++i) {
    const std::array<Index, 3> g = cube.grid(i);
    for (int c = 0; c < 3; ++c)  // SOFA's setPos: p0 + dx·x + dy·y + dz·z
      topology.points[static_cast<std::size_t>(i)][c] =
          min[c] + (max[c] - min[c]) / static_cast<double>(n[c] - 1) * static_cast<double>(g[c]);
  }
  // Edges along the surface, grid point after grid point (z outermost), along x, y, then z.
  const int X = cube.nx, Y = cube.ny, Z = cube.nz;
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x) {
        if (x < X - 1 && (y == 0 || y == Y - 1 || z == 0 || z == Z - 1))
          topology.edges.push_back({cube.point(x, y, z), cube.point(x + 1, y, z)});
        if (y < Y - 1 && (x == 0 || x == X - 1 || z == 0 || z == Z - 1))
          topology.edges.push_back({cube.point(x, y, z), cube.point(x, y + 1, z)});
        if (z < Z - 1 && (x == 0 || x == X - 1 || y == 0 || y == Y - 1))
          topology.edges.push_back({cube.point(x, y, z), cube.point(x, y, z + 1)});
      }
  // Quads face by face, each oriented as SOFA orients it.
  auto& quads = topology.quads;
  using P = CubePlane;
  for (int y = 0; y < Y - 1; ++y)
    for (int x = 0; x < X - 1; ++x)
      quads.push_back({cube.point(x, y, 0, P::kZ0), cube.point(x, y + 1, 0, P::kZ0),
                       cube.point(x + 1, y + 1, 0, P::kZ0), cube.point(x + 1, y, 0, P::kZ0)});
  for (int y = 0; y < Y - 1; ++y)
    for (int x = 0; x < X - 1; ++x)
      quads.push_back({cube.point(x, y, Z - 1, P::kZ1), cube.point(x + 1, y, Z - 1, P::kZ1),
                       cube.point(x + 1, y + 1, Z - 1, P::kZ1),
                       cube.point(x, y + 1, Z - 1, P::kZ1)});
  for (int z = 0; z < Z - 1; ++z)
    for (int x = 0; x < X - 1; ++x)
      quads.push_back({cube.point(x, 0, z, P::kY0), cube.point(x + 1, 0, z, P::kY0),
                       cube.point(x + 1, 0, z + 1, P::kY0), cube.point(x, 0, z + 1, P::kY0)});
  for (int z = 0; z < Z - 1; ++z)
    for (int x = 0; x < X - 1; ++x)
      quads.push_back({cube.point(x, Y - 1, z, P::kY1), cube.point(x, Y - 1, z + 1, P::kY1),
                       cube.point(x + 1, Y - 1, z + 1, P::kY1),
                       cube.point(x + 1, Y - 1, z, P::kY1)});
  for (int z = 0; z < Z - 1; ++z)
    for (int y = 0; y < Y - 1; ++y)
      quads.push_back({cube.point(0, y, z, P::kX0), cube.point(0, y, z + 1, P::kX0),
                       cube.point(0, y + 1, z + 1, P::kX0), cube.point(0, y + 1, z, P::kX0)});
  for (int z = 0; z < Z - 1; ++z)
    for (int y = 0; y < Y - 1; ++y)
      quads.push_back({cube.point(X - 1, y, z, P::kX1), cube.point(X - 1, y + 1, z, P::kX1),
                       cube.point(X - 1, y + 1, z + 1, P::kX1),
                       cube.point(X - 1, y, z + 1, P::kX1)});
  context.SetTopology(std::move(topology));
}

}  // namespace fluxion::internal
