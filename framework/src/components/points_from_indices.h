// SOFA's PointsFromIndices.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/PointsFromIndices.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Publishes `indices_position`: the points `indices` of the list `position`, in the order of
/// `indices`, a point equal to one already taken left out (SOFA's doUpdate: `contains` compares
/// coordinates). Points have the template's dimension (Vec1d, Vec2d, Vec3d; default Vec3d).
/// Deviations: computed once, from the initial data, when the scene is built (SOFA recomputes it
/// when its inputs change); an index out of range is an error (SOFA reads past the list).
class PointsFromIndicesComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
