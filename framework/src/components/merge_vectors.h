// SOFA's MergeVectors.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/MergeVectors.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Concatenates `nbInputs` vectors (input1, input2, …) into `output`, in input order. SOFA
/// instantiates it per element type (template="vector<double>", "Data<double>", "Vec3", …); the
/// concatenation of the numbers is the same for every type, so any template is accepted.
/// Deviation: at most 8 inputs (SOFA: any number).
class MergeVectorsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
