// SOFA's Spiral.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/Spiral.{h,inl}
//         (doUpdate).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Rolls points lying along x into an Archimedean spiral in the xy plane, as SOFA: a point
/// (x0, y0, z0) of `rest_position` goes to arc length l = |x0| along the spiral r = A·t (A the
/// `curvature`), whose length is l(t) = A/2·(t·√(1 + t²) + asinh t); t solves l(t) = l by 10
/// Newton steps from √l. The point is then (r cos t, r sin t, z0) + y0·n, with r = ±A·t (the
/// sign of x0) and n the unit normal (−A sin t − A t cos t, A cos t − A t sin t, 0), which SOFA
/// bends to (−0.6, 0.8) when −π/2 < t < π/2 and n_y > 0.8. Published as `position`.
/// Deviation: the output is computed once when the scene is built (its input does not change).
class SpiralComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
