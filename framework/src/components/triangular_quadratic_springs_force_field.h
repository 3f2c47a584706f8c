// SOFA's TriangularQuadraticSpringsForceField: the edges of a triangle mesh as tensile springs,
// and angular springs coupling each triangle's edges, with constants from Young's modulus and
// Poisson's ratio (mechanics/triangular_quadratic_springs.h has the formulas and their sources).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fields as SOFA's: youngModulus (1000), poissonRatio (0.3), dampingRatio (0),
/// useAngularSprings (1), initialPoints (accepted, unused as in SOFA), topology (a link; default
/// the node's). Needs a topology with triangles; its edges are the topology's (SOFA's edge order,
/// derived from the triangles when the topology lists none). Errors: a rest triangle that is flat.
class TriangularQuadraticSpringsForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
