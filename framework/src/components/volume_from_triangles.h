// SOFA's VolumeFromTriangles.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         VolumeFromTriangles.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Publishes `volume`: the volume a closed triangle/quad surface encloses, by the divergence
/// theorem with F = (x, 0, 0): the sum over triangles (p0 p1 p2) of
/// ((p1−p0) × (p2−p0))ₓ · (x0 + x1 + x2) / 6, each quad (p0 p1 p2 p3) as (p0 p1 p2) and
/// (p0 p2 p3), the absolute value of the total. Positions: `position`, else the object in
/// context (or `mechanical`); elements: `triangles`/`quads`, else the topology in context (or
/// `topology`). Deviation: `update` (recompute every step) is accepted but the volume is
/// computed once, from the initial positions, when the scene is built.
class VolumeFromTrianglesComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
