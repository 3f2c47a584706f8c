// SOFA's TetrahedronFEMForceField as a scene component: its fields, the tetrahedra of its
// topology, and a TetrahedronFem (mechanics/tetrahedron_fem.h, where the formulas and the
// deliberate differences from SOFA are) added to its node's object.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         TetrahedronFEMForceField.{h,inl} (constructor: fields and defaults; init, reinit) and
//         BaseLinearElasticityFEMForceField.{h,inl} (youngModulus, poissonRatio).
//
// Where the component differs from SOFA, each for a reason:
// - bad values are load errors, where SOFA warns and goes on with a replacement (a negative
//   youngModulus or a poissonRatio outside [0, 0.5) become 5000 and 0.45; an unknown method
//   becomes large; computeVonMisesStress=1 with small, or computeGlobalMatrix with polar/svd,
//   leave a component that computes no force);
// - plasticMaxThreshold > 0 (plasticity: the force depends on the path) is refused;
// - updateStiffness (re-reading youngModulus every step) has no effect: Fluxion's fields do not
//   change during a run; initialPoints is accepted and ignored as in SOFA (init overwrites it
//   with the rest positions); gatherPt/gatherBsize are GPU options SOFA's CPU class ignores;
// - the von Mises stresses are not kept as data (vonMisesPerElement…): they are computed for
//   output from the state (TetrahedronFem::VonMises).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class TetrahedronFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

/// SOFA's TetrahedralCorotationalFEMForceField (TetrahedralCorotationalFEMForceField.{h,inl}):
/// the same element, forces and stiffness as TetrahedronFEMForceField's small, large and polar
/// (the same strain–displacement and material matrices, rotations and R·J·K·Jᵀ·Rᵀ), without
/// svd, plasticity or the GPU options; its updateStiffnessMatrix with large rewrites every
/// entry of J, which is what TetrahedronFem does. computeVonMisesStress is a flag there: the
/// corotational measure. (SOFA's own von Mises of this class always takes the large frame.)
class TetrahedralCorotationalFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
