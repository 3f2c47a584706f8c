#include "collision/intersector_table.h"

#include "collision/intersection_discrete.h"
#include "collision/intersection_local_min_distance.h"
#include "collision/intersection_min_proximity.h"
#include "collision/intersection_new_proximity.h"

namespace fluxion::internal::collision {

namespace {

using K = ElementKind;

// The test a method registers for exactly (a, b), model a first.
ElementTest MinProximityTest(const IntersectionSettings& s, K a, K b) {
  namespace m = min_proximity;
  if (a == K::kPoint && b == K::kPoint) return s.use_point_point ? &m::PointPoint : nullptr;
  if (a == K::kLine && b == K::kPoint) return s.use_line_point ? &m::LinePoint : nullptr;
  if (a == K::kLine && b == K::kLine) return s.use_line_line ? &m::LineLine : nullptr;
  if (a == K::kTriangle && b == K::kPoint) return &m::TrianglePoint;
  if (a == K::kSphere && b == K::kSphere) return &m::SphereSphere;
  if (!s.use_sphere_triangle) return nullptr;
  if (a == K::kSphere && b == K::kPoint) return &m::SpherePoint;
  if (a == K::kTriangle && b == K::kSphere) return &m::TriangleSphere;
  if (a == K::kLine && b == K::kSphere) return &m::LineSphere;
  return nullptr;
}

ElementTest NewProximityTest(K a, K b) {
  namespace n = new_proximity;
  if (a == K::kPoint && b == K::kPoint) return &n::PointPoint;
  if (a == K::kLine && b == K::kPoint) return &n::LinePoint;
  if (a == K::kLine && b == K::kLine) return &n::LineLine;
  if (a == K::kTriangle && b == K::kPoint) return &n::TrianglePoint;
  if (a == K::kTriangle && b == K::kLine) return &n::TriangleLine;
  if (a == K::kTriangle && b == K::kTriangle) return &n::TriangleTriangle;
  if (a == K::kSphere && b == K::kPoint) return &n::SpherePoint;
  if (a == K::kLine && b == K::kSphere) return &n::LineSphere;
  if (a == K::kTriangle && b == K::kSphere) return &n::TriangleSphere;
  if (a == K::kSphere && b == K::kSphere) return &n::SphereSphere;
  return nullptr;
}

// LocalMinDistance::init: every pair it adds, none switched off; (Triangle, Line) and
// (Triangle, Triangle) are ignored.
ElementTest LocalMinDistanceTest(K a, K b) {
  namespace l = local_min_distance;
  if (a == K::kSphere && b == K::kSphere) return &l::SphereSphere;
  if (a == K::kSphere && b == K::kPoint) return &l::SpherePoint;
  if (a == K::kPoint && b == K::kPoint) return &l::PointPoint;
  if (a == K::kLine && b == K::kLine) return &l::LineLine;
  if (a == K::kLine && b == K::kPoint) return &l::LinePoint;
  if (a == K::kLine && b == K::kSphere) return &l::LineSphere;
  if (a == K::kTriangle && b == K::kPoint) return &l::TrianglePoint;
  if (a == K::kTriangle && b == K::kSphere) return &l::TriangleSphere;
  return nullptr;
}

ElementTest DiscreteTest(K a, K b) {
  if (a == K::kSphere && b == K::kSphere) return &discrete::SphereSphere;
  if (a == K::kTriangle && b == K::kLine) return &discrete::TriangleLine;
  return nullptr;
}

ElementTest RegisteredTest(const IntersectionSettings& s, K a, K b) {
  switch (s.method) {
    case IntersectionSettings::Method::kMinProximity:
      return MinProximityTest(s, a, b);
    case IntersectionSettings::Method::kNewProximity:
      return NewProximityTest(a, b);
    case IntersectionSettings::Method::kDiscrete:
      return DiscreteTest(a, b);
    case IntersectionSettings::Method::kLocalMinDistance:
      return LocalMinDistanceTest(a, b);
  }
  return nullptr;
}

// The tests that begin with ProjectInsideTriangle(pair, triangle, point or centre of model 1).
bool NeedsInsideProjection(ElementTest test) {
  return test == &min_proximity::TrianglePoint || test == &min_proximity::TriangleSphere ||
         test == &local_min_distance::TrianglePoint || test == &local_min_distance::TriangleSphere;
}

}  // namespace

Intersector FindIntersector(const IntersectionSettings& settings, ElementKind a, ElementKind b) {
  if (const ElementTest test = RegisteredTest(settings, a, b))
    return {test, false, NeedsInsideProjection(test)};
  if (const ElementTest test = RegisteredTest(settings, b, a))
    return {test, true, NeedsInsideProjection(test)};
  return {};
}

}  // namespace fluxion::internal::collision
