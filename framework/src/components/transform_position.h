// SOFA's TransformPosition.
// Source: Sofa/Component/Engine/Transform/src/sofa/component/engine/transform/
//         TransformPosition.{h,inl} (init, selectTransformationMethod, doUpdate).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Transforms the points `input_position` into `output_position` by one `method`, as SOFA:
///   projectOnPlane            x + n·((origin − x)·n), n = normal made unit
///   translation               x + translation
///   rotation                  R·x, R from the Euler angles `rotation` [degrees] (SOFA's
///                             createQuaterFromEuler: R = Rz·Ry·Rx)
///   scale                     origin + (x − origin)⊙scale
///   scaleTranslation          x⊙scale + translation
///   scaleRotationTranslation  R·(x⊙scale) + translation
///   affine                    (M·(x, 1)) divided by its 4th entry, M the 4×4 `matrix`
///   fromFile                  affine, M read from `filename` (.tfm, .trm, .txt or .xfm:
///                             meshio/affine_transform_reader.cpp)
/// then the points `fixedIndices` keep their input.
/// Differences from SOFA: `random` is refused (SOFA's generator's sequence is not reproduced);
/// a zero normal for projectOnPlane, an affine image with 4th entry |w| ≤ 1e-10 (SOFA leaves that
/// output point unset), an unknown file extension and a fixed index beyond the points are errors;
/// Vec3 points only; the output is computed once when the scene is built.
class TransformPositionComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
