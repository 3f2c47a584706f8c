// SOFA's AverageCoord.
// Source: Sofa/Component/Engine/Analyze/src/sofa/component/engine/analyze/AverageCoord.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Publishes `average`: the mean of the coordinates of the points `indices` (every point when
/// empty) of the mechanical object in context (or the one `mstate` names), in vector `vecId`
/// (SOFA's VecCoordId: 1 position, 2 rest position). An empty selection is an error, as in SOFA.
/// Deviation: computed once, from the initial state, when the scene is built (SOFA recomputes it
/// at the beginning of every step); Vec1/Vec2/Vec3 objects (SOFA: Vec2, Vec3, Rigid2, Rigid3;
/// Fluxion has no rigid objects).
class AverageCoordComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
