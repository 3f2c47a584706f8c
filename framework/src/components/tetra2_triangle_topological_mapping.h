// SOFA's Tetra2TriangleTopologicalMapping (static: later topology changes are not propagated,
// so noNewTriangles has no effect).
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         Tetra2TriangleTopologicalMapping.cpp (init).
// The output holds the input's triangles — given, or derived from the tetrahedra in SOFA's
// createTriangleSetArray order — that are a face of exactly one tetrahedron, in that order;
// flipNormals gives each as (t0 t2 t1); noInitialTriangles leaves the output empty. Edges are
// then derived from the triangles.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The border triangles of a tetrahedral topology (faces of exactly one tetrahedron): fills the
/// container its `output` link names from the topology its `input` link names.
class Tetra2TriangleTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
