// SOFA's RegularGridSpringForceField.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         RegularGridSpringForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Springs along the edges (lines), face diagonals (quads) and cell diagonals (cubes) of the
/// node's RegularGridTopology. SOFA walks the grid at each evaluation; the springs it walks are
/// built here once, in the same order, with rest lengths from the grid spacing (ks = s/L0).
/// Deviation: SOFA leaves these springs out of assembled matrices (direct solvers) and energies;
/// Fluxion includes them everywhere (SOFA's matrix-free CG does include them).
class RegularGridSpringForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
