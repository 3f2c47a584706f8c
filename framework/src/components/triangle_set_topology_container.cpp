#include "components/triangle_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec TriangleSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("TriangleSetTopologyContainer", "A triangle mesh (with its edges)",
                               ContainerLevel::kTriangles);
}

void TriangleSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
