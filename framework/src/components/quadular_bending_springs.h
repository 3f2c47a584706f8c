// SOFA's QuadularBendingSprings.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         QuadularBendingSprings.{h,inl} (init, applyQuadCreation, addForce, addDForce,
//         buildStiffnessMatrix), with SOFA's quad edges (QuadSetTopologyContainer.cpp:
//         createEdgeSetArray, createEdgesInQuadArray, createQuadsAroundEdgeArray).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Resists the folding of a quad mesh: across each edge shared by exactly two quads, two springs
/// join the vertices of the two quads that are not on the edge. SOFA's edge j of quad q is
/// (q[j+1], q[j+2]) (indices mod 4), so the vertices off it are q[j] and q[j+3]; for the edge at
/// index i1 in quad t1 and i2 in quad t2, where t2 is the lower-numbered quad (it meets the edge
/// first) and t1 the other, the springs are (t1[i1], t2[i2+3]) and (t1[i1+3], t2[i2]). They come
/// edge by edge in the topology's edge order, two per edge, with rest length their rest
/// distance and SOFA's `stiffness` (default 100000) and `damping` (default 1), absolute. The
/// force and tangent are SpringForceField's with SOFA's quirks for these springs: no force
/// below a length of 1e-4, and the damping force inside the tangent's transverse term (SOFA's
/// tgt = (ks·e + kd·ė)/l). Edges on the border or shared by more than two quads get none.
/// Differences from SOFA: PotentialEnergy is the springs' ½·ks·e² (SOFA returns 0).
class QuadularBendingSpringsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
