// SOFA's ConicalForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         ConicalForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Penalty contact that keeps the node's points inside a cone (mechanics/conical_penalty.h for
/// the force in SOFA's three regions and its tangent). Deviation: a zero `coneHeight` is refused
/// (SOFA divides by its length).
class ConicalForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
