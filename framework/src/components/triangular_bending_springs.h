// SOFA's TriangularBendingSprings.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         TriangularBendingSprings.{h,inl} (applyTriangleCreation, addForce, addDForce)
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Resists the folding of a triangle mesh: across each edge shared by exactly two triangles, a
/// spring joins the two vertices opposite that edge, with rest length their rest distance and
/// SOFA's `stiffness` (default 100000) and `damping` (default 1), absolute (not divided by the
/// length). Springs follow the topology's edge order; for an edge the spring goes from the vertex
/// of the higher-numbered triangle to the one of the lower-numbered (SOFA's m1, m2). The force
/// and tangent are SpringForceField's (mechanics/spring_force_field.h) with SOFA's threshold for
/// these springs: no force below a length of 1e-4. Edges on the border or shared by more than two
/// triangles get no spring, as in SOFA.
class TriangularBendingSpringsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
