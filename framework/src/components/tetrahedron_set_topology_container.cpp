#include "components/tetrahedron_set_topology_container.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec TetrahedronSetTopologyContainerComponent::Spec() {
  return TopologyContainerSpec("TetrahedronSetTopologyContainer",
                               "A tetrahedral mesh (with its edges)", ContainerLevel::kTetrahedra);
}

void TetrahedronSetTopologyContainerComponent::Build(BuildContext& context) {
  BuildTopologyContainer(context);
}

}  // namespace fluxion::internal
