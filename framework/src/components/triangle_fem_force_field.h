// SOFA's three linear triangular membranes as scene components: their fields, the triangles of
// their topology, the rest data each one builds, and a TriangleFem (mechanics/triangle_fem.h,
// where the formulas and the deliberate differences from SOFA are) added to the node's object.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         TriangleFEMForceField.{h,inl}, TriangularFEMForceField.{h,inl},
//         TriangularFEMForceFieldOptim.{h,inl} (constructors: fields and defaults; init, reinit,
//         initSmall, initLarge, initTriangleInfo, parse) and
//         BaseLinearElasticityFEMForceField.{h,inl} (youngModulus, poissonRatio: one value or one
//         per element, defaults 5000 and 0.45).
//
// Where the components differ from SOFA, each for a reason:
// - bad values are load errors, where SOFA warns and goes on with a replacement (a negative
//   youngModulus or a poissonRatio outside [0, 0.5) become 5000 and 0.45, an unknown method
//   becomes large; TriangularFEMForceFieldOptim warns about any method but large and ignores it);
// - the drawing and stress-report fields (showStressValue, showStressVector,
//   showFracturableTriangles, computePrincipalStress, hosfordExponant, criteriaValue,
//   showStressThreshold, stressMaxValue) are accepted and change nothing: they only feed SOFA's
//   drawing; TriangularFEMForceFieldOptim's damping is accepted and, as in SOFA, unused;
// - a triangle flat at rest is a load error (SOFA logs it and computes no force at all).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// SOFA's TriangleFEMForceField: method small/large, thickness, planeStrain, initialPoints; on
/// the topology's triangles, or its quads split into (q0, q1, q2) and (q0, q2, q3) when it has no
/// triangles (SOFA's init).
class TriangleFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

/// SOFA's TriangularFEMForceField: method small/large, rotatedInitialElements and
/// initialTransformation (a rest shape given per triangle), no thickness.
class TriangularFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

/// SOFA's TriangularFEMForceFieldOptim: large only, restScale (pre-stretch), gradients of the
/// rest triangle.
class TriangularFEMForceFieldOptimComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
