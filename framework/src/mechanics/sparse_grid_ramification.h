// SOFA's SparseGridRamificationTopology: a sparse grid whose cells each hold one connected part
// of the object. Where a coarse cell holds two parts that do not touch inside it (the two arms of
// a C in one cell), it becomes two hexahedra on the same corners' positions, each with points of
// its own where the parts are not connected, so that the parts move apart.
// Source: Sofa/Component/Topology/Container/Grid/src/sofa/component/topology/container/grid/
//         SparseGridRamificationTopology.{h,cpp} (buildAsFinest, findConnexionsAtFinestLevel,
//         sharingTriangle, intersectionSegmentTriangle, buildRamifiedFinestLevel,
//         buildFromFiner, buildVirtualFinerLevels, findCoarsestParents, findCube,
//         findNearestCube, changeIndices).
//
// What SOFA computes, level by level (each level a regular grid, the finest voxelized as a
// SparseGridTopology, each coarser one with cells twice as large):
//  - finest level: one "connexion" per cell; two face neighbours are connected unless, with
//    finestConnectivity, both are boundary cells and no edge (v_{j−1}, v_j), j = 1…n−1, of any
//    facet of the surface crosses their common face (intersectionSegmentTriangle on the face's
//    triangles (a, b, c), (a, c, d); SOFA tests the segment's line between s0 − (s1 − s0) and s1,
//    and skips each facet's closing edge; both are kept). With finestConnectivity the finest
//    level's points are ramified (below); its hexahedra keep their order;
//  - a coarser level: the connexions of a cell's 8 children (child order, then each child's
//    order) are grouped by connection among themselves; each group becomes a connexion of the
//    cell, in the order of its first member; two coarse connexions are connected when children
//    of theirs in different cells are;
//  - hexahedra: one per connexion, cells in order (x slowest, z fastest, as SparseGridTopology's
//    coarsening), the connexions of a cell in order;
//  - points (SOFA's ramification): each hexahedron starts with 8 points of its own, numbered
//    8·h + corner; for each hexahedron in order and each connexion connected to it on its lower
//    z side, then lower y, then lower x (SOFA's BEFORE, DOWN, LEFT; several in one direction in
//    the order SOFA's std::set<Connexion*> holds them, their allocation order), the points of the
//    shared face are merged, the merged point taking the neighbour's current number
//    (changeIndices); the points left are then renumbered by increasing number;
//  - types and coefficients (SOFA's quirks, kept because the hexahedra's mass and stiffness
//    come from them): a cell of one connexion takes its children's mean coefficients looked up
//    by the children's *unramified* cell indices in the finer level's per-hexahedron arrays
//    (which are the same only while no finer cell is ramified); a cell of several connexions
//    is boundary and each connexion takes the coefficient of its last child only, over 8; a
//    coarse cell's type reads the finer level's per-hexahedron types by unramified index too;
//  - findCube with virtual levels: the finest cell holding the point (SparseGridTopology's
//    findCube, else its findNearestCube: the boundary cell of nearest centre) gives the
//    hexahedron its connexion ends in at the top level, and the fractions come from this grid's
//    regular cell (findCube, else the clamped findNearestCube).
// Fluxion differs: nothing is allocated per connexion (SOFA's objects are replaced by arrays),
// and a surface facet of more than 4 vertices is fanned into triangles when read, so its edges
// are the fan's (SOFA keeps the polygon).
#pragma once

#include <array>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/sparse_grid.h"

namespace fluxion::internal {

struct RamificationOptions {
  long levels = 0;                  ///< nbVirtualFinerLevels
  bool finest_connectivity = true;  ///< finestConnectivity (SOFA's default)
  bool only_inside = false;         ///< onlyInsideCells (the finest level only, as SOFA)
  bool fill_weighted = true;        ///< fillWeighted
};

/// SOFA's SparseGridRamificationTopology of the surface whose finest-level cell kinds are
/// `kinds` (VoxelizeSurface of `finest`, the grid (n − 1)·2^levels + 1 points per axis): its
/// points, hexahedra and Topology::sparse_grid (with its `finest` lookup when levels > 0).
/// `vertices` and `facet_edges` are the surface's, for the finest connectivity test.
Topology MakeRamifiedSparseGrid(const VoxelGrid& finest, const std::vector<CellKind>& kinds,
                                const RamificationOptions& options,
                                const std::vector<std::array<double, 3>>& vertices,
                                const std::vector<std::array<Index, 2>>& facet_edges);

/// SOFA's intersectionSegmentTriangle: whether the line through s0 and s1, between
/// s0 − (s1 − s0) and s1, crosses the triangle t0 t1 t2 (a segment parallel to the triangle's
/// plane within 1e-10 never does).
bool SegmentCrossesTriangle(const std::array<double, 3>& s0, const std::array<double, 3>& s1,
                            const std::array<double, 3>& t0, const std::array<double, 3>& t1,
                            const std::array<double, 3>& t2);

}  // namespace fluxion::internal
