// SOFA's RandomPointDistributionInSurface.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/
//         RandomPointDistributionInSurface.{h,inl}; the ray test as sofa::geometry::Triangle::
//         rayIntersection (Sofa/framework/Geometry/src/sofa/geometry/Triangle.h) and
//         helper::TriangleOctree's nearest hit.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Draws random points in the bounding box of a closed triangle surface (`vertices`,
/// `triangles`) until `numberOfInPoints` lie inside it and at least `minDistanceBetweenPoints`
/// from each other (`inPoints`); the others are `outPoints`. A point is inside when, along each
/// of `numberOfTests` random directions (made odd by adding one), the nearest triangle the ray
/// hits faces the ray's way (outward normals). At most numberOfInPoints⁴ draws, as in SOFA,
/// and at most 10⁶ (a warning says when too few points were found).
/// Deviations: a negative `minDistanceBetweenPoints` means no distance limit, as SOFA documents
/// (SOFA compares with its square, so −1 acts as 1); the random numbers — 64-bit Mersenne Twister
/// (std::mt19937_64) seeded with `randomSeed`, 53-bit uniform numbers mapped linearly to each
/// interval, directions drawn first then 3 coordinates per point — are deterministic for a given
/// seed but are not SOFA's (its RandomGenerator, and seed 0 means the clock there; here seed 0 is
/// just a seed); the nearest hit is found by testing every triangle (SOFA: an octree, same result);
/// fewer than 2 triangles or points is an error (SOFA logs it and publishes nothing).
class RandomPointDistributionInSurfaceComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
