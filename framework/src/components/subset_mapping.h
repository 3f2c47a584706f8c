// SOFA's SubsetMapping: output point i is input point indices[i] (J selects rows of the input).
// Source: Sofa/Component/Mapping/Linear/src/sofa/component/mapping/linear/SubsetMapping.inl
// (init): the indices given; else `first`…`last` (clamped into the input as SOFA does); else,
// for each output point, the nearest input point closer than `radius` (the first of equals).
// Fluxion deviations: an output point that no input point matches is an error (SOFA's
// ignoreNotFound=1 leaves it fixed where it is: not supported), and the output always takes as
// many points as there are indices (SOFA only resizes it with resizeToModel=1).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class SubsetMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
