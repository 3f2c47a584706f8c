// What SOFA's static topology containers share (MeshTopology and the PointSet, EdgeSet,
// TriangleSet, QuadSet, TetrahedronSet and HexahedronSet containers): their element lists, given
// inline or through links (src="@loader", position="@loader.position"), checked and given to the
// node as its topology, with the edges SOFA derives when none are given.
#pragma once

#include <string>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The element kinds a container accepts, lowest first.
enum class ContainerLevel { kPoints, kEdges, kTriangles, kQuads, kTetrahedra, kHexahedra, kAll };

/// The container's fields: position and the element lists of its level (all for kAll), src, and
/// SOFA's options Fluxion accepts.
ComponentSpec TopologyContainerSpec(std::string name, std::string summary, ContainerLevel level);

/// Reads, checks and sets the node's topology. Without edges, they are derived as SOFA's
/// MeshTopology::EdgeUpdate does: from the tetrahedra then hexahedra (each edge once, smaller
/// vertex first, SOFA's edge order inside an element) when there are any, else from the
/// triangles then quads (edge (v_{j+1}, v_{j+2}) of each, oriented as in the element).
void BuildTopologyContainer(BuildContext& context);

}  // namespace fluxion::internal
