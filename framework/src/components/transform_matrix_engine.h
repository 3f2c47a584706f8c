// SOFA's TransformMatrixEngine family: TranslateTransformMatrixEngine,
// RotateTransformMatrixEngine, ScaleTransformMatrixEngine, InvertTransformMatrixEngine.
// Source: Sofa/Component/Engine/Transform/src/sofa/component/engine/transform/
//         TransformMatrixEngine.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Each composes a 4×4 homogeneous matrix `inT` (row by row, default the identity) with its own
/// transformation M on the right, outT = inT·M: Translate with M = [I t; 0 1], Rotate with the
/// rotation of the Euler angles `rotation` [degrees] (SOFA's createQuaterFromEuler, Rz·Ry·Rx),
/// Scale with diag(sx, sy, sz, 1). Invert gives outT = [A⁻¹ −A⁻¹t; 0 1] for inT = [A t; · ·]
/// (SOFA's transformInvertMatrix: the last row of inT is not read). outT links to a mesh
/// loader's `transformation`. As SOFA, `translation`, `rotation` and `scale` default to zeros
/// (so an unset scale is a zero matrix). Deviation: a singular A is an error (SOFA warns and
/// leaves a meaningless outT).
class TranslateTransformMatrixEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

class RotateTransformMatrixEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

class ScaleTransformMatrixEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

class InvertTransformMatrixEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
