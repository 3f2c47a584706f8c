// SOFA's Hexa2TetraTopologicalMapping (static: later topology changes are not propagated).
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         Hexa2TetraTopologicalMapping.cpp (init).
// Hexahedron i gives tetrahedra 6i … 6i+5 (mechanics/topology_elements.h, SplitHexahedra); with
// swapping (default false) the hexahedra of a grid input are mirrored in a checkerboard (nx, ny
// the grid's cells along x and y; 2 and 1 for any other input, as in SOFA). The output's
// triangles and edges are then derived from the tetrahedra, as its container's init does.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Six tetrahedra per hexahedron of the input: fills the container its `output` link names from the
/// topology its `input` link names.
class Hexa2TetraTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
