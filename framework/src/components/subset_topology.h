// SOFA's SubsetTopology.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/SubsetTopology.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Splits a mesh by boxes (`box`) or spheres (`centers`, `radii`): which points lie inside
/// (bounds included, in any of the regions), and which edges, triangles, quads, tetrahedra and
/// hexahedra have all their points inside one region. Outputs, for links: indices and
/// pointsInROI / pointsOutROI, edgeIndices … hexahedronIndices, edgesInROI / edgesOutROI …
/// hexahedraInROI / hexahedraOutROI, nbrborder.
///
/// `localIndices` renumbers the elements so that each side is a mesh of its own: the border
/// points (inside the first region and on a triangle — a tetrahedron when there are any — that
/// has a point outside) come first in both point lists, in their input order; then the other
/// inside points follow in pointsInROI and the outside points in pointsOutROI, and every element
/// refers to its points' place in those lists. As in SOFA, an element outside the regions that
/// uses an inside point which is not on the border gets that point's place among the inside
/// points (SOFA's numbering, kept so scenes behave as there).
///
/// Points are `rest_position`, else the node object's positions; edges, triangles and
/// tetrahedra the node topology's when not given (SOFA's init), quads and hexahedra only when
/// given. Deviations: the split is made once, when the scene is built (SOFA recomputes when an
/// input changes; nothing here changes them); `tetrahedraInput` is refused (not implemented);
/// `direction`, `normal`, `edgeAngle`, `triAngle` are accepted and unused, as in SOFA, whose
/// update never reads them; an element index past the points and centers without as many radii
/// are errors (SOFA reads past its array, and warns and leaves its outputs unset).
class SubsetTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
