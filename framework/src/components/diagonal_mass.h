// SOFA's DiagonalMass.
// Source: Sofa/Component/Mass/src/sofa/component/mass/DiagonalMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// One lumped mass per point, given point by point in `vertexMass`.
/// Deviation: SOFA computes masses from a topology with `totalMass`/`massDensity`; Fluxion refuses
/// those for now.
class DiagonalMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
