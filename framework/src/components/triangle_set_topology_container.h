// SOFA's TriangleSetTopologyContainer (static: topology changes over time are not supported).
// Source:
// Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/container/dynamic/TriangleSetTopologyContainer.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A triangle mesh (with its edges): given inline or through links, checked, and given to the node
/// as its topology (components/topology_container.h: which edges are derived, and the deviations).
class TriangleSetTopologyContainerComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
