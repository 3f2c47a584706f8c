// SOFA's BoxConstraint (an older SOFA component, still used by SOFA's example scenes; SOFA itself
// no longer registers it): fixes the points of the node's object whose rest positions lie in the
// boxes. Fluxion reads it as SOFA's examples use it: BoxROI's selection (components/box_region.h,
// bounds included) followed by FixedProjectiveConstraint on those points.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class BoxConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
