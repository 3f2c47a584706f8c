// Element addition as SOFA's dynamic topology modifiers do it (the ADD= lines of a
// TopologicalChangeProcessor file): the new elements appended, and the faces and edges they need
// that the container does not have yet appended before them, in SOFA's order. No point is added
// (SOFA's ADD= of elements names existing points).
// Sources (SOFA tree, Sofa/Component/Topology/Container/Dynamic/src/sofa/component/topology/
// container/dynamic/):
//   EdgeSetTopologyModifier.cpp (addEdgesProcess: appended as given);
//   TriangleSetTopologyModifier.cpp (addTriangleProcess: each side (t[j+1], t[j+2]) missing
//     from the edges is appended, j = 0, 1, 2, then the triangle);
//   QuadSetTopologyModifier.cpp (addQuadProcess: the same with (q[j+1], q[j+2]), j = 0..3);
//   TetrahedronSetTopologyModifier.cpp (addTetrahedronProcess: each face j, vertices
//     trianglesOrientationInTetrahedronArray[j] = {1,2,3} {0,3,2} {1,3,0} {0,2,1}, missing from
//     the triangles is added as a triangle is, then the edges (0,1) (0,2) (0,3) (1,2) (1,3)
//     (2,3) still missing);
//   HexahedronSetTopologyModifier.cpp (addHexahedronProcess: each face of
//     quadsOrientationInHexahedronArray added as a quad is, then edgesInHexahedronArray).
#pragma once

#include <array>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {

/// What an addition did.
struct TopologyAddition {
  Topology topology;  ///< the topology with the elements appended
  /// The edges created, in the order SOFA creates them (each its own EDGESADDED event).
  std::vector<std::array<Index, 2>> created_edges;
  /// The index of the first element added (the new ones follow it).
  Index first_added = 0;
  Index added = 0;
};

/// SOFA's *SetTopologyModifier::add{Edges,Triangles,Quads,Tetrahedra,Hexahedra}(elements) on
/// elements of `level`, each given by its vertices (2, 3, 4, 4 or 8). Throws ConfigError for an
/// element of the wrong size or on a point the topology does not have.
TopologyAddition AddElements(const Topology& topology, TopologyLevel level,
                             const std::vector<std::vector<Index>>& elements);

}  // namespace fluxion::internal
