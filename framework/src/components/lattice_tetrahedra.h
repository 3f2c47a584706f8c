// The tetrahedra of isosurface stuffing: the BCC lattice's tetrahedra that the surface keeps,
// whole or cut at the surface, with SOFA's MeshTetraStuffing rules.
// Source: F. Labelle, J. R. Shewchuk, "Isosurface stuffing: fast tetrahedral meshes with good
//         dihedral angles", SIGGRAPH 2007, §2 (BCC tetrahedra: 4 around each long edge) and §4 with
//         Fig. 5 (stencils for tetrahedra the surface cuts; the parity rule that picks each cut
//         quadrilateral's diagonal so that neighbours agree); SOFA: Sofa/Component/Engine/
//         Generate/src/sofa/component/engine/generate/MeshTetraStuffing.cpp (addTetra,
//         addFinalTetra, flipDiag, needFlip, the cut points and the final compaction).
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "components/bcc_lattice.h"

namespace fluxion::internal {

/// A tetrahedral mesh and what went wrong making it.
struct StuffedMesh {
  std::vector<Eigen::Vector3d> points;
  std::vector<std::array<Index, 4>> tetrahedra;  ///< positively oriented (or flat)
  int cut_points = 0;       ///< points added where the surface cuts an edge (before compaction)
  int invalid_splits = 0;   ///< cut tetrahedra SOFA's stencils could not split consistently
  int duplicate_faces = 0;  ///< oriented faces shared by two tetrahedra (overlaps)
};

/// Builds the mesh from the lattice points' positions `x` and sides `votes` (> 0 inside, < 0
/// outside, 0 on the surface) and, when `split`, the distances to the surface along each edge:
///  - with `split`, a cut point is added on each edge from an outside to an inside point, at the
///    distance the outside point records along it (outside points in index order, edges 0–13);
///  - each lattice tetrahedron (around each long primary edge, 4 per edge, in primary point
///    order x, then y, then z edges) is oriented positively, then: dropped when it has an outside
///    point and no inside one; kept whole when it has no outside point, or always without
///    `split`; else cut, its outside points replaced by cut points: 1 inside point → 1
///    tetrahedron; 2 inside, 1 outside, 1 on the surface → 2; 2 inside, 2 outside → 3 (a prism);
///    3 inside, 1 outside → 3. Each cut quadrilateral's diagonal is chosen as SOFA chooses it:
///    from the cut point on a long edge if there is one, else by the parity of the coordinates
///    (Labelle & Shewchuk's rule), and every tetrahedron made is oriented positively;
///  - points no tetrahedron uses are removed, the others keep their order.
StuffedMesh MakeTetrahedra(const BccLattice& lattice, std::vector<Eigen::Vector3d> x,
                           const std::vector<int>& votes,
                           const std::vector<std::array<double, BccLattice::kEdges>>& distance,
                           bool split);

}  // namespace fluxion::internal
