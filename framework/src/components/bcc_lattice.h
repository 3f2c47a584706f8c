// The body-centred cubic (BCC) lattice of isosurface stuffing, laid out as SOFA's
// MeshTetraStuffing lays it out.
// Source: F. Labelle, J. R. Shewchuk, "Isosurface stuffing: fast tetrahedral meshes with good
//         dihedral angles", ACM Trans. Graph. 26(3), SIGGRAPH 2007, §2 (the BCC lattice and its
//         tetrahedra); SOFA: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         MeshTetraStuffing.cpp (doUpdate's grids, getEdgePoint2).
#pragma once

#include <array>

#include "fluxion/types.h"

namespace fluxion::internal {

/// Two interleaved cubic grids of spacing `cell`: the primary grid and the dual grid, whose
/// points are the primary cells' centres (offset by −cell/2 on each axis, one more point per
/// axis, so that every primary point is surrounded by 8 dual points). Points are numbered as in
/// SOFA: the primary grid first, x fastest, then the dual grid.
///
/// Each point has up to 14 lattice edges, numbered as SOFA numbers them: 0–5 are the long edges
/// to the neighbours in the same grid (2k: −1 along axis k, 2k+1: +1), 6–13 the short edges to
/// the 8 nearest points of the other grid (length cell·√3/2). Edge e^1 is always the opposite of
/// edge e, so a lattice line is followed by stepping along one edge number.
class BccLattice {
 public:
  static constexpr int kEdges = 14;

  /// The lattice SOFA places over the box [low, high] (low ≤ high on each axis) for cells of
  /// size `cell` > 0: centred on the box's centre c, the primary grid runs from
  /// c − (⌊(c − low)/cell⌋ + 2)·cell to c + (⌊(high − c)/cell⌋ + 2)·cell on each axis, so at
  /// least one cell and a half of margin surround the box.
  BccLattice(const std::array<double, 3>& low, const std::array<double, 3>& high, double cell);

  /// The number of points that lattice has, computed in floating point so that absurd sizes can
  /// be refused before anything is allocated.
  static double PointCount(const std::array<double, 3>& low, const std::array<double, 3>& high,
                           double cell);

  Index size() const { return first_dual_ + dual_[0] * dual_[1] * dual_[2]; }
  /// The index of the first dual point (SOFA's ph0): points below it are primary.
  Index first_dual() const { return first_dual_; }
  bool is_primary(Index point) const { return point < first_dual_; }
  const std::array<Index, 3>& primary_counts() const { return primary_; }
  const std::array<Index, 3>& dual_counts() const { return dual_; }
  double cell() const { return cell_; }

  /// The position of lattice point `point` (origin + index·cell on each axis, as SOFA computes it).
  std::array<double, 3> Position(Index point) const;
  /// The point at the other end of edge `edge` (0–13) of `point`, or −1 outside the lattice.
  Index Neighbour(Index point, int edge) const;
  /// The squared length of edge `edge` in units of (cell/2)²: 4 for long edges, 3 for short ones.
  static int EdgeLength2(int edge) { return edge < 6 ? 4 : 3; }

 private:
  double cell_;
  std::array<Index, 3> primary_{}, dual_{};
  std::array<double, 3> primary_origin_{}, dual_origin_{};
  Index first_dual_ = 0;
};

}  // namespace fluxion::internal
