// The geometry of a visual model (SOFA's OglModel), read only when another component links to it.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// SOFA's OglModel (old name VisualModel) as a source of data.
///
/// Fluxion draws nothing, so a visual model is ignored — unless another component links to it,
/// as SOFA's MeshSampler.scn samples `position="@Visual.position"`. Then, and only then, the model
/// is read for its geometry: its points and elements from `src` (a loader or a topology) or from
/// its own lists, moved as SOFA's VisualModelImpl::init moves them — x ← T·R·S·x with S =
/// diag(scale3d), R the Euler angles `rotation` [degrees] (Rz·Ry·Rx) and T the translation, the
/// legacy `scale`, `rx`/`ry`/`rz` and `dx`/`dy`/`dz` replacing their vectors as in
/// VisualModelImpl::parse — and published as `position`, `edges`, `triangles` and `quads`. Every
/// other attribute (colour, material, texture, normals) only draws and is ignored.
///
/// Source: Sofa/Component/Visual/src/sofa/component/visual/VisualModelImpl.cpp (parse, init,
/// applyScale/applyRotation/applyTranslation). Deviation: SOFA splits a vertex that has several
/// normals or texture coordinates into several (vertPosIdx, handleSeams); Fluxion keeps the
/// points as the source gives them.
class VisualModelDataComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
