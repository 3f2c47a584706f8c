// SOFA's OscillatorProjectiveConstraint (Vec types).
// Source: Sofa/Component/Constraint/Projective/src/sofa/component/constraint/projective/
//         OscillatorProjectiveConstraint.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Makes points oscillate: `oscillators` lists, for each, "index mean amplitude pulsation phase"
/// (mean and amplitude one vector each of the object's dimension, e.g. 9 numbers in 3-D). At
/// time t the point is set to x = mean + amplitude·sin(ω·t + φ) and its velocity to
/// v = amplitude·ω·cos(ω·t + φ); it is always held (increments projected out). As SOFA, t is the
/// time the step started at. A point listed twice takes its last oscillator (SOFA writes them
/// in order). An index out of range or a list that is not a whole number of records is an
/// error. Rigid templates are not supported.
class OscillatorProjectiveConstraintComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
