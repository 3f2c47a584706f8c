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
/// Deviations from SOFA, each where SOFA would crash, hang or silently produce nothing:
///  - an empty input is an error (SOFA logs one and publishes empty outputs);
///  - `size` 0, a lattice of more than the scene's point limit (10⁶), and a `vbbox` with
///    min > max on y or z are errors (SOFA divides by zero or allocates without bound);
///  - a surface that is not closed (an edge not matched by its reverse) or whose normals point
///    inward (negative enclosed volume) is stuffed as SOFA stuffs it, with a warning;
///  - rays test the triangles binned across their direction (SOFA: an octree); a surface whose
///    triangles would need more than 10⁷ (triangle, bin) pairs is refused;
///  - SOFA's diagnostics (an inside point left unsnapped, an invalid split, a duplicate face)
///    are counted: the first is logged, the others are warnings;
///  - `vbbox` is not written back, and `draw` is accepted and ignored (no rendering).
class MeshTetraStuffingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
