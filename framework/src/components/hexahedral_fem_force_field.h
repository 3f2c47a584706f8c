// SOFA's HexahedralFEMForceField: the hexahedral element of SOFA's dynamic-topology examples
// (RemovingHexa2QuadProcess.scn), on a HexahedronSetTopologyContainer.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         HexahedralFEMForceField.{h,inl} (computeElementStiffness, integrateStiffness,
//         computeMaterialStiffness, initLarge, computeRotationLarge, accumulateForceLarge,
//         addDForce).
//
// SOFA's element takes its stiffness from a closed form for an axis-aligned box
// (integrateStiffness, with J⁻¹ = diag(2/l) for l = x₆ − x₀ and the volume factor
// |x₁−x₀|·|x₃−x₀|·|x₄−x₀|/8), its entries rounded to float. Worked out against the exact 2×2×2
// Gauss integral of HexahedronFEMForceField's element: for a cube they agree to float round-off
// (8.6e-7 of 23.5 for E = 100, ν = 0.3, edge 1); for other boxes the closed form is not the
// element's stiffness (a 1×2×3 box: 141 where the integral gives 99 on the first diagonal
// entry). Its `large` rotation, rest element in its frame, force Rᵀ·Kₑ·(R₀X − Rx) and tangent
// Rᵀ·Kₑ·R are HexahedronFEMForceField's `large`. Fluxion therefore builds it as
// HexahedronFEMForceField with method `large` (mechanics/hexahedron_fem.h) on hexahedra that are
// axis-aligned cubes at rest.
//
// Where it differs from SOFA, each for a reason:
// - a hexahedron that is not an axis-aligned cube at rest is a load error: SOFA's closed form
//   is not its stiffness there (above), and Fluxion does not reproduce a wrong element;
// - the stiffness is not rounded to float (SOFA's entries differ from it by ~1e-7 relative);
// - method `polar` is refused (SOFA's polar variant is not reproduced).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class HexahedralFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
