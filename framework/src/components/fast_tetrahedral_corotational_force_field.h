// SOFA's FastTetrahedralCorotationalForceField as a scene component: the corotational linear
// tetrahedron of TetrahedronFEMForceField under another name and other method names, built as a
// TetrahedronFem (mechanics/tetrahedron_fem.h).
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         FastTetrahedralCorotationalForceField.{h,inl} (createTetrahedronRestInformation,
//         computeQRRotation, addForce, addDForce, buildStiffnessMatrix, init: fields, methods).
//
// Where SOFA's formulas coincide with TetrahedronFEMForceField's (checked term by term: the same
// shape vectors, Lamé parameters times |V|, rotated linear stiffness R·K·Rᵀ, force
// R·K·(Rᵀ·x − X) written edge by edge):
//   qr (default; also "large"): R = Sᵀ·S₀ with S, S₀ the frames of the first edges of the
//       current and rest tetrahedron (computeQRRotation) = TetrahedronFEMForceField's large;
//   polar2: R = Qᵀ·Q₀ with Q, Q₀ the polar factors of the current and rest edge matrices
//       = TetrahedronFEMForceField's polar;
//   none (also "linear", "small"): R = I = TetrahedronFEMForceField's small.
// Not yet: polar, SOFA's R = the polar factor of the deformation gradient F = Σ (x_j − x₀)⊗g_j,
// a rotation TetrahedronFem does not have (it equals polar2's only when the rest edges from
// vertex 0 are orthogonal and of equal length: then F = A_curᵀ·Q₀/c and polar(F) = Qᵀ·Q₀); it
// is a load error rather than a silent replacement.
// Other differences: an unknown method is a load error (SOFA logs one and computes with an
// undefined method); the drawing fields are accepted and change nothing.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class FastTetrahedralCorotationalForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
