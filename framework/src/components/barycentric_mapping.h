// SOFA's BarycentricMapping: each output point moves with the element of the input's volume mesh
// that holds it, x_c = Σ w_k·x_k over the element's vertices, weights fixed at the start
// (mechanics/barycentric_weights.h gives the formulas and their sources).
// Source: Sofa/Component/Mapping/Linear/src/sofa/component/mapping/linear/BarycentricMapping.inl
// (createMapperFromTopology: a RegularGridTopology with volume gets the grid mapper; otherwise
// hexahedra, then tetrahedra, decide the mapper; init: the mapper sees the output's and the
// input's positions, or their rest positions with useRestPosition=1).
// The input's topology is its node's (or the one `input_topology` names). The grid mapper
// locates points in the grid's own geometry (RegularGridTopology's min, max, n), as SOFA does,
// so a grid object translated by its MechanicalObject's dx carries the points along.
// A SparseGridTopology gets SOFA's sparse-grid mapper (BarycentricMapperSparseGridTopology.inl:
// mechanics/barycentric_weights.h, SparseGridWeights), also in the grid's own geometry.
// Fluxion deviations: inputs with only triangles, quads or edges (SOFA's surface mappers) are
// not supported (an error says so); a hexahedral mesh that is not a regular
// grid is mapped with SOFA's HexahedronSetTopology rule (parallelepiped cells) whatever its
// container; elements are searched exhaustively (SOFA hashes them: same element but for ties).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class BarycentricMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
