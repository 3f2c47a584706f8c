// What SOFA's static topology containers share (MeshTopology and the PointSet, EdgeSet,
// TriangleSet, QuadSet, TetrahedronSet and HexahedronSet containers): their element lists, given
// inline or through links (src="@loader", position="@loader.position"), checked and given to the
// node as its topology, with the edges, triangles and quads SOFA derives when none are given.
#pragma once

#include <string>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The element kinds a container accepts, lowest first.
enum class ContainerLevel { kPoints, kEdges, kTriangles, kQuads, kTetrahedra, kHexahedra, kAll };

/// The container's fields: position and the element lists of its level (all for kAll), src, and
/// SOFA's options Fluxion accepts.
ComponentSpec TopologyContainerSpec(std::string name, std::string summary, ContainerLevel level);

/// Reads, checks and sets the node's topology. Lists not given are derived as SOFA's containers
/// derive them at init (mechanics/topology_elements.h, CompleteTopology): triangles from the
/// tetrahedra, quads from the hexahedra, edges from the volumes else from the faces.
void BuildTopologyContainer(BuildContext& context);

}  // namespace fluxion::internal
