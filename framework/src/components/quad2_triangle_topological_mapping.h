// SOFA's Quad2TriangleTopologicalMapping (static: later topology changes are not propagated).
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         Quad2TriangleTopologicalMapping.cpp (init).
// Quad i (p0 p1 p2 p3) gives triangles 2i and 2i+1: (p1 p2 p0) (p3 p0 p2), or with swapping
// (SOFA's default: true) when ((i % s) xor (i / s)) is odd, (p0 p1 p3) (p2 p3 p1). s is the
// number of cells along x of a grid input (along y when that is 0), and 2 for any other input,
// as in SOFA (only right for grids). Edges are then derived from the triangles.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Two triangles per quad of the input, diagonals alternated in a checkerboard (swapping): fills
/// the container its `output` link names from the topology its `input` link names.
class Quad2TriangleTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
