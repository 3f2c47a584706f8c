// SOFA's IdentityMultiMapping: the output object is its inputs one after another, point for point
// (x_out = [x_in1; x_in2; …], J = block rows of identities).
// Source: Sofa/Component/Mapping/Linear/src/sofa/component/mapping/linear/
//         IdentityMultiMapping.inl (init resizes the output to the sum of the inputs' sizes and
//         builds each input's J; apply, applyJ copy each input at its offset; applyJT adds each
//         block back onto its input).
// Fluxion maps objects of one template only (SOFA also maps Rigid3 inputs onto Vec3 points) and
// inputs integrated by one ODE solver (or all static); the output's forces, stiffness and mass
// reach the inputs as Jᵀ·f, Jᵀ·K·J, Jᵀ·M·J, as with every mapping (BuildContext::
// MapObjectFromParents).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fields: input (a list of links, SOFA's multi-link: required), output (default the node's
/// object), and the mechanical mappings' switches (mechanical_mapping.h).
class IdentityMultiMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
