// SOFA's MeshClosingEngine.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         MeshClosingEngine.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Closes the holes of a triangle/quad surface. Border edges are the element sides (taken in
/// each element's order) whose reverse no other element has; they are chained into loops
/// starting from the smallest point, as SOFA does (a point starting two border edges keeps the
/// one to the larger point). Each loop of at least 3 points gets a new point at its centroid and
/// a fan of triangles (centroid, point, previous point), which faces as the elements around the
/// hole do. Publishes the closed mesh (`position`: the input points then the centroids,
/// `triangles`: the input's then the fans, `quads`: the input's), the closing parts alone
/// (`closingPosition`, `closingTriangles`) and `indices`. Deviation: SOFA's `indices` is a
/// list per loop (its points then its centroid); here the lists are concatenated.
class MeshClosingEngineComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
