// SOFA's PairBoxROI.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/PairBoxRoi.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Selects the points inside an outer box (`inclusiveBox`) and outside an inner one
/// (`includedBox`), bounds included in both tests (a point on the inner box's surface is not
/// selected), for other components to take through links: indices="@roi.indices". Each box is
/// xmin ymin zmin xmax ymax zmax, a min above its max swapped; while either box is all zeros
/// (their default) nothing is selected, as in SOFA. Points are the node's object's rest
/// positions unless `position` is given. Outputs: indices, pointsInROI (alias pointsInBox).
/// Deviations: the selection is made once, when the scene is built (SOFA re-selects when its
/// inputs change, and they do not); without `position` and without an object in the node,
/// SOFA would take a mesh loader's positions or an ancestor's object: Fluxion reports it.
class PairBoxRoiComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
