// Where a closed triangle surface crosses the lines of a BCC lattice, and what that says about
// each lattice point: inside or outside, and how far along each of its edges the surface is.
// Source: SOFA's MeshTetraStuffing (Sofa/Component/Engine/Generate/src/sofa/component/engine/
//         generate/MeshTetraStuffing.cpp, doUpdate: the rays along the lattice lines, the votes
//         pInside and the edge distances eBDist); the cut points of F. Labelle, J. R. Shewchuk,
//         "Isosurface stuffing", SIGGRAPH 2007, §2 (there from an implicit function, here from
//         the surface's crossings of each edge).
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "components/bcc_lattice.h"

namespace fluxion::internal {

/// Per lattice point: its inside/outside votes and the distance to the surface along each edge.
struct LatticeCrossings {
  /// Sum of ±1 votes, one per lattice line through the point that the surface crosses: > 0
  /// inside, < 0 outside, 0 undecided.
  std::vector<int> votes;
  /// Along edge e, the distance from the point to the nearest crossing ahead, in edge lengths
  /// (so that point + distance·(neighbour − point) lies on the surface); 0 when no crossing is
  /// known (SOFA's convention: a crossing exactly at the point is "none").
  std::vector<std::array<double, BccLattice::kEdges>> distance;
  /// Empty on success; else why the crossings were not computed (too much work).
  std::string error;
};

/// Casts a ray along each of the lattice's lines (7 directions: the 3 axes and the 4 cube
/// diagonals), from the line's last point backwards, and collects every surface triangle it
/// meets (RayTriangleHit, t in edge lengths). A crossing faces out when the triangle's normal
/// (b − a) × (c − a) points along the ray (outward normals assumed). Each point on the line then
/// votes with a crossing next to it: inside if the crossing ahead leaves the surface, or the one
/// behind entered it (SOFA reads the one ahead when the one behind is nearer, and conversely; on a
/// closed surface they agree). Hits are sorted by t, ties in triangle order (SOFA: octree order).
/// Deviation: a ray passing within 10⁻⁹ (barycentric) of a triangle's edge or vertex — where
/// SOFA's tolerant test hits every triangle there, or by round-off none — is cast again shifted
/// across the line by 10⁻⁶ cell (then ×10, up to 10⁻³) in a direction aligned with nothing,
/// which tells the triangles the line crosses; each crossing is placed where the unshifted line
/// meets that triangle's plane (on the surface: through the edge or vertex).
/// Triangles are sorted into 2-D bins across each direction so that a ray tests only the triangles
/// whose shadow covers it; more than `max_candidates` (triangle, bin) pairs is refused through
/// `error` (a surface of huge triangles over a fine lattice).
LatticeCrossings FindCrossings(const BccLattice& lattice, const std::vector<Eigen::Vector3d>& x,
                               const std::vector<std::array<Index, 3>>& triangles,
                               double max_candidates);

}  // namespace fluxion::internal
