// SOFA's SparseGridTopology: a closed surface voxelized into the cells of a regular grid, the
// cells the surface crosses (boundary) and those enclosed by it (inside) kept as hexahedra.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         SparseGridTopology.cpp (voxelizeTriangleMesh, launchPropagationFromSeed/propagateFrom,
//         buildFromRegularGridTypes, buildFromFiner, buildVirtualFinerLevels, findCube,
//         findNearestCube) with RegularGridTopology.cpp (setPos, findCube, getCubeCoordinate).
// The numbering, as SOFA's:
//  - the regular grid of n[0]×n[1]×n[2] points from min to max: point (i, j, k) at
//    min + (i·dx, j·dy, k·dz), dx = (max − min)/(n − 1) per axis; cell (i, j, k) has index
//    i + (n0−1)·(j + (n1−1)·k) and corners (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k), then the same
//    at k+1;
//  - a mesh's hexahedra: its boundary cells by increasing cell index (none with onlyInsideCells),
//    then its inside cells by increasing cell index; a coarsened grid's (buildFromFiner): its cells
//    with i slowest and k fastest;
//  - points: every corner of a kept cell once, sorted by x, then y, then z (SOFA keys them by
//    position in a std::map<Vec3, Index>), i.e. by (i, j, k) lexicographically.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion {

/// What a SparseGridTopology's hexahedra are cut from (Topology::sparse_grid): the regular grid,
/// where each of its cells went, and each hexahedron's kind and SOFA coefficients.
struct SparseGridCells {
  std::array<Index, 3> n = {2, 2, 2};  ///< points of the regular grid per axis (≥ 2)
  std::array<double, 3> min = {0.0, 0.0, 0.0};
  std::array<double, 3> max = {0.0, 0.0, 0.0};
  /// The hexahedron made of each regular cell, or −1 for a cell outside the object.
  std::vector<Index> hexahedron_of_cell;
  /// Per hexahedron: its regular cell, whether the surface crosses it (SOFA's BOUNDARY; else
  /// INSIDE), and SOFA's getStiffnessCoef/getMassCoef (float there: 0.5 for a boundary cell with
  /// fillWeighted, else 1; a coarsened cell has the mean over its 8 children, absent ones 0).
  std::vector<Index> cell_of_hexahedron;
  std::vector<std::uint8_t> boundary;
  std::vector<float> stiffness_coefficients;
  std::vector<float> mass_coefficients;

  /// SparseGridRamificationTopology with virtual finer levels: SOFA's findCube and
  /// findNearestCube look a point up in the finest level (mechanics/sparse_grid_ramification.h).
  struct FinestLevel {
    std::array<Index, 3> n = {2, 2, 2};  ///< points of the finest regular grid per axis
    std::array<double, 3> min = {0.0, 0.0, 0.0};
    std::array<double, 3> max = {0.0, 0.0, 0.0};
    /// For each finest regular cell, the hexahedron of this topology its connected part ends in
    /// (SOFA's _coarsestParent), or −1 for a cell outside the object.
    std::vector<Index> hexahedron_of_cell;
    /// The finest level's boundary cells in its hexahedron order: the centre of each (from its
    /// corners 0 and 6) and the hexahedron of this topology it ends in.
    std::vector<std::array<double, 3>> boundary_centres;
    std::vector<Index> boundary_hexahedra;
    Index first_hexahedron = 0;  ///< where the finest hexahedron 0 ends in (SOFA's default)
  };
  /// Null for a SparseGridTopology and a ramification without virtual finer levels.
  std::shared_ptr<const FinestLevel> finest;

  /// The cell size along `axis`: (max − min)/(n − 1), as SOFA's RegularGridTopology::setPos.
  double step(int axis) const { return (max[axis] - min[axis]) / static_cast<double>(n[axis] - 1); }
};

namespace internal {

/// What a regular cell is to the surface (SOFA's SparseGridTopology::Type).
enum class CellKind : std::uint8_t { kOutside, kInside, kBoundary };

/// The regular grid a sparse grid is cut from: points per axis (each ≥ 2) and its box.
struct VoxelGrid {
  std::array<Index, 3> n = {2, 2, 2};
  std::array<double, 3> min = {0.0, 0.0, 0.0};
  std::array<double, 3> max = {0.0, 0.0, 0.0};
};

/// SOFA's voxelizeTriangleMesh: the kind of every cell of `grid` (by cell index) for the closed
/// surface made of `triangles` over `vertices`. Each vertex marks its cell boundary (a vertex
/// outside the grid is first moved half a cell inside, as SOFA does, and marks nothing); each
/// triangle marks the cells of its vertices' cell range it meets (TriangleMeetsCentredBox on the
/// triangle scaled into the cell's unit cube in float, as SOFA); then every cell reachable from
/// the grid's border cells through non-boundary cells (6-connected) is outside, and the rest
/// inside. Precondition: every n ≥ 2 and min < max on every axis.
std::vector<CellKind> VoxelizeSurface(const VoxelGrid& grid,
                                      const std::vector<std::array<double, 3>>& vertices,
                                      const std::vector<std::array<Index, 3>>& triangles);

/// SOFA's buildFromRegularGridTypes and buildAsFinest's coefficients: the hexahedra and points of
/// the cells `kinds` keeps (boundary ones dropped with `only_inside`). `topology.sparse_grid` is
/// set; `topology.grid_size` stays 0 0 0 (not a full grid).
Topology MakeSparseGrid(const VoxelGrid& grid, const std::vector<CellKind>& kinds, bool only_inside,
                        bool fill_weighted);

/// SOFA's buildFromFiner: the grid of cells twice as large as those of `finer` (a topology made
/// by MakeSparseGrid or CoarsenSparseGrid), n = finer n / 2 + 1 per axis (integer division), the
/// same min, max = min + (n − 1)·2·(finer cell) per axis. A cell is kept when any of its 8
/// children is; it is inside when all 8 are kept and inside, else boundary; its coefficients
/// are the sums of its children's divided by 8.
Topology CoarsenSparseGrid(const Topology& finer);

}  // namespace internal
}  // namespace fluxion
