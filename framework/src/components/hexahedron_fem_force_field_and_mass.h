// SOFA's HexahedronFEMForceFieldAndMass: HexahedronFEMForceField with the mass of its hexahedra
// (a thin variant: the same element, plus a mass matrix and the weight).
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         HexahedronFEMForceFieldAndMass.{h,inl} (init, computeElementMass, integrateMass,
//         addMDx, addForce).
//
// What SOFA computes, kept as it is because its scenes and references depend on it:
// - the element mass matrix is M_e(a, b) = c·I for every pair of vertices a, b (diagonal
//   included), c = V·ρ·8/27 with V = |X₁−X₀|·|X₃−X₀|·|X₄−X₀|: integrateMass is called with
//   vertex a's corner signs for b too, and the signs enter squared, so every entry is the same
//   (a consistent trilinear mass would be V·ρ·(1 + ξ_a·ξ_b/3)…/8 per axis pair). M_e has rank 3
//   and the total c·64 = 2.37·V·ρ; with lumpedMass each point gets its row sum, 8c per element;
//   Fluxion adds c to the diagonal and to each pair's coupling (BuildContext::AddMassCoupling);
// - the weight is not M·g but V·ρ/8 per vertex and element (SOFA's _particleMasses), added as a
//   force.
// Deliberate differences: separateGravity=1 is refused (as for UniformMass); SOFA's
// accFromF (an explicit solver with this mass) only warns "not yet implemented", Fluxion's
// explicit solvers invert the mass with the scene's linear solver — and this M is singular on
// most meshes, so use an implicit solver (SOFA's scenes do).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class HexahedronFEMForceFieldAndMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
