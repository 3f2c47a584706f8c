// SOFA's TetrahedronSetTopologyContainer (static: topology changes over time are not supported).
// Source:
// Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/container/dynamic/TetrahedronSetTopologyContainer.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A tetrahedral mesh (with its edges): given inline or through links, checked, and given to the
/// node as its topology (components/topology_container.h: which edges are derived, and the
/// deviations).
class TetrahedronSetTopologyContainerComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
