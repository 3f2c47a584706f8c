// SOFA's Triangle2EdgeTopologicalMapping (static: later topology changes are not propagated).
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         Triangle2EdgeTopologicalMapping.cpp (init).
// The output holds the input's edges — given, or derived from the triangles (edge
// (v_{j+1}, v_{j+2}) of each, as SOFA's TriangleSetTopologyContainer orients them) — that are a
// side of exactly one triangle: the border of the surface, in the input's edge order.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The border edges of a triangle topology (sides of exactly one triangle): fills the container its
/// `output` link names from the topology its `input` link names.
class Triangle2EdgeTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
