// SOFA's element FEM force fields, CorotationalFEMForceField and LinearSmallStrainFEMForceField,
// on Vec3 tetrahedra and hexahedra: their fields, and the linear elements of
// mechanics/tetrahedron_fem.h and mechanics/hexahedron_fem.h, which compute the same forces.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         CorotationalFEMForceField.{h,inl}, LinearSmallStrainFEMForceField.{h,inl},
//         BaseElementLinearFEMForceField.inl (precomputeElementStiffness), FEMForceField.{h,inl}
//         (addForce, addDForce, the strategies), BaseLinearElasticityFEMForceField.{h,inl}
//         (youngModulus 5000, poissonRatio 0.45, per element or one), impl/ElementStiffnessMatrix.h
//         (integrate), impl/rotations/*.h, Sofa/framework/FEM/src/sofa/fem/FiniteElement[*].h.
//
// What SOFA computes. Per element, Kₑ = Σ_q w_q·|det J_q|·Bᵀ·C·B on the rest element in world
// coordinates (C isotropic, λ = Eν/((1+ν)(1−2ν)), μ = E/(2(1+ν))); tetrahedra: one point (exact,
// B is constant), hexahedra: 2×2×2 Gauss points, J at each. Then, with R the element's rotation
// from its rest to its current orientation and c, c₀ the centroids of its current and rest
// vertices,
//   u_a = Rᵀ·(x_a − c) − (X_a − c₀),   f_a = −R·(Kₑ·u)_a,   ∂f/∂x ≈ −R·Kₑ·Rᵀ (blockwise)
// (no derivative of R: SOFA's addDForce and buildStiffnessMatrix). Linear small strain is R = I,
// u = x − X. The rotation (`rotationMethod`) is R = Fᵀ·F₀ with F the frame (rows e_x, e_y, e_z)
// of the current vertices and F₀ that of the rest ones:
//   tetrahedra, "triangle" (default): e_x along x₁ − x₀, e_z ⟂ the face (x₀, x₁, x₂);
//   hexahedra, "hexahedron" (default): e_x along the mean edge h, e_z ⟂ (h, v) (mean edges);
//   "identity": R = I (the linear element).
// These are exactly TetrahedronFEMForceField's method="large" / "small" and
// HexahedronFEMForceField's method="large" / "small" (whose Kₑ is integrated by the same rules on
// the rest element in its frame, F₀·X: the same matrix rotated, and whose translation is vertex 0
// rather than the centroid, which Kₑ ignores), so those kernels compute them: same numbers up to
// round-off (tests/forcefields/element_fem checks both against independent values).
//
// Strategies. SOFA's computeForceStrategy / computeForceDerivStrategy ("parallel", the default,
// or "sequenced") choose whether the element forces are computed on its task scheduler; the sum
// into the nodes is sequential either way, so SOFA's two strategies give the same bits (its
// Regression references for the parallel and sequential scenes are identical). In Fluxion both
// give the same bits too, for any thread count: the threads are the run's (--threads), and the
// elements' loops sum each node's terms in one order (mechanics/element_loops.h).
//
// Not supported (load errors): rotationMethod "polar" and "stable_polar" (polar decomposition of
// Σ (x_a − c)(X_a − c₀)ᵀ: a rotation neither kernel computes), and SOFA's edge, triangle, quad,
// prism and pyramid instantiations. SOFA's getPotentialEnergy returns 0 for both components;
// Fluxion's is the elements' ½·uᵀ·Kₑ·u. SOFA's elementStiffness (an output) is accepted and
// ignored, as is elementSpace (drawing).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class CorotationalFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

class LinearSmallStrainFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
