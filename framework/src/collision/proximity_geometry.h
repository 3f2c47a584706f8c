// The small linear solves SOFA's proximity tests share: a point projected on a triangle's plane,
// the closest points of two lines, and the feature (vertex, edge, face) of a triangle a point is
// tested against.
#pragma once

#include <cmath>

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

/// What ProjectInsideTriangle computes from a triangle alone, kept for a triangle that does not
/// move (a static obstacle's), so that a point can be rejected cheaply before the exact test.
struct TrianglePlane {
  Vec3 a, ab, ac;
  double a00 = 0.0, a11 = 0.0, a01 = 0.0, det = 0.0;
  bool usable = false;  ///< well-shaped enough for MayProjectInside to reject anything
};

inline TrianglePlane PlaneOfTriangle(const ElementPair& pair, int side, Index t) {
  TrianglePlane plane;
  plane.a = pair.point(side, t, 0);
  plane.ab = pair.point(side, t, 1) - plane.a;
  plane.ac = pair.point(side, t, 2) - plane.a;
  plane.a00 = plane.ab.dot(plane.ab);
  plane.a11 = plane.ac.dot(plane.ac);
  plane.a01 = plane.ab.dot(plane.ac);
  plane.det = plane.a00 * plane.a11 - plane.a01 * plane.a01;
  // A sliver (det below 1e-9 of its largest possible value) or a non-finite triangle is always
  // given to the exact test: the margins below assume det is known to a relative 1e-7.
  plane.usable = plane.det > 1e-9 * plane.a00 * plane.a11 && std::isfinite(plane.det);
  return plane;
}

/// False only when X's projection is certainly not strictly inside the triangle in
/// ProjectInsideTriangle's sense (α, β ≥ 1e-6, α + β ≤ 0.999999), decided from the numerators of
/// its Cramer solve without the divisions: α = nα/det ≤ 0 when nα is negative beyond its
/// round-off (a relative 1e-9 of its terms, some 10⁷ ulps), likewise β, and α + β > 1 when
/// nα + nβ exceeds det by a relative 1e-5 beyond the round-off. Any doubt — NaN, a sliver
/// triangle — answers true, and the exact test decides.
inline bool MayProjectInside(const TrianglePlane& plane, const Vec3& x) {
  if (!plane.usable) return true;
  const Vec3 ap = x - plane.a;
  const double b0 = ap.dot(plane.ab), b1 = ap.dot(plane.ac);
  const double alpha_terms = std::abs(b0 * plane.a11) + std::abs(b1 * plane.a01);
  const double beta_terms = std::abs(b1 * plane.a00) + std::abs(b0 * plane.a01);
  const double n_alpha = b0 * plane.a11 - b1 * plane.a01;
  const double n_beta = b1 * plane.a00 - b0 * plane.a01;
  if (n_alpha < -1e-9 * alpha_terms || n_beta < -1e-9 * beta_terms) return false;
  return !(n_alpha + n_beta > (1.0 + 1e-5) * plane.det + 1e-9 * (alpha_terms + beta_terms));
}

}  // namespace fluxion::internal::collision
