// SOFA's MeshSampler.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/MeshSampler.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Picks `number` well spread points of a point set: farthest-point sampling from point 0 (each
/// new sample the first point farthest from the samples so far; it stops early when every point
/// is a sample), then up to `maxIter` Lloyd sweeps (each region's sample replaced by the first
/// point of the region nearest to the region's centroid, until none changes). Distances are
/// squared Euclidean ones, or, when `edges` are given, geodesic path lengths along the edges
/// (Dijkstra, ties broken as SOFA's ordered set does). Publishes `outputIndices` and
/// `outputPosition`. Deviation: with edges, a point no sample reaches belongs to no region
/// (SOFA leaves its region unset and reads garbage).
class MeshSamplerComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
