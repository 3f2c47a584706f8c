// SOFA's TaitSurfacePressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         TaitSurfacePressureForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The pressure of the volume a closed surface (the node's triangles and quads) encloses, by
/// Tait's equation, with a volume injected at a limited rate (mechanics/tait_pressure.h for the
/// equations). Differences from SOFA: the output fields (currentVolume, currentPressure, …) are
/// not published; the injection advances once per step at its start (SOFA: at each
/// AnimateBeginEvent, the same); a component built again by a topology rebuild takes its initial
/// volume from the changed surface's rest positions (SOFA keeps the first one and corrects the
/// current volume by the change's, volumeAfterTC); a per-field `rayleighStiffness` is refused.
class TaitSurfacePressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
