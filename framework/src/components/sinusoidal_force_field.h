// Fluxion's SinusoidalForceField (no SOFA counterpart): Fazarinc's driving force.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fluxion's own SinusoidalForceField: F = A·cos(ωt + φ) on chosen points (all by default), the
/// driving force of Fazarinc (seed 003, eqs. 6–10). `amplitude` is one vector for every index or
/// one per index.
class SinusoidalForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
