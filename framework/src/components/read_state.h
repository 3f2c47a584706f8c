// SOFA's ReadState: plays a recorded state (WriteState's text frames) into its node's
// MechanicalObject.
// Source: Sofa/Component/Playback/src/sofa/component/playback/ReadState.{h,inl,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads `filename` (found as every input file of the scene; gzip-decompressed when it ends in
/// ".gz") at load time. At the start and after every step, at time τ = t + shift, it takes the
/// frames of the file not yet taken whose time T ≤ τ and applies the last of them, as SOFA does
/// at each step's start: its X line (scaled by scalePos, then translated by `translation`)
/// becomes the object's positions, its V line its velocities; no interpolation, and nothing is
/// applied when no new frame is due. loop = 1 starts the file again, shifted by the last time
/// read, when its end is reached. The object may be static (no solver): it moves all the same.
/// Deliberate differences: `rotation` other than 0 0 0 is refused; frames whose X or V has the
/// wrong number of values are refused at load time (SOFA reads what it can).
class ReadStateComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
