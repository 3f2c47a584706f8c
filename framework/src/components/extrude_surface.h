// SOFA's ExtrudeSurface.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         ExtrudeSurface.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Extrudes the triangles `surfaceTriangles` (indices into `triangles`, over the points
/// `surfaceVertices`) along the vertex normals: each point used gets two output points, itself
/// (even index) and itself moved by `heightFactor` times its unit normal — the normalised sum of
/// the unit normals of its selected triangles — (odd index), numbered in order of first use.
/// Each selected triangle gives the bottom triangle (its points, order 0 2 1: flipped) and the
/// top one (moved points, order kept); each border edge (a, b) of the patch gives the side
/// triangles (a, b, a+1) and (b+1, a+1, b). As in SOFA, the border edges are taken as (t0 t1),
/// (t0 t2), (t1 t2) of each triangle — not along its turn — and listed in increasing order, so
/// side triangles do not all face outwards. Publishes `extrusionVertices` and
/// `extrusionTriangles`; both are empty when there are at most one surface point and at most
/// one surface triangle, as in SOFA.
class ExtrudeSurfaceComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
