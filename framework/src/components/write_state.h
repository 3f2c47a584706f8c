// SOFA's WriteState: records its node's MechanicalObject as text frames while the scene runs.
// Source: Sofa/Component/Playback/src/sofa/component/playback/WriteState.{h,inl,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Writes frames "T= t", then "  X= …" (positions, writeX), "  X0= …" (rest positions,
/// writeX0), "  V= …" (velocities, writeV), "  F= …" (total force f(t, x, v), writeF), each
/// line's values point after point separated by single spaces, to `filename` (relative to the
/// output folder; gzip-compressed when it ends in ".gz"), flushed after every frame.
/// When, as SOFA: at the first of `time` (default 0) and then every `period` (default: dt when
/// `time` is not given, none otherwise; with a period only the first time is kept); a moment
/// within 0.1·dt of a due time counts as reaching it. Times are checked at the start and after
/// every step (SOFA checks at the start of every step: the same states and times).
/// Deliberate differences: numbers in shortest round-trip form (SOFA: 6 significant digits), so
/// ReadState plays a Fluxion recording back exactly; the state after the last step is written
/// too when due (SOFA would write it at the next step's start); F is written in .gz files too
/// (SOFA omits it there); stopAt/keperiod (stopping on kinetic energy) are refused.
class WriteStateComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
