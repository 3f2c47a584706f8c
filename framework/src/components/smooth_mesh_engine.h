// SOFA's SmoothMeshEngine.
// Source: Sofa/Component/Engine/Transform/src/sofa/component/engine/transform/
//         SmoothMeshEngine.{h,inl}; neighbours as BaseMeshTopology::getVerticesAroundVertex
//         (Sofa/framework/Core/src/sofa/core/topology/BaseMeshTopology.cpp) finds them.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Laplacian smoothing: `nb_iterations` times, every point (or only the points
/// `input_indices`) moves to the mean of its neighbours' positions of the previous iteration
/// (Jacobi sweeps); a point without neighbour stays. Neighbours are the other ends of the
/// topology's edges (SOFA's MeshTopology derives them from the triangles and quads, or the
/// tetrahedra and hexahedra, when none are given), the topology in context or `topology`.
/// Publishes `output_position`. Deviation: an edge or index beyond `input_position` is an error
/// (SOFA reads past its arrays).
class SmoothMeshEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
