// SOFA's DiagonalMass.
// Source: Sofa/Component/Mass/src/sofa/component/mass/DiagonalMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// One lumped mass per point: `vertexMass` as given, or spread from the node topology's elements
/// by `massDensity` or `totalMass` (components/topology_mass.h, mechanics/lumped_mass.h).
/// Deviations: a `topology` link to another node's topology is refused (the node's own topology
/// is used); a `vertexMass` of the wrong length is an error (SOFA falls back to totalMass).
class DiagonalMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
