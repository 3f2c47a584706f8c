// SOFA's EdgeSetTopologyContainer (static: topology changes over time are not supported).
// Source:
// Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/container/dynamic/EdgeSetTopologyContainer.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Points and edges: given inline or through links, checked, and given to the node as its topology
/// (components/topology_container.h: which edges are derived, and the deviations).
class EdgeSetTopologyContainerComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
