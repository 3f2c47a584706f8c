// SOFA's SphereROI.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/SphereROI.{h,inl} and
//         BaseROI.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Selects the points (and edges, triangles, quads, tetrahedra, hexahedra) inside spheres, for
/// other components to take through links: indices="@roi.indices". A point is inside when
/// |x − c|² ≤ r² for one of the spheres (one radius for all centers is allowed); elements as
/// BoxROI selects them (components/roi_selection.h). With edgeAngle > 0 an edge must also satisfy
/// |cos(edge, direction)| < |cos(edgeAngle)|, with triAngle > 0 a triangle's unit normal
/// n ∝ (x2 − x0)×(x1 − x0) must satisfy n·normal < cos(triAngle) — SOFA's tests, as written.
/// Outputs as SphereROI publishes them, pointIndices being indices. Deviation: the selection is
/// made once, when the scene is built (SOFA re-selects each step from rest positions, which do not
/// change); mismatched centers and radii are an error (SOFA warns and selects nothing).
class SphereRoiComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
