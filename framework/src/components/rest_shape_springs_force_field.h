// SOFA's RestShapeSpringsForceField (Vec types).
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         RestShapeSpringsForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Pulls `points` (default: all) of the node's object back to their rest positions with
/// `stiffness` (one value, or one per point; default 100) along `activeDirections`
/// (mechanics/rest_shape_springs.h). Deviations: a rest shape from another object
/// (`external_rest_shape`, `external_points`) and `pivot_points` are refused for now;
/// `angularStiffness` only concerns rigid bodies and is ignored.
class RestShapeSpringsForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
