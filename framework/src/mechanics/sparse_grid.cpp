#include "mechanics/sparse_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "mechanics/sparse_grid_frame.h"
#include "mechanics/triangle_box_overlap.h"

namespace fluxion::internal {

namespace sparse_grid {  // named, not anonymous: unity builds merge this file with others

// The cell of a mesh vertex (SOFA's first loop of voxelizeTriangleMesh): its own, marked
// boundary; for a vertex outside the grid, the cell of the vertex moved half a cell inside along
// each axis where it is within float epsilon of, or beyond, the grid's box (not marked).
GridCell VertexCell(const GridFrame& frame, const GridPoint& vertex, std::vector<CellKind>& kinds) {
  GridCell cell{};
  if (frame.FindCell(vertex, cell)) {
    kinds[static_cast<std::size_t>(frame.CellIndex(cell))] = CellKind::kBoundary;
    return cell;
  }
  const double epsilon = std::numeric_limits<float>::epsilon();
  GridPoint moved = vertex;
  for (int a = 0; a < 3; ++a) {
    const double half = frame.step(a) / 2.0;
    if (moved[a] - epsilon < frame.grid().min[a])
      moved[a] = frame.grid().min[a] + half;
    else if (moved[a] + epsilon > frame.grid().max[a])
      moved[a] = frame.grid().max[a] - half;
  }
  if (frame.FindCell(moved, cell)) return cell;
  // Unreachable for finite vertices; clamp rather than index outside the grid.
  for (int a = 0; a < 3; ++a) {
    const double t = std::floor((moved[a] - frame.grid().min[a]) / frame.step(a));
    cell[a] =
        std::clamp<Index>(static_cast<Index>(std::clamp(t, 0.0, 1e18)), 0, frame.cells(a) - 1);
  }
  return cell;
}

// Marks boundary the cells of the vertices' cell range that the triangle meets, tested as SOFA
// does: the triangle scaled into the cell's unit cube (centre, diagonal) and rounded to float.
void MarkTriangle(const GridFrame& frame, const std::array<GridPoint, 3>& corners,
                  const std::array<GridCell, 3>& cells, std::vector<CellKind>& kinds) {
  GridCell lo{}, hi{};
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::min({cells[0][a], cells[1][a], cells[2][a]});
    hi[a] = std::max({cells[0][a], cells[1][a], cells[2][a]});
  }
  for (Index x = lo[0]; x <= hi[0]; ++x)
    for (Index y = lo[1]; y <= hi[1]; ++y)
      for (Index z = lo[2]; z <= hi[2]; ++z) {
        const Index index = frame.CellIndex({x, y, z});
        CellKind& kind = kinds[static_cast<std::size_t>(index)];
        if (kind == CellKind::kBoundary) continue;
        const GridPoint first = frame.PointAt(x, y, z);
        const GridPoint last = frame.PointAt(x + 1, y + 1, z + 1);
        std::array<GridPoint, 3> scaled{};
        for (int v = 0; v < 3; ++v)
          for (int a = 0; a < 3; ++a) {
            const double diagonal = last[a] - first[a];
            const double centre = first[a] + diagonal * 0.5;
            scaled[v][a] = static_cast<float>((corners[v][a] - centre) / diagonal);
          }
        if (TriangleMeetsCentredBox(scaled[0], scaled[1], scaled[2], 0.5))
          kind = CellKind::kBoundary;
      }
}

// SOFA's propagation from every border cell: each cell reachable from the border through cells
// that are not boundary becomes outside (6-connected). Cells are marked when pushed, so the
// stack holds each cell at most once.
void FloodOutside(const GridFrame& frame, std::vector<CellKind>& kinds) {
  std::vector<std::uint8_t> reached(kinds.size(), 0);
  std::vector<Index> stack;
  const auto push = [&](const GridCell& c) {
    const auto index = static_cast<std::size_t>(frame.CellIndex(c));
    if (reached[index] != 0 || kinds[index] == CellKind::kBoundary) return;
    reached[index] = 1;
    kinds[index] = CellKind::kOutside;
    stack.push_back(static_cast<Index>(index));
  };
  const GridCell last = {frame.cells(0) - 1, frame.cells(1) - 1, frame.cells(2) - 1};
  for (Index z = 0; z <= last[2]; ++z)
    for (Index y = 0; y <= last[1]; ++y)
      for (Index x = 0; x <= last[0]; ++x)
        if (x == 0 || y == 0 || z == 0 || x == last[0] || y == last[1] || z == last[2])
          push({x, y, z});
  while (!stack.empty()) {
    const GridCell c = frame.CellOf(stack.back());
    stack.pop_back();
    for (int a = 0; a < 3; ++a) {
      GridCell next = c;
      if (c[a] > 0) {
        next[a] = c[a] - 1;
        push(next);
      }
      if (c[a] < last[a]) {
        next[a] = c[a] + 1;
        push(next);
      }
    }
  }
}

// Points and hexahedra of the kept cells (in `cells`' order) of `frame`: every corner once, in
// SOFA's position order (x, then y, then z: the grid coordinates lexicographically).
Topology Assemble(const GridFrame& frame, std::shared_ptr<SparseGridCells> cells_info) {
  const std::vector<Index>& cells = cells_info->cell_of_hexahedron;
  const Index ny = frame.grid().n[1], nz = frame.grid().n[2];
  const auto key = [&](const GridCell& p) { return (p[0] * ny + p[1]) * nz + p[2]; };
  std::vector<Index> keys;
  keys.reserve(cells.size() * 8);
  for (const Index cell : cells)
    for (const GridCell& corner : CellCorners(frame.CellOf(cell))) keys.push_back(key(corner));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  Topology topology;
  topology.points.reserve(keys.size());
  for (const Index k : keys)
    topology.points.push_back(frame.PointAt(k / (ny * nz), (k / nz) % ny, k % nz));
  topology.hexahedra.reserve(cells.size());
  for (const Index cell : cells) {
    std::array<Index, 8> hexahedron{};
    const std::array<GridCell, 8> corners = CellCorners(frame.CellOf(cell));
    for (std::size_t v = 0; v < 8; ++v)
      hexahedron[v] = static_cast<Index>(
          std::lower_bound(keys.begin(), keys.end(), key(corners[v])) - keys.begin());
    topology.hexahedra.push_back(hexahedron);
  }
  cells_info->hexahedron_of_cell.assign(static_cast<std::size_t>(frame.num_cells()), -1);
  for (std::size_t h = 0; h < cells.size(); ++h)
    cells_info->hexahedron_of_cell[static_cast<std::size_t>(cells[h])] = static_cast<Index>(h);
  topology.sparse_grid = std::move(cells_info);
  return topology;
}

}  // namespace sparse_grid

