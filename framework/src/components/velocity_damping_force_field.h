// SOFA's UniformVelocityDampingForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         UniformVelocityDampingForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Linear drag f = −c·v on every point of the node's object; with `implicit` it also gives
/// implicit solvers the damping matrix B = c·I.
class UniformVelocityDampingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
