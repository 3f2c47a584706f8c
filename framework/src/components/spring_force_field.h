// SOFA's SpringForceField (alias StiffSpringForceField).
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         SpringForceField.{h,inl}; formulas in mechanics/spring_force_field.h.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Springs between point i of `object1` and point j of `object2`, given as 'i j ks kd L0' records
/// (`spring`) or as SOFA's per-spring lists (`indices1`, `indices2`, `stiffness`, `damping`,
/// `lengths`; shorter lists are extended with their last value, defaults ks 100, kd 5, L0 0).
class SpringForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
