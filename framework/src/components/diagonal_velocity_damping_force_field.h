// SOFA's DiagonalVelocityDampingForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         DiagonalVelocityDampingForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Linear drag with its own coefficient per axis: `dampingCoefficient` holds one vector per point
/// (the last one also serving every later point, as SOFA), f −= c∘v, and implicit solvers get
/// B = diag(c) (mechanics/diagonal_velocity_damping.h).
class DiagonalVelocityDampingForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
