// SOFA's GenerateCylinder.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         GenerateCylinder.{h,inl} (doUpdate).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A cylinder of `radius` and `height` along z from `origin`, as SOFA makes it:
/// - a volume: resHeight layers (z = i·height/(resHeight − 1)), each a centre point followed by
///   resRadial rings (r = j·radius/resRadial) of resCircumferential points (θ = 2πk/resC); each
///   layer pair cut into prisms around the axis (3 tetrahedra each) and hexahedra between rings
///   (6 each), in SOFA's order and split: output_TetrahedraPosition (aliases position,
///   output_position) and tetrahedra;
/// - a surface: the outer rings' points (then, with openSurface=0, a centre and the inner rings
///   of the bottom and top caps), 2 triangles per side quad (then the caps' triangles, oriented
///   outwards): output_TrianglesPosition and triangles, which index the surface's points.
/// Differences from SOFA: Bézier control points (BezierTetrahedronDegree, BezierTriangleDegree
/// above 1) are refused; resHeight below 2 (SOFA divides by resHeight − 1), resRadial or
/// resCircumferential 0, and openSurface=0 with resRadial below 2 (SOFA's cap loop runs over an
/// unsigned −1) are errors; the output is computed once when the scene is built.
class GenerateCylinderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
