// SOFA's Hexa2QuadTopologicalMapping (static: later topology changes are not propagated).
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         Hexa2QuadTopologicalMapping.cpp (init).
// The output holds the input's quads — given, or derived from the hexahedra in SOFA's
// createQuadSetArray order — that are a face of exactly one hexahedron, in that order;
// flipNormals reverses each (q3 q2 q1 q0). Its edges are then derived from the quads.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The border quads of a hexahedral topology (faces of exactly one hexahedron), in the order of the
/// input's quads: fills the container its `output` link names from the topology its `input` link
/// names.
class Hexa2QuadTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
