#include "components/hexahedron_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec HexahedronSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("HexahedronSetTopologyContainer",
                               "A hexahedral mesh (with its edges)", ContainerLevel::kHexahedra);
}

void HexahedronSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
