// SOFA's HausdorffDistance.
// Source: Sofa/Component/Engine/Analyze/src/sofa/component/engine/analyze/
//         HausdorffDistance.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Publishes the Hausdorff distances between two point clouds: `d12` = max over points a of
/// `points1` of the distance from a to the nearest point of `points2`, `d21` the same the other
/// way, and `max` = max(d12, d21). Points have 1, 2 or 3 coordinates (the template). Brute
/// force, as SOFA. Deviations: one cloud empty while the other is not is an error (SOFA
/// publishes the largest double); computed once at load time (`update` is accepted: SOFA
/// recomputes every step when it is set, from inputs that are fixed in Fluxion anyway); no
/// Rigid templates.
class HausdorffDistanceComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
