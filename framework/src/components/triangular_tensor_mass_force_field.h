// SOFA's TriangularTensorMassForceField: a triangle membrane under small displacements as
// constant 3×3 blocks per edge (mechanics/triangular_tensor_mass.h has the formulas, their
// source and where Fluxion differs).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Fields as SOFA's: youngModulus (1000), poissonRatio (0.3), topology (a link; default the
/// node's). Needs a Vec3 object with a triangle topology; the edges are the topology's (derived
/// from its triangles when it lists none). Errors: poissonRatio ±1, a flat rest triangle.
class TriangularTensorMassForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
