// SOFA's QuadPressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         QuadPressureForceField.{h,inl} (init, selectQuadsAlongPlane, initQuadInformation,
//         addForce); Sofa/framework/Geometry/src/sofa/geometry/Quad.h (area).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A constant load on quads of the node's topology (or of the one `topology` links), Vec3: each
/// pressed quad (q0 q1 q2 q3) of rest area A = area(q0, q1, q2) + area(q0, q2, q3) (SOFA's
/// geometry::Quad::area, two triangles) gives each of its four vertices (pressure·A)/4,
/// `pressure` a vector [N/m²] as in SOFA (a direction, not the quad's normal), computed once
/// from the rest positions. The quads pressed are `quadList` when it is not empty, else, when
/// dmin ≠ dmax, every quad whose four rest points p satisfy dmin < p·normal < dmax (SOFA selects
/// by the plane first and then replaces the selection by a non-empty quadList).
/// Differences from SOFA: an index in `quadList` beyond the topology's quads is a load error
/// (SOFA reads out of bounds); the force has the potential −F·x (SOFA reports 0 with a warning);
/// `quadPressureMap` is accepted, not computed.
class QuadPressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
