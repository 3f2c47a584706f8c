// SOFA's TriangularBiquadraticSpringsForceField: the edges of a triangle mesh as springs on the
// change of their squared lengths, angular springs coupling each triangle's edges, and a penalty
// on compressed area, with constants from Young's modulus and Poisson's ratio
// (mechanics/triangular_biquadratic_springs.h has the formulas, their sources, and the
// per-triangle normal this field carries from step to step as SOFA's does).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fields as SOFA's: youngModulus (1000), poissonRatio (0.3), dampingRatio (0),
/// useAngularSprings (1), compressible (1), matrixRegularization (0.4: accepted, unused as in
/// SOFA), initialPoints (accepted, unused as in SOFA), topology (a link; default the node's).
/// Needs a topology with triangles; its edges are the topology's (SOFA's edge order, derived
/// from the triangles when the topology lists none). Errors: a rest triangle that is flat,
/// poissonRatio ±1.
class TriangularBiquadraticSpringsForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
