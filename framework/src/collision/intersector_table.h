// Which element test an intersection method has for a pair of model kinds, and in which order it
// takes the models (SOFA's Intersection::findIntersector and its IntersectorMap).
#pragma once

#include "collision/element_pair.h"

namespace fluxion::internal::collision {

/// An intersection method's test for two model kinds.
struct Intersector {
  ElementTest test = nullptr;  ///< null: the method has none (or ignores the pair)
  /// The method takes the models the other way round (SOFA's swapModels): model 0 of the test
  /// is the second model asked about.
  bool swap = false;
  /// The test reports nothing unless model 1's element's (first) point projects strictly inside
  /// model 0's triangle (ProjectInsideTriangle): MinProximity's and LocalMinDistance's
  /// triangle–point and triangle–sphere tests. A search may then reject a pair early with
  /// MayProjectInside.
  bool needs_inside_projection = false;
  explicit operator bool() const { return test != nullptr; }
};

/// The test `settings.method` registers for (a, b), tried as (a, b) then (b, a), as SOFA's
/// IntersectorMap::get does. The pairs each method registers, and the switches that remove some
/// (MinProximityIntersection's usePointPoint, useLinePoint, useLineLine, useSphereTriangle), are
/// listed in intersection_min_proximity.h, intersection_new_proximity.h,
/// intersection_local_min_distance.h and intersection_discrete.h.
Intersector FindIntersector(const IntersectionSettings& settings, ElementKind a, ElementKind b);

}  // namespace fluxion::internal::collision
