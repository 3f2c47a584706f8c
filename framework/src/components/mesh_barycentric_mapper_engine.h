// SOFA's MeshBarycentricMapperEngine.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         MeshBarycentricMapperEngine.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Finds, for each of `mappedPointPositions`, the element of a master mesh (`topology`, at
/// points `inputPositions`) it lies in, and its barycentric coordinates there: with tetrahedra,
/// v = [p1−p0 p2−p0 p3−p0]⁻¹ (x − p0); with triangles (no tetrahedra), v = [p1−p0 p2−p0 n]⁻¹
/// (x − p0), n = (p1−p0) × (p2−p0), of which the first two are kept (the third coordinate is 0).
/// An element contains the point when no coordinate is below 0, their sum is at most 1 (and,
/// for a triangle, |v₂| ≤ 0.01); among those the deepest (largest smallest margin) wins, else
/// the element whose centre is nearest, the first on a tie — SOFA's rule. Publishes
/// `barycentricPositions` (3 per point) and `tableElements`; with `computeLinearInterpolation`,
/// `linearInterpolationIndices` and `linearInterpolationValues` (the element's points and
/// weights, 3 or 4 per point, concatenated). Deviations: SOFA leaves a point in a hexahedron or
/// quad, or a mesh of edges alone, unmapped with an error message; Fluxion reports the error;
/// the first weight is 1 − Σv (SOFA writes 1 − (v₀ − v₁ − v₂), a sign slip); a degenerate element
/// is never chosen (SOFA asserts); the lists SOFA nests per point are concatenated.
class MeshBarycentricMapperEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
