// The small linear solves SOFA's proximity tests share: a point projected on a triangle's plane,
// the closest points of two lines, and the feature (vertex, edge, face) of a triangle a point is
// tested against.
#pragma once

#include "collision/detection.h"
#include "collision/element_pair.h"

namespace fluxion::internal::collision {

/// Barycentric coordinates of the projection of P on the plane of (A, B, C): α along AB, β along
/// AC, from the normal equations [AB·AB AB·AC; AB·AC AC·AC] (α, β) = (AP·AB, AP·AC), solved by
/// Cramer's rule as SOFA does (MeshMinProximityIntersection.cpp, MeshNewProximityIntersection.inl).
/// A zero-area triangle has det = 0: α, β are then infinite or NaN, and every test written
/// `!(… within …)` rejects them.
struct PlaneProjection {
  double a00, a11, a01, b0, b1;  ///< the normal equations
  double alpha, beta;
};
inline PlaneProjection ProjectOnPlane(const Vec3& ab, const Vec3& ac, const Vec3& ap) {
  PlaneProjection p;
  p.a00 = ab.dot(ab);
  p.a11 = ac.dot(ac);
  p.a01 = ab.dot(ac);
  p.b0 = ap.dot(ab);
  p.b1 = ap.dot(ac);
  const double det = p.a00 * p.a11 - p.a01 * p.a01;
  p.alpha = (p.b0 * p.a11 - p.b1 * p.a01) / det;
  p.beta = (p.b1 * p.a00 - p.b0 * p.a01) / det;
  return p;
}

/// The closest points of lines P = A + α·AB and Q = C + β·CD (SOFA's line–line tests): normal
/// equations [AB·AB −AB·CD; −AB·CD CD·CD] (α, β) = (AB·AC, −CD·AC). When |det| ≤ `parallel_det`
/// the lines are taken as parallel and α = β = ½ (the segments' middles, SOFA's choice); otherwise
/// the pair counts only when both points are strictly inside their segments, 1e-6 from the ends.
/// Returns false when they are not.
inline bool ClosestOnSegments(const Vec3& ab, const Vec3& cd, const Vec3& ac, double parallel_det,
                              double& alpha, double& beta) {
  const double a00 = ab.dot(ab), a11 = cd.dot(cd), a01 = -cd.dot(ab);
  const double b0 = ab.dot(ac), b1 = -cd.dot(ac);
  const double det = a00 * a11 - a01 * a01;
  alpha = 0.5;
  beta = 0.5;
  if (det < -parallel_det || det > parallel_det) {
    alpha = (b0 * a11 - b1 * a01) / det;
    beta = (b1 * a00 - b0 * a01) / det;
    if (alpha < 0.000001 || alpha > 0.999999 || beta < 0.000001 || beta > 0.999999) return false;
  }
  return true;
}

/// NewProximityIntersection's choice of the triangle feature a point is tested against when its
/// projection falls outside the triangle, and the flag (TriangleFlag) that feature needs. SOFA has
/// two versions with different thresholds and flags (MeshNewProximityIntersection.inl):
/// doIntersectionTrianglePoint (machine epsilon; edge AC needs E31, edge BC E23) and the inline
/// triangle–sphere test (1e-6, 1e-7 for the corner; edges AC and BC need E12 and E31: SOFA's
/// flags, kept).
struct FeatureRule {
  double low;          ///< "inside" margin ε
  double high;         ///< 1 − ε as SOFA writes it (1 − DBL_EPSILON, or 0.999999)
  double corner_ac;    ///< the corner test's bound on the AC projection
  bool edge_from_low;  ///< an edge projection must also be ≥ ε
  int flag_edge_ac;    ///< the flag edge AC needs
  int flag_edge_bc;    ///< the flag edge BC needs
};

/// Moves (α, β) to the feature `rule` chooses when the projection is not inside the triangle.
/// Returns false when the triangle does not own that feature (`flags`): no contact.
bool ChooseTriangleFeature(const PlaneProjection& p, int flags, const FeatureRule& rule,
                           double& alpha, double& beta);

/// The point of model 0's triangle t that X projects on, when strictly inside it (SOFA's margins
/// α, β ≥ 1e-6, α + β ≤ 0.999999, in MinProximity's and LocalMinDistance's triangle tests): false
/// otherwise, a zero-area triangle included.
inline bool ProjectInsideTriangle(const ElementPair& pair, Index t, const Vec3& x, Vec3& q) {
  const Vec3 a = pair.point(0, t, 0);
  const Vec3 ab = pair.point(0, t, 1) - a;
  const Vec3 ac = pair.point(0, t, 2) - a;
  const PlaneProjection proj = ProjectOnPlane(ab, ac, x - a);
  if (!(proj.alpha >= 0.000001 && proj.beta >= 0.000001 && proj.alpha + proj.beta <= 0.999999))
    return false;
  q = a + ab * proj.alpha + ac * proj.beta;
  return true;
}

}  // namespace fluxion::internal::collision
