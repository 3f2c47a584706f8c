// SOFA's MeshTetraStuffing: a tetrahedral volume mesh of the inside of a closed surface.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         MeshTetraStuffing.{h,cpp}; the method: F. Labelle, J. R. Shewchuk, "Isosurface
//         stuffing: fast tetrahedral meshes with good dihedral angles", ACM Trans. Graph. 26(3),
//         SIGGRAPH 2007.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fills a closed surface (`inputPoints`, `inputTriangles`, `inputQuads` — each quad
/// (a, b, c, d) as triangles (a, b, c), (a, c, d); outward normals) with tetrahedra:
///  1. the box: `vbbox` (xmin ymin zmin xmax ymax zmax) when its xmin < xmax, else the surface's
///     bounding box widened by 1 % of its extent on each side;
///  2. the cell size: `size`, or when negative the box's largest extent / −size;
///  3. a BCC lattice over the box (BccLattice: a primary grid and the dual grid of its cell
///     centres);
///  4. rays along every lattice line find where the surface crosses it, and so which lattice
///     points are inside and how far the surface lies along each edge (FindCrossings);
///  5. with `snapPoints`, points the surface passes closer than `alphaLong` (long edges) or
///     `alphaShort` (short edges) edge lengths are moved onto it (SnapToSurface);
///  6. the lattice tetrahedra with an inside point are kept; with `splitTetrahedra` those with
///     outside points are cut at the surface (MakeTetrahedra); unused points are dropped.
/// Publishes `outputPoints` and `outputTetrahedra` (also as `outputTetras`), every tetrahedron
/// positively oriented.
///
/// Deviations from SOFA (where it would crash, hang, miscount, or say nothing):
///  - an empty input is an error (SOFA logs one and publishes empty outputs);
///  - `size` 0, a lattice of more than the scene's point limit (10⁶), and a `vbbox` with
///    min > max on y or z are errors (SOFA divides by zero or allocates without bound);
///  - a surface that is not closed (an edge not matched by its reverse) or whose normals point
///    inward (negative enclosed volume) is stuffed as SOFA stuffs it, with a warning;
///  - a ray passing within 10⁻⁹ (barycentric) of a surface edge or vertex, where SOFA's epsilon
///    test counts the crossing once per triangle there or, by round-off, not at all (then
///    keeping outside points and making overlapping tetrahedra: a lattice line through a pole
///    of a sphere centred in the box), is cast again slightly aside (10⁻⁶ to 10⁻³ cells) to
///    learn which triangles the line crosses; the crossings are still placed on the line itself.
///    Other rays, and so meshes of surfaces no lattice line touches at an edge, are SOFA's;
///  - rays test the triangles binned across their direction (SOFA: an octree); a surface whose
///    triangles would need more than 10⁷ (triangle, bin) pairs is refused;
///  - a lattice point exactly on the surface stays a degenerate case, as in SOFA (a crossing at
///    distance 0 counts as none): warnings report the overlapping or flat tetrahedra it makes;
///    change `size` a little;
///  - SOFA's diagnostics (an inside point left unsnapped, an invalid split, a duplicate face)
///    are counted: the first is logged, the others are warnings; nearly flat tetrahedra (below
///    10⁻⁸ of a lattice one), which SOFA's snapping leaves where the surface passes almost
///    through an outside point (SnapToSurface), are a warning too;
///  - `vbbox` is not written back; `draw`, like every SOFA display option, is skipped by the
///    scene reader (no rendering).
class MeshTetraStuffingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
