// Snapping lattice points onto the surface where it cuts an edge too close to them: the "warping"
// step of isosurface stuffing, with SOFA's MeshTetraStuffing rules.
// Source: F. Labelle, J. R. Shewchuk, "Isosurface stuffing: fast tetrahedral meshes with good
//         dihedral angles", SIGGRAPH 2007, §3 (a cut point violates a lattice point when it lies
//         within α·edge of it; the point is warped to a violating cut point; α_long, α_short);
//         SOFA: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         MeshTetraStuffing.cpp (doUpdate, `if (d_bSnapPoints...)`).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "components/bcc_lattice.h"
#include "components/lattice_crossings.h"

namespace fluxion::internal {

/// Moves violated lattice points onto the surface, in SOFA's order:
///  1. A point is violated when, along an edge to a point on the other side (inside: votes > 0),
///     the surface lies closer than α (alpha_long on long edges, alpha_short on short ones, in
///     edge lengths).
///  2. Violated outside points, in index order and until none moves: each moves along its
///     violated edge with the smallest squared length to the surface, among edges to outside
///     points that are not violated. (SOFA's comment says "toward an unviolated interior point",
///     its code takes outside ones; Fluxion follows the code, so that meshes match. The surface
///     is only crossed between two outside points when it dips into an edge, so this rarely
///     moves anything, and an outside point the surface passes almost through stays where it
///     is: the cut points on its edges gather at it and make nearly flat tetrahedra. With the
///     comment's rule — towards unviolated inside points, as Labelle & Shewchuk warp — SOFA's
///     tutorial tongue at size 0.2 has its smallest tetrahedron at 9e-3 of a lattice one
///     instead of 4e-5, and at size 0.03 at 1e-2 instead of 5e-10.) Neighbours of a moved point
///     that were violated inside points are checked again, each of their edges with the α of the
///     edge that reached them (SOFA's quirk, kept).
///  3. Violated inside points, in index order: each moves along its violated edge to an outside
///     point with the smallest squared length to the surface.
/// A moved point lies on the surface: its votes become 0 and the distances from and to it are
/// forgotten. Returns how many points moved; `x` holds every lattice point's position.
/// Deviation: SOFA logs an error for an inside point left with no violated edge (a neighbour's
/// snap removed it); here it is counted in `unsnapped`.
int SnapToSurface(const BccLattice& lattice, double alpha_long, double alpha_short,
                  LatticeCrossings& crossings, std::vector<Eigen::Vector3d>& x, int& unsnapped);

}  // namespace fluxion::internal
