// SOFA's SquareDistanceMapping: one scalar per edge of the input, its squared length
// (mechanics/distance_mappings.h has the formulas, the Jacobian and the geometric stiffness).
// Source: Sofa/Component/Mapping/NonLinear/src/sofa/component/mapping/nonlinear/
// SquareDistanceMapping.inl (no rest length: SOFA's code for one is commented out).
// Fluxion deviations: as DistanceMapping's (an input with DOFs of its own, no mass on the output).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class SquareDistanceMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
