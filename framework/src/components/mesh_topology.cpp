#include "components/mesh_topology.h"

#include "components/topology_container.h"

namespace fluxion::internal {

ComponentSpec MeshTopologyComponent::Spec() {
  return TopologyContainerSpec(
      "MeshTopology",
      "A static mesh: points and any of edges, triangles, quads, tetrahedra, hexahedra",
      ContainerLevel::kAll);
}

void MeshTopologyComponent::Build(BuildContext& context) { BuildTopologyContainer(context); }

}  // namespace fluxion::internal