std::vector<CellKind> VoxelizeSurface(const VoxelGrid& grid,
                                      const std::vector<std::array<double, 3>>& vertices,
                                      const std::vector<std::array<Index, 3>>& triangles) {
  using namespace sparse_grid;
  const GridFrame frame(grid);
  // Every cell inside until the surface and the flood from the border say otherwise.
  std::vector<CellKind> kinds(static_cast<std::size_t>(frame.num_cells()), CellKind::kInside);
  std::vector<GridCell> vertex_cells;
  vertex_cells.reserve(vertices.size());
  for (const GridPoint& vertex : vertices) vertex_cells.push_back(VertexCell(frame, vertex, kinds));
  for (const auto& triangle : triangles) {
    const std::array<GridCell, 3> cells = {vertex_cells[static_cast<std::size_t>(triangle[0])],
                                           vertex_cells[static_cast<std::size_t>(triangle[1])],
                                           vertex_cells[static_cast<std::size_t>(triangle[2])]};
    // A triangle within one boundary cell crosses no other (SOFA's shortcut).
    if (cells[0] == cells[1] && cells[0] == cells[2] &&
        kinds[static_cast<std::size_t>(frame.CellIndex(cells[0]))] == CellKind::kBoundary)
      continue;
    const std::array<GridPoint, 3> corners = {vertices[static_cast<std::size_t>(triangle[0])],
                                              vertices[static_cast<std::size_t>(triangle[1])],
                                              vertices[static_cast<std::size_t>(triangle[2])]};
    MarkTriangle(frame, corners, cells, kinds);
  }
  FloodOutside(frame, kinds);
  return kinds;
}

