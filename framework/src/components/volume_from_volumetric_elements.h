// SOFA's VolumeFromVolumetricElements.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         VolumeFromVolumetricElements.{h,inl}; the element volumes from
//         Sofa/framework/Geometry/src/sofa/geometry/{Tetrahedron,Hexahedron}.h
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Publishes `volume`: the sum of the volumes of the tetrahedra and hexahedra. A tetrahedron's
/// is |(p1−p0)·((p2−p0)×(p3−p0))| / 6; a hexahedron's is, as SOFA's geometry::Hexahedron
/// computes it, the sum of the unsigned volumes of six tetrahedra (0 5 1 6) (0 1 3 6)
/// (1 3 6 2) (6 3 0 7) (6 7 0 5) (7 5 4 0) — exact for a parallelepiped. Positions: `position`,
/// else the object in context (or `mechanical`); elements: `tetras`/`hexas`, else the topology in
/// context (or `topology`); no element at all is an error, as in SOFA. Deviation: `update` is
/// accepted but the volume is computed once, from the initial positions, at load time.
class VolumeFromVolumetricElementsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
