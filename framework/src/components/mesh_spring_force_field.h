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
/// Changeable between steps (Simulation::SetComponentField, fluxion-view's panel):
/// `<kind>Stiffness`, `<kind>Damping`, `stiffness` and `damping`, applied to the springs built
/// (ks = s/L0 as at load, so a value set before a step gives the bits of the same value in the
/// XML); a kind that had no springs at load gets none.
class MeshSpringForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
