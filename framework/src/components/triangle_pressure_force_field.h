// SOFA's TrianglePressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         TrianglePressureForceField.{h,inl} (initTriangleInformation, addForce, addDForce)
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A load on the triangles `triangleList` of the node's topology (or of the one `topology`
/// links), Vec3:
/// - useConstantForce=1 (SOFA's default): each listed triangle of rest area A gives each of its
///   three vertices (pressure·A)/3, `pressure` a vector [N/m²] — a constant force, computed once
///   from the rest positions as SOFA does (its "pressure" has a direction, not the normal's);
/// - useConstantForce=0: each listed triangle gives each vertex σ·((b − a)×(c − a))/6 at the
///   current positions, σ the symmetric `cauchyStress` given as SOFA's MatSym3 (xx xy yy xz yz
///   zz): a follower traction without stiffness, as SOFA's (its addDForce is empty).
/// No `triangleList`: no force, as in SOFA.
/// Differences from SOFA: an index in `triangleList` beyond the topology's triangles is a load
/// error (SOFA reads out of bounds); the constant form has the potential −F·x (SOFA reports 0);
/// the per-triangle output `trianglePressureMap` is accepted, not computed.
class TrianglePressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
