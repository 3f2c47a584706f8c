// SOFA's UniformMass.
// Source: Sofa/Component/Mass/src/sofa/component/mass/UniformMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The same lumped mass on every point: `totalMass`/n, else `vertexMass` (SOFA: totalMass wins).
/// Changeable between steps (Simulation::SetComponentField): `totalMass`, `vertexMass` (M, the
/// weight and the solver's caches of M follow; docs/viewer.md). Deviation: separateGravity=1 is
/// refused.
class UniformMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
