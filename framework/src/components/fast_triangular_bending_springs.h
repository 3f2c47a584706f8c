// SOFA's FastTriangularBendingSprings.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         FastTriangularBendingSprings.{h,inl} (reinit, applyTriangleCreation,
//         EdgeSpring::setEdgeSpring, addForce, addDForce, getPotentialEnergy)
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Linear bending of a triangle mesh (Vec3; Volino & Magnenat-Thalmann, "Simple linear bending
/// stiffness in particle systems", 2006): each edge CD (the topology's edge order, C = its first
/// vertex) shared by exactly two triangles, with A opposite it in the lower-numbered triangle and
/// B in the other, gets a stencil (mechanics/bending_stencils.h) built from the rest positions:
///   α_A = |N_B|/(|N_A| + |N_B|), α_B = |N_A|/(|N_A| + |N_B|),
///   α_C = −|N_D|/(|N_C| + |N_D|), α_D = −|N_C|/(|N_C| + |N_D|),
/// N_A = (A − C)×(A − D), N_B = (B − D)×(B − C), N_C = (C − B)×(C − A), N_D = (D − A)×(D − B),
/// and λ = (2/3)·(h_A + h_B)/(h_A²·h_B²)·|CD|·bendingStiffness, h the distances of A and B to
/// the line CD. An edge whose |AB| or |CD| is not above `minDistValidity` gets none, as in SOFA.
/// Differences from SOFA: a stencil with a degenerate triangle (h = 0), where SOFA divides by
/// zero, is left out; the stiffness matrix holds all four vertices (SOFA's addDForce does, its
/// buildStiffnessMatrix only loops over the first three); no `topology` link (the node's own).
class FastTriangularBendingSpringsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
