// SOFA's HexahedronSetTopologyContainer (static: topology changes over time are not supported).
// Source:
// Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/container/dynamic/HexahedronSetTopologyContainer.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A hexahedral mesh (with its edges): given inline or through links, checked, and given to the
/// node as its topology (components/topology_container.h: which edges are derived, and the
/// deviations).
class HexahedronSetTopologyContainerComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
