// SOFA's MeshSpringForceField.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         MeshSpringForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Springs on every vertex pair of the topology's elements (the node's, or the one
/// `topology="@path"` names), as SOFA's
/// MeshSpringForceField::init: element kinds in the order lines, triangles, quads, tetrahedra,
/// cubes, each only if its stiffness or damping is non-zero; one spring per vertex pair, the
/// first kind to claim it wins; ks = s/L0 and kd = d/L0 with L0 the rest distance.
/// Deviations: one object only (no object1 ≠ object2), noCompression=0 only.
class MeshSpringForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
