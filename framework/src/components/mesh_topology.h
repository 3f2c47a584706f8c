// SOFA's MeshTopology (static: topology changes over time are not supported).
// Source:
// Sofa/Component/Topology/Container/Constant/src/sofa/component/topology/container/constant/MeshTopology.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A static mesh: points and any of edges, triangles, quads, tetrahedra, hexahedra: given inline or
/// through links, checked, and given to the node as its topology (components/topology_container.h:
/// which edges are derived, and the deviations).
class MeshTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
