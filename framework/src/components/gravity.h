// SOFA's Gravity context object.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/Gravity.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Sets the gravity of its node and of the node's subtree (SOFA's Gravity::apply sets the
/// context's gravity, which child nodes inherit), overriding the root node's `gravity`
/// attribute there. Masses in that subtree apply m·g with this g. The field's default is 0 0 0,
/// as in SOFA. `gravity` may change between steps (BuildContext::SetGravity declares it; the
/// masses' weights follow from the next step, build/gravity_sources.h).
class GravityComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
