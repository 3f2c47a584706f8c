// SOFA's DistanceMapping: one scalar per edge of the input, its length minus a rest length
// (mechanics/distance_mappings.h has the formulas, the Jacobian and the geometric stiffness).
// Source: Sofa/Component/Mapping/NonLinear/src/sofa/component/mapping/nonlinear/
// DistanceMapping.inl (init: the output gets one point per edge; rest lengths `restLengths`,
// else 0 with computeDistance=1, else the edges' initial lengths).
// Fluxion deviations: the input must have DOFs of its own (not itself mapped), and the output
// may carry no mass (its Jᵀ·M·J would change with the state).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class DistanceMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
