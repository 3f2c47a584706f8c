// SOFA's DiagonalMass.
// Source: Sofa/Component/Mass/src/sofa/component/mass/DiagonalMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// One lumped mass per point: `vertexMass` as given, or spread from the elements of the topology
/// (the node's, or the one `topology="@path"` names) by `massDensity` or `totalMass`
/// (components/topology_mass.h, mechanics/lumped_mass.h).
/// Changeable between steps (Simulation::SetComponentField): `totalMass` and `massDensity` when
/// the mass was spread from the topology (M, the weight and the solver's caches of M change).
/// Deviation: a `vertexMass` of the wrong length is an error (SOFA falls back to totalMass).
class DiagonalMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
