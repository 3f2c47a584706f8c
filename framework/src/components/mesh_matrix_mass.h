// SOFA's MeshMatrixMass, lumped.
// Source: Sofa/Component/Mass/src/sofa/component/mass/MeshMatrixMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// With `lumping="1"`: each point's mass is the row sum of the element mass matrices of linear
/// elements, ρ·(length/2, area/3, volume/4) per edge, triangle, tetrahedron and ρ·(area/4,
/// volume/8) per quad and hexahedron — the same distribution as DiagonalMass, computed by the same
/// code (components/topology_mass.h), from `massDensity`, `totalMass` or `vertexMass`.
/// Deviation: the consistent (non-diagonal) mass of SOFA's default `lumping="0"` is refused for
/// now: Fluxion's systems hold a diagonal mass.
class MeshMatrixMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
