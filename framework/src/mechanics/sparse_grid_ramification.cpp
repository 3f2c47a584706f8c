#include "mechanics/sparse_grid_ramification.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "mechanics/sparse_grid_frame.h"

namespace fluxion::internal {

namespace sparse_grid_ramification {  // named, not anonymous: unity builds merge files

using sparse_grid::CellCorners;
using sparse_grid::GridCell;
using sparse_grid::GridFrame;
using sparse_grid::GridPoint;

// SOFA's directions: the neighbour above, below, right, left, before (lower z), behind.
enum Direction { kUp, kDown, kRight, kLeft, kBefore, kBehind, kDirections };
int Opposite(int direction) { return direction % 2 == 0 ? direction + 1 : direction - 1; }

// One connected part of a cell (SOFA's Connexion). Ids are per level, in creation order, which is
// the order SOFA's std::set<Connexion*> holds a level's connexions in (their allocation order).
struct Connexion {
  std::array<std::vector<int>, kDirections> neighbours;  // ids, sorted
  std::vector<int> children;                             // ids in the finer level, in order
  int parent = -1;                                       // id in the coarser level
  Index hexahedron = 0;                                  // its hexahedron (SOFA's _hexaIdx)
  Index cell = 0;  // its unramified cell (SOFA's _nonRamifiedHexaIdx)
};

void Connect(std::vector<int>& set, int id) {
  const auto at = std::lower_bound(set.begin(), set.end(), id);
  if (at == set.end() || *at != id) set.insert(at, id);
}

// One level of the hierarchy.
struct Level {
  VoxelGrid grid;
  std::vector<Index> cell_of_regular;  // regular cell → unramified cell, −1 outside
  std::vector<Index> regular_of_cell;
  std::vector<std::vector<int>> connexions_of_cell;
  std::vector<Connexion> connexions;
  // Per hexahedron (SOFA's _types, _stiffnessCoefs, _massCoefs).
  std::vector<std::uint8_t> boundary;
  std::vector<float> stiffness, mass;
  Topology topology;  // points and hexahedra
};

// The corners' positions of each unramified cell.
std::vector<std::array<GridPoint, 8>> CellCornerPositions(const Level& level) {
  const GridFrame frame(level.grid);
  std::vector<std::array<GridPoint, 8>> corners;
  corners.reserve(level.regular_of_cell.size());
  for (const Index regular : level.regular_of_cell) {
    std::array<GridPoint, 8> cell{};
    const std::array<GridCell, 8> grid_corners = CellCorners(frame.CellOf(regular));
    for (std::size_t c = 0; c < 8; ++c)
      cell[c] = frame.PointAt(grid_corners[c][0], grid_corners[c][1], grid_corners[c][2]);
    corners.push_back(cell);
  }
  return corners;
}

// SOFA's ramification of the points (buildRamifiedFinestLevel, the end of buildFromFiner): the
// hexahedra of the connexions (already numbered) get 8 points each, merged across the faces of
// connected neighbours, the merged point taking the neighbour's number, then renumbered.
void RamifyPoints(Level& level) {
  const std::size_t count = level.connexions.size();
  std::vector<std::array<Index, 8>> label(count);
  std::vector<std::vector<std::pair<Index, int>>> members(8 * count);
  for (std::size_t h = 0; h < count; ++h)
    for (int c = 0; c < 8; ++c) {
      label[h][static_cast<std::size_t>(c)] = static_cast<Index>(8 * h) + c;
      members[8 * h + static_cast<std::size_t>(c)].emplace_back(static_cast<Index>(h), c);
    }
  // SOFA's changeIndices(hexa[c], neighbour[d]): every use of hexa's point takes the neighbour's.
  const auto merge = [&](Index h, int c, Index g, int d) {
    const Index from = label[static_cast<std::size_t>(h)][static_cast<std::size_t>(c)];
    const Index to = label[static_cast<std::size_t>(g)][static_cast<std::size_t>(d)];
    if (from == to) return;
    auto& moved = members[static_cast<std::size_t>(from)];
    auto& kept = members[static_cast<std::size_t>(to)];
    for (const auto& [hh, cc] : moved) {
      label[static_cast<std::size_t>(hh)][static_cast<std::size_t>(cc)] = to;
      kept.emplace_back(hh, cc);
    }
    moved.clear();
  };
  // The shared face's corners (this hexahedron's, the neighbour's) per lower-side direction.
  constexpr int kBeforeFace[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
  constexpr int kDownFace[4][2] = {{0, 3}, {4, 7}, {5, 6}, {1, 2}};
  constexpr int kLeftFace[4][2] = {{0, 1}, {4, 5}, {7, 6}, {3, 2}};
  const std::pair<int, const int(*)[2]> faces[3] = {
      {kBefore, kBeforeFace}, {kDown, kDownFace}, {kLeft, kLeftFace}};
  for (const auto& cell : level.connexions_of_cell)
    for (const int id : cell) {
      const Connexion& connexion = level.connexions[static_cast<std::size_t>(id)];
      for (const auto& [direction, face] : faces)
        for (const int neighbour : connexion.neighbours[static_cast<std::size_t>(direction)]) {
          const Index g = level.connexions[static_cast<std::size_t>(neighbour)].hexahedron;
          for (int k = 0; k < 4; ++k) merge(connexion.hexahedron, face[k][0], g, face[k][1]);
        }
    }
  // Renumbered by increasing label; each point where the first hexahedron using it has it.
  std::vector<Index> cell_of_hexahedron(count);
  for (const Connexion& connexion : level.connexions)
    cell_of_hexahedron[static_cast<std::size_t>(connexion.hexahedron)] = connexion.cell;
  const std::vector<std::array<GridPoint, 8>> corners = CellCornerPositions(level);
  Topology& topology = level.topology;
  topology.points.clear();
  topology.hexahedra.assign(count, {});
  for (auto& point : members) {
    if (point.empty()) continue;
    const auto first = *std::min_element(point.begin(), point.end());
    const auto number = static_cast<Index>(topology.points.size());
    topology.points.push_back(
        corners[static_cast<std::size_t>(cell_of_hexahedron[static_cast<std::size_t>(first.first)])]
               [static_cast<std::size_t>(first.second)]);
    for (const auto& [h, c] : point)
      topology.hexahedra[static_cast<std::size_t>(h)][static_cast<std::size_t>(c)] = number;
  }
}

// SOFA's sharingTriangle: whether a facet edge crosses the face of `hexahedron` towards
// `direction`.
bool FaceCrossed(const Topology& topology, Index hexahedron, int direction,
                 const std::vector<GridPoint>& vertices,
                 const std::vector<std::array<Index, 2>>& edges) {
  constexpr int kFaces[3][4] = {{0, 4, 7, 3}, {0, 1, 5, 4}, {0, 1, 2, 3}};  // left, down, before
  const int* face = kFaces[direction == kLeft ? 0 : direction == kDown ? 1 : 2];
  const auto& h = topology.hexahedra[static_cast<std::size_t>(hexahedron)];
  const auto corner = [&](int k) {
    return topology.points[static_cast<std::size_t>(h[static_cast<std::size_t>(face[k])])];
  };
  const GridPoint a = corner(0), b = corner(1), c = corner(2), d = corner(3);
  for (const auto& edge : edges) {
    const GridPoint& s0 = vertices[static_cast<std::size_t>(edge[0])];
    const GridPoint& s1 = vertices[static_cast<std::size_t>(edge[1])];
    if (SegmentCrossesTriangle(s0, s1, a, b, c) || SegmentCrossesTriangle(s0, s1, a, c, d))
      return true;
  }
  return false;
}

// SOFA's buildAsFinest (SparseGridTopology's) and findConnexionsAtFinestLevel.
Level FinestLevel(const VoxelGrid& grid, const std::vector<CellKind>& kinds,
                  const RamificationOptions& options, const std::vector<GridPoint>& vertices,
                  const std::vector<std::array<Index, 2>>& edges) {
  Level level;
  level.grid = grid;
  level.topology = MakeSparseGrid(grid, kinds, options.levels == 0 && options.only_inside,
                                  options.fill_weighted);
  const SparseGridCells& cells = *level.topology.sparse_grid;
  level.cell_of_regular = cells.hexahedron_of_cell;
  level.regular_of_cell = cells.cell_of_hexahedron;
  level.boundary = cells.boundary;
  level.stiffness = cells.stiffness_coefficients;
  level.mass = cells.mass_coefficients;
  const std::size_t count = level.regular_of_cell.size();
  level.connexions.resize(count);
  level.connexions_of_cell.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    level.connexions_of_cell[i] = {static_cast<int>(i)};
    level.connexions[i].hexahedron = static_cast<Index>(i);
    level.connexions[i].cell = static_cast<Index>(i);
  }
  const GridFrame frame(grid);
  const auto connected = [&](Index cell, Index neighbour, int direction) {
    if (!options.finest_connectivity) return true;
    // Only two boundary cells can be apart: an inside cell is full.
    if (level.boundary[static_cast<std::size_t>(cell)] == 0 ||
        level.boundary[static_cast<std::size_t>(neighbour)] == 0)
      return true;
    return FaceCrossed(level.topology, cell, direction, vertices, edges);
  };
  const auto link = [&](Index cell, const GridCell& other, int direction) {
    const Index neighbour = level.cell_of_regular[static_cast<std::size_t>(frame.CellIndex(other))];
    if (neighbour < 0 || !connected(cell, neighbour, direction)) return;
    Connect(level.connexions[static_cast<std::size_t>(cell)]
                .neighbours[static_cast<std::size_t>(direction)],
            static_cast<int>(neighbour));
    Connect(level.connexions[static_cast<std::size_t>(neighbour)]
                .neighbours[static_cast<std::size_t>(Opposite(direction))],
            static_cast<int>(cell));
  };
  for (Index z = 0; z < frame.cells(2); ++z)
    for (Index y = 0; y < frame.cells(1); ++y)
      for (Index x = 0; x < frame.cells(0); ++x) {
        const Index cell =
            level.cell_of_regular[static_cast<std::size_t>(frame.CellIndex({x, y, z}))];
        if (cell < 0) continue;
        if (x > 0) link(cell, {x - 1, y, z}, kLeft);
        if (y > 0) link(cell, {x, y - 1, z}, kDown);
        if (z > 0) link(cell, {x, y, z - 1}, kBefore);
      }
  if (options.finest_connectivity) RamifyPoints(level);
  return level;
}

// SOFA's buildFromFiner of SparseGridRamificationTopology.
Level CoarserLevel(Level& finer) {
  const GridFrame fine_frame(finer.grid);
  Level level;
  level.grid.n = {finer.grid.n[0] / 2 + 1, finer.grid.n[1] / 2 + 1, finer.grid.n[2] / 2 + 1};
  level.grid.min = finer.grid.min;
  for (int a = 0; a < 3; ++a)
    level.grid.max[a] =
        level.grid.min[a] + static_cast<double>(level.grid.n[a] - 1) * 2.0 * fine_frame.step(a);
  const GridFrame frame(level.grid);
  level.cell_of_regular.assign(static_cast<std::size_t>(frame.num_cells()), -1);
  std::vector<std::uint8_t> cell_boundary;
  std::vector<std::array<Index, 8>> children_of_cell;  // finer unramified cells, −1 absent
  for (Index i = 0; i < frame.cells(0); ++i)
    for (Index j = 0; j < frame.cells(1); ++j)
      for (Index k = 0; k < frame.cells(2); ++k) {
        std::array<Index, 8> children{};
        bool inside = true, outside = true;
        for (int w = 0; w < 8; ++w) {
          const GridCell c = {2 * i + (w & 1), 2 * j + ((w >> 1) & 1), 2 * k + ((w >> 2) & 1)};
          Index child = -1;
          if (c[0] < fine_frame.cells(0) && c[1] < fine_frame.cells(1) &&
              c[2] < fine_frame.cells(2))
            child = finer.cell_of_regular[static_cast<std::size_t>(fine_frame.CellIndex(c))];
          children[static_cast<std::size_t>(w)] = child;
          if (child < 0) {
            inside = false;
          } else if (finer.boundary[static_cast<std::size_t>(child)] != 0) {  // SOFA's quirk
            inside = outside = false;
          } else {
            outside = false;
          }
        }
        if (outside) continue;
        const Index regular = frame.CellIndex({i, j, k});
        level.cell_of_regular[static_cast<std::size_t>(regular)] =
            static_cast<Index>(level.regular_of_cell.size());
        level.regular_of_cell.push_back(regular);
        cell_boundary.push_back(inside ? 0 : 1);
        children_of_cell.push_back(children);
      }
  // The connected groups of each cell's children's connexions.
  const std::size_t cells = level.regular_of_cell.size();
  level.connexions_of_cell.resize(cells);
  std::vector<int> group(finer.connexions.size(), -1);
  std::vector<std::size_t> member_of(finer.connexions.size(), cells);  // the cell gathering it
  std::vector<int> all, stack;
  for (std::size_t idx = 0; idx < cells; ++idx) {
    all.clear();
    for (const Index child : children_of_cell[idx])
      if (child >= 0)
        for (const int id : finer.connexions_of_cell[static_cast<std::size_t>(child)]) {
          all.push_back(id);
          group[static_cast<std::size_t>(id)] = -1;
          member_of[static_cast<std::size_t>(id)] = idx;
        }
    // SOFA's propagateConnexionNumberToNeighbors: number n for the n-th connexion's part.
    for (std::size_t n = 0; n < all.size(); ++n) {
      if (group[static_cast<std::size_t>(all[n])] != -1) continue;
      stack.assign(1, all[n]);
      group[static_cast<std::size_t>(all[n])] = static_cast<int>(n);
      while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        for (const auto& direction : finer.connexions[static_cast<std::size_t>(id)].neighbours)
          for (const int next : direction)
            if (member_of[static_cast<std::size_t>(next)] == idx &&
                group[static_cast<std::size_t>(next)] == -1) {
              group[static_cast<std::size_t>(next)] = static_cast<int>(n);
              stack.push_back(next);
            }
      }
    }
    // One coarse connexion per group, in the order of the groups' numbers.
    std::map<int, int> coarse_of_group;
    for (const int id : all) coarse_of_group.emplace(group[static_cast<std::size_t>(id)], 0);
    for (auto& [number, coarse] : coarse_of_group) {
      coarse = static_cast<int>(level.connexions.size());
      level.connexions.emplace_back();
      level.connexions.back().cell = static_cast<Index>(idx);
      level.connexions_of_cell[idx].push_back(coarse);
    }
    for (const int id : all) {
      const int coarse = coarse_of_group[group[static_cast<std::size_t>(id)]];
      level.connexions[static_cast<std::size_t>(coarse)].children.push_back(id);
      finer.connexions[static_cast<std::size_t>(id)].parent = coarse;
    }
  }
  // Coarse connexions are connected where children in different cells are.
  for (Index z = 0; z < fine_frame.cells(2); ++z)
    for (Index y = 0; y < fine_frame.cells(1); ++y)
      for (Index x = 0; x < fine_frame.cells(0); ++x) {
        const Index fine =
            finer.cell_of_regular[static_cast<std::size_t>(fine_frame.CellIndex({x, y, z}))];
        if (fine < 0) continue;
        for (const int first : finer.connexions_of_cell[static_cast<std::size_t>(fine)]) {
          const Connexion& one = finer.connexions[static_cast<std::size_t>(first)];
          for (int direction = 0; direction < kDirections; ++direction)
            for (const int second : one.neighbours[static_cast<std::size_t>(direction)]) {
              const int a = one.parent;
              const int b = finer.connexions[static_cast<std::size_t>(second)].parent;
              if (level.connexions[static_cast<std::size_t>(a)].cell ==
                  level.connexions[static_cast<std::size_t>(b)].cell)
                continue;
              Connect(level.connexions[static_cast<std::size_t>(a)]
                          .neighbours[static_cast<std::size_t>(direction)],
                      b);
              Connect(level.connexions[static_cast<std::size_t>(b)]
                          .neighbours[static_cast<std::size_t>(Opposite(direction))],
                      a);
            }
        }
      }
  // A hexahedron per connexion, cells in order.
  Index hexahedra = 0;
  for (const auto& cell : level.connexions_of_cell)
    for (const int id : cell)
      level.connexions[static_cast<std::size_t>(id)].hexahedron = hexahedra++;
  RamifyPoints(level);
  // Types and coefficients per hexahedron, with SOFA's index quirks (file comment).
  for (std::size_t idx = 0; idx < cells; ++idx) {
    const auto& ids = level.connexions_of_cell[idx];
    for (const int id : ids) {
      std::array<Index, 8> children = children_of_cell[idx];
      if (ids.size() > 1) {
        for (const int child : level.connexions[static_cast<std::size_t>(id)].children) {
          const Connexion& fine = finer.connexions[static_cast<std::size_t>(child)];
          for (std::size_t p = 0; p < 8; ++p)
            children[p] = fine.cell == children_of_cell[idx][p] ? fine.hexahedron : -1;
        }
      }
      level.boundary.push_back(ids.size() > 1 ? 1 : cell_boundary[idx]);
      float stiffness = 0.0f, mass = 0.0f;
      for (const Index child : children)
        if (child >= 0) {
          stiffness += finer.stiffness[static_cast<std::size_t>(child)];
          mass += finer.mass[static_cast<std::size_t>(child)];
        }
      level.stiffness.push_back(stiffness / 8.0f);
      level.mass.push_back(mass / 8.0f);
    }
  }
  return level;
}

// The finest level's lookup of the top level's hexahedra (SOFA's findCoarsestParents).
std::shared_ptr<SparseGridCells::FinestLevel> FinestLookup(const std::vector<Level>& levels) {
  const Level& finest = levels.front();
  std::vector<Index> top(finest.connexions.size());
  for (std::size_t id = 0; id < finest.connexions.size(); ++id) {
    int current = static_cast<int>(id);
    for (std::size_t l = 0; l + 1 < levels.size(); ++l)
      current = levels[l].connexions[static_cast<std::size_t>(current)].parent;
    top[id] = levels.back().connexions[static_cast<std::size_t>(current)].hexahedron;
  }
  auto lookup = std::make_shared<SparseGridCells::FinestLevel>();
  lookup->n = finest.grid.n;
  lookup->min = finest.grid.min;
  lookup->max = finest.grid.max;
  lookup->hexahedron_of_cell.assign(finest.cell_of_regular.size(), -1);
  for (std::size_t regular = 0; regular < finest.cell_of_regular.size(); ++regular) {
    const Index cell = finest.cell_of_regular[regular];
    if (cell >= 0)
      lookup->hexahedron_of_cell[regular] = top[static_cast<std::size_t>(
          finest.connexions_of_cell[static_cast<std::size_t>(cell)].front())];
  }
  lookup->first_hexahedron = top.empty() ? 0 : top.front();
  const Topology& t = finest.topology;
  for (std::size_t h = 0; h < t.hexahedra.size(); ++h) {
    if (finest.boundary[h] == 0) continue;
    const GridPoint& a = t.points[static_cast<std::size_t>(t.hexahedra[h][0])];
    const GridPoint& b = t.points[static_cast<std::size_t>(t.hexahedra[h][6])];
    lookup->boundary_centres.push_back(
        {(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5, (a[2] + b[2]) * 0.5});
    lookup->boundary_hexahedra.push_back(top[h]);  // finest hexahedron h is connexion h
  }
  return lookup;
}

}  // namespace sparse_grid_ramification

bool SegmentCrossesTriangle(const std::array<double, 3>& s0, const std::array<double, 3>& s1,
                            const std::array<double, 3>& t0, const std::array<double, 3>& t1,
                            const std::array<double, 3>& t2) {
  const auto sub = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  };
  const auto cross = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::array<double, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                 a[0] * b[1] - a[1] * b[0]};
  };
  const auto dot = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  const std::array<double, 3> q = sub(s0, t0), e1 = sub(t1, t0), e2 = sub(t2, t0);
  const std::array<double, 3> normal = cross(e1, e2);
  std::array<double, 3> direction = sub(s1, s0);
  const double length = std::sqrt(dot(direction, direction));
  for (double& v : direction) v /= length;
  // Q + t·D = b1·E1 + b2·E2, solved with |D·N| as SOFA (from Eberly's segment–triangle test).
  double dn = dot(direction, normal);
  double sign = 1.0;
  if (dn > 1.0e-10) {
    sign = 1.0;
  } else if (dn < -1.0e-10) {
    sign = -1.0;
    dn = -dn;
  } else {
    return false;  // parallel: "no intersection" even when it touches
  }
  const double b1 = sign * dot(direction, cross(q, e2));
  if (b1 < 0.0) return false;
  const double b2 = sign * dot(direction, cross(e1, q));
  if (b2 < 0.0 || b1 + b2 > dn) return false;
  const double t = -sign * dot(q, normal);
  const double extent = length * dn;
  return -extent <= t && t <= extent;
}

