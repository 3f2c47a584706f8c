#include "components/edge_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec EdgeSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("EdgeSetTopologyContainer", "Points and edges",
                               ContainerLevel::kEdges);
}

void EdgeSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
