// SOFA's IdentityMapping: the output object is the input, point for point (x_c = x_p, J = I).
// Source: Sofa/Component/Mapping/Linear/src/sofa/component/mapping/linear/IdentityMapping.inl
// (init resizes the output to the input's size; apply, applyJ copy; applyJT adds).
// Fluxion maps objects of the same template only (SOFA also maps Rigid3 to Vec3 positions).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class IdentityMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
