// SOFA's MeshSubsetEngine.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/MeshSubsetEngine.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Extracts the part of a mesh on the points `indices`: `position` lists those points in the
/// order of `indices`, and `edges`, `triangles`, `quads`, `tetrahedra`, `hexahedra` keep the
/// input elements whose every point is selected, renumbered into that list. As in SOFA, a point
/// listed twice appears twice in `position` and elements refer to its last place. Deviation:
/// an index beyond the input points is an error (SOFA reads past its array).
class MeshSubsetEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