Topology MakeSparseGrid(const VoxelGrid& grid, const std::vector<CellKind>& kinds, bool only_inside,
                        bool fill_weighted) {
  using namespace sparse_grid;
  const GridFrame frame(grid);
  auto info = std::make_shared<SparseGridCells>();
  info->n = grid.n;
  info->min = grid.min;
  info->max = grid.max;
  // Boundary cells first, then inside cells, each by increasing cell index.
  for (const CellKind wanted : {CellKind::kBoundary, CellKind::kInside}) {
    if (wanted == CellKind::kBoundary && only_inside) continue;
    for (std::size_t cell = 0; cell < kinds.size(); ++cell) {
      if (kinds[cell] != wanted) continue;
      const bool boundary = wanted == CellKind::kBoundary;
      info->cell_of_hexahedron.push_back(static_cast<Index>(cell));
      info->boundary.push_back(boundary ? 1 : 0);
      const float coefficient = boundary && fill_weighted ? 0.5f : 1.0f;
      info->stiffness_coefficients.push_back(coefficient);
      info->mass_coefficients.push_back(coefficient);
    }
  }
  return Assemble(frame, std::move(info));
}

Topology CoarsenSparseGrid(const Topology& finer) {
  using namespace sparse_grid;
  const SparseGridCells& fine = *finer.sparse_grid;
  const GridFrame fine_frame(VoxelGrid{fine.n, fine.min, fine.max});
  VoxelGrid grid{
      .n = {fine.n[0] / 2 + 1, fine.n[1] / 2 + 1, fine.n[2] / 2 + 1}, .min = fine.min, .max = {}};
  // Cells twice the finer ones: an odd number of finer cells leaves the last coarse cell half out.
  for (int a = 0; a < 3; ++a)
    grid.max[a] = grid.min[a] + static_cast<double>(grid.n[a] - 1) * 2.0 * fine_frame.step(a);
  const GridFrame frame(grid);
  auto info = std::make_shared<SparseGridCells>();
  info->n = grid.n;
  info->min = grid.min;
  info->max = grid.max;
  for (Index i = 0; i < frame.cells(0); ++i)
    for (Index j = 0; j < frame.cells(1); ++j)
      for (Index k = 0; k < frame.cells(2); ++k) {
        // The 8 finer cells, x fastest (SOFA's child order), −1 where absent.
        bool inside = true, outside = true;
        float stiffness = 0.0f, mass = 0.0f;
        for (int child = 0; child < 8; ++child) {
          const GridCell c = {2 * i + (child & 1), 2 * j + ((child >> 1) & 1),
                              2 * k + ((child >> 2) & 1)};
          Index h = -1;
          if (c[0] < fine_frame.cells(0) && c[1] < fine_frame.cells(1) &&
              c[2] < fine_frame.cells(2))
            h = fine.hexahedron_of_cell[static_cast<std::size_t>(fine_frame.CellIndex(c))];
          if (h < 0) {
            inside = false;
            continue;
          }
          outside = false;
          if (fine.boundary[static_cast<std::size_t>(h)] != 0) inside = false;
          stiffness += fine.stiffness_coefficients[static_cast<std::size_t>(h)];
          mass += fine.mass_coefficients[static_cast<std::size_t>(h)];
        }
        if (outside) continue;
        info->cell_of_hexahedron.push_back(frame.CellIndex({i, j, k}));
        info->boundary.push_back(inside ? 0 : 1);
        info->stiffness_coefficients.push_back(stiffness / 8.0f);
        info->mass_coefficients.push_back(mass / 8.0f);
      }
  return Assemble(frame, std::move(info));
}

}  // namespace fluxion::internal
