#include "components/quad_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec QuadSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("QuadSetTopologyContainer", "A quad mesh (with its edges)",
                               ContainerLevel::kQuads);
}

void QuadSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
