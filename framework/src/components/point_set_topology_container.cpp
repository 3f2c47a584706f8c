#include "components/point_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec PointSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("PointSetTopologyContainer", "Points only", ContainerLevel::kPoints);
}

void PointSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