Topology MakeRamifiedSparseGrid(const VoxelGrid& finest, const std::vector<CellKind>& kinds,
                                const RamificationOptions& options,
                                const std::vector<std::array<double, 3>>& vertices,
                                const std::vector<std::array<Index, 2>>& facet_edges) {
  using namespace sparse_grid_ramification;
  if (options.levels == 0 && !options.finest_connectivity)
    return MakeSparseGrid(finest, kinds, options.only_inside, options.fill_weighted);
  std::vector<Level> levels;
  levels.push_back(FinestLevel(finest, kinds, options, vertices, facet_edges));
  for (long l = 0; l < options.levels; ++l) levels.push_back(CoarserLevel(levels.back()));
  Level& top = levels.back();
  auto info = std::make_shared<SparseGridCells>();
  info->n = top.grid.n;
  info->min = top.grid.min;
  info->max = top.grid.max;
  info->hexahedron_of_cell = top.cell_of_regular;
  for (const Connexion& connexion : top.connexions)
    info->cell_of_hexahedron.push_back(
        top.regular_of_cell[static_cast<std::size_t>(connexion.cell)]);
  info->boundary = top.boundary;
  info->stiffness_coefficients = top.stiffness;
  info->mass_coefficients = top.mass;
  if (options.levels > 0) info->finest = FinestLookup(levels);
  Topology topology;
  topology.points = std::move(top.topology.points);
  topology.hexahedra = std::move(top.topology.hexahedra);
  topology.sparse_grid = std::move(info);
  return topology;
}

}  // namespace fluxion::internal
