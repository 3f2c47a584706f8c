// SOFA's GridTopology/RegularGridTopology element lists (Sofa/Component/Topology/Container/Grid):
//  - point (i, j, k) has index i + nx·(j + ny·k) and position p0 + dx·i + dy·j + dz·k, where
//    dx = (max − min)/(nx − 1) along x (likewise y, z); along an axis with a single point the
//    spacing is (max − min) and p0 is the midpoint for x and y but zmin for z (as SOFA's setPos);
//  - hexahedra loop z, y, x with vertices (x,y,z) (x+1,y,z) (x+1,y+1,z) (x,y+1,z) and the same at
//  z+1;
//  - quads exist in 2-D *and* 3-D grids: XY faces (z < nz), then XZ faces, then YZ faces;
//  - triangles split every quad q into (q0,q1,q2) and (q0,q2,q3);
//  - edges are derived from the triangles (SOFA's default), so every quad contributes its q0–q2
//    diagonal: for each triangle t the edges (t1,t2), (t2,t0), (t0,t1), first occurrence kept.
#include "mechanics/regular_grid.h"

#include <algorithm>
#include <utility>

#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

// The grid's lines along x, then y, then z (SOFA's GridUpdate::updateEdges without triangles).
std::vector<std::array<Index, 2>> AxisLines(const std::array<Index, 3>& n) {
  const Index nx = n[0], ny = n[1], nz = n[2];
  const auto point = [&](Index x, Index y, Index z) { return nx * (ny * z + y) + x; };
  std::vector<std::array<Index, 2>> edges;
  for (Index z = 0; z < nz; ++z)
    for (Index y = 0; y < ny; ++y)
      for (Index x = 0; x + 1 < nx; ++x) edges.push_back({point(x, y, z), point(x + 1, y, z)});
  for (Index z = 0; z < nz; ++z)
    for (Index y = 0; y + 1 < ny; ++y)
      for (Index x = 0; x < nx; ++x) edges.push_back({point(x, y, z), point(x, y + 1, z)});
  for (Index z = 0; z + 1 < nz; ++z)
    for (Index y = 0; y < ny; ++y)
      for (Index x = 0; x < nx; ++x) edges.push_back({point(x, y, z), point(x, y, z + 1)});
  return edges;
}

}  // namespace

Topology MakeRegularGrid(const std::array<Index, 3>& n, const std::array<double, 3>& min,
                         const std::array<double, 3>& max, const std::array<double, 3>* p0) {
  Topology topology;
  topology.grid_size = n;
  const Index nx = n[0], ny = n[1], nz = n[2];

  // Spacing and origin, as GridTopology::setPos.
  std::array<double, 3> spacing{}, origin{};
  for (int axis = 0; axis < 3; ++axis) {
    if (n[axis] > 1) {
      spacing[axis] = (max[axis] - min[axis]) / static_cast<double>(n[axis] - 1);
      origin[axis] = min[axis];
    } else {
      spacing[axis] = max[axis] - min[axis];
      origin[axis] = axis == 2 ? min[axis] : (max[axis] + min[axis]) / 2;
    }
  }
  if (p0 != nullptr) origin = *p0;  // SOFA's p0 data, when given, replaces setPos's origin
  const auto point = [&](Index x, Index y, Index z) { return nx * (ny * z + y) + x; };

  topology.points.reserve(static_cast<std::size_t>(nx * ny * nz));
  for (Index k = 0; k < nz; ++k)
    for (Index j = 0; j < ny; ++j)
      for (Index i = 0; i < nx; ++i)
        topology.points.push_back({origin[0] + spacing[0] * static_cast<double>(i),
                                   origin[1] + spacing[1] * static_cast<double>(j),
                                   origin[2] + spacing[2] * static_cast<double>(k)});

  topology.hexahedra.reserve(static_cast<std::size_t>((nx - 1) * (ny - 1) * (nz - 1)));
  for (Index z = 0; z + 1 < nz; ++z)
    for (Index y = 0; y + 1 < ny; ++y)
      for (Index x = 0; x + 1 < nx; ++x)
        topology.hexahedra.push_back({point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z),
                                      point(x, y + 1, z), point(x, y, z + 1),
                                      point(x + 1, y, z + 1), point(x + 1, y + 1, z + 1),
                                      point(x, y + 1, z + 1)});

  topology.quads.reserve(static_cast<std::size_t>(
      (nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1)));
  for (Index z = 0; z < nz; ++z)  // XY faces
    for (Index y = 0; y + 1 < ny; ++y)
      for (Index x = 0; x + 1 < nx; ++x)
        topology.quads.push_back(
            {point(x, y, z), point(x + 1, y, z), point(x + 1, y + 1, z), point(x, y + 1, z)});
  for (Index z = 0; z + 1 < nz; ++z)  // XZ faces
    for (Index y = 0; y < ny; ++y)
      for (Index x = 0; x + 1 < nx; ++x)
        topology.quads.push_back(
            {point(x, y, z), point(x + 1, y, z), point(x + 1, y, z + 1), point(x, y, z + 1)});
  for (Index z = 0; z + 1 < nz; ++z)  // YZ faces
    for (Index y = 0; y + 1 < ny; ++y)
      for (Index x = 0; x < nx; ++x)
        topology.quads.push_back(
            {point(x, y, z), point(x, y + 1, z), point(x, y + 1, z + 1), point(x, y, z + 1)});

  topology.triangles.reserve(2 * topology.quads.size());
  for (const auto& q : topology.quads) {
    topology.triangles.push_back({q[0], q[1], q[2]});
    topology.triangles.push_back({q[0], q[2], q[3]});
  }

  if (!topology.triangles.empty()) {
    std::vector<std::array<Index, 2>> candidates;
    candidates.reserve(3 * topology.triangles.size());
    for (const auto& t : topology.triangles)
      for (int j = 0; j < 3; ++j) candidates.push_back({t[(j + 1) % 3], t[(j + 2) % 3]});
    const std::vector<char> first = FirstOccurrences(candidates);
    topology.edges.reserve(static_cast<std::size_t>(std::count(first.begin(), first.end(), 1)));
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (first[k] != 0) topology.edges.push_back(candidates[k]);
  } else {  // a 1-D grid: only the axis lines
    topology.edges = AxisLines(n);
  }
  return topology;
}

void KeepGridLists(Topology& grid, const GridLists& lists) {
  if (!lists.hexahedra) grid.hexahedra.clear();
  if (!lists.triangles) {
    grid.triangles.clear();
    grid.edges = AxisLines(grid.grid_size);
    if (!lists.quads) grid.quads.clear();
  }
  if (!lists.edges) grid.edges.clear();
}

}  // namespace fluxion::internal
