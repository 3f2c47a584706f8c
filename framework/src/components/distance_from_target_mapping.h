// SOFA's DistanceFromTargetMapping: one scalar per listed point of the input, its distance to a
// fixed target point minus a rest length (mechanics/distance_mappings.h has the formulas).
// Source: Sofa/Component/Mapping/NonLinear/src/sofa/component/mapping/nonlinear/
// DistanceFromTargetMapping.inl (init: missing indices are 0, 1, … up to the targets' count,
// missing rest lengths are 0; the output gets one point per index).
// Fluxion deviations: a Vec1 output only, an input with DOFs of its own, no mass on the output.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class DistanceFromTargetMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
