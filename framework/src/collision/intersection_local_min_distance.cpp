#include "collision/intersection_local_min_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "collision/proximity_geometry.h"

namespace fluxion::internal::collision::local_min_distance {

namespace {

// SOFA's Vec::normalize: divided by its norm when that exceeds machine epsilon, else unchanged.
Vec3 Unit(const Vec3& v) {
  const double n = v.norm();
  return n > std::numeric_limits<double>::epsilon() ? Vec3(v / n) : v;
}

Vec3 At(const ElementPair& pair, int side, Index vertex) {
  const double* x = pair.positions[side] + 3 * vertex;
  return Vec3(x[0], x[1], x[2]);
}

// The unit normal (B − A) × (C − A) of triangle t of a model's topology.
Vec3 TriangleNormal(const ElementPair& pair, int side, Index t) {
  const auto& tri = pair.elements[side]->surface().triangle(t);
  const Vec3 a = At(pair, side, tri[0]);
  return Unit((At(pair, side, tri[1]) - a).cross(At(pair, side, tri[2]) - a));
}

// A cone test of SOFA's filters: direction d rejects PQ when d·PQ < −(max(0, coneFactor·n̄·d) +
// angleCone)·|PQ|.
bool OutsideCone(const IntersectionSettings& s, const Vec3& mean, const Vec3& d, const Vec3& pq) {
  const double cone = std::max(0.0, mean.dot(d) * s.cone_factor) + s.angle_cone;
  return d.dot(pq) < -cone * pq.norm();
}

// The filters run (SOFA: filterIntersection set, useLMDFilters not).
bool Filtering(const ElementPair& pair) {
  return pair.settings->filter_intersection && !pair.settings->use_lmd_filters;
}

// testValidity(Point): PQ leaves point p outwards, within the cones of its neighbourhood.
bool PointValid(const ElementPair& pair, int side, Index p, const Vec3& pq) {
  const ModelElements& model = *pair.elements[side];
  if (!Filtering(pair) || !model.line_model_in_context()) return true;
  const SurfaceNeighbourhood& surface = model.surface();
  const Index v = model.vertex(p, 0);
  const Vec3 x = At(pair, side, v);
  // The unit outward direction of an edge around v: (x − a) + (x − b).
  const auto outward = [&](Index e) {
    const auto& ends = surface.edge(e);
    return Unit((x - At(pair, side, ends[0])) + (x - At(pair, side, ends[1])));
  };
  Vec3 mean = Vec3::Zero();
  const auto triangles = surface.triangles_around_vertex(v);
  for (const Index t : triangles) mean += TriangleNormal(pair, side, t);
  if (triangles.empty())
    for (const Index e : surface.edges_around_vertex(v)) mean += outward(e);
  if (mean.norm() > 1e-10) {
    mean = Unit(mean);
    if (mean.dot(pq) < -pair.settings->angle_cone * pq.norm() && !pair.both_side[side])
      return false;
  }
  for (const Index e : surface.edges_around_vertex(v))
    if (OutsideCone(*pair.settings, mean, outward(e), pq)) return false;
  return true;
}

// testValidity(Line): PQ leaves the line between its two triangles' cones, or square to it.
bool LineValid(const ElementPair& pair, int side, Index line, const Vec3& pq) {
  if (!Filtering(pair)) return true;
  const ModelElements& model = *pair.elements[side];
  const Index i1 = model.vertex(line, 0), i2 = model.vertex(line, 1);
  const Vec3 u = Unit(At(pair, side, i2) - At(pair, side, i1));
  const auto around = model.surface().triangles_around_edge(line);
  if (around.size() != 2) return !(std::abs(u.dot(Unit(pq))) > pair.settings->angle_cone + 0.0001);
  // The first triangle is on the left when it lists i1 then i2 in its order.
  const auto& t0 = model.surface().triangle(around[0]);
  const bool first_left =
      (i1 == t0[0] && i2 == t0[1]) || (i1 == t0[1] && i2 == t0[2]) || (i1 == t0[2] && i2 == t0[0]);
  const Vec3 n1 = TriangleNormal(pair, side, around[first_left ? 1 : 0]);  // right
  const Vec3 n2 = TriangleNormal(pair, side, around[first_left ? 0 : 1]);  // left
  const Vec3 t1 = Unit(n1.cross(u));
  const Vec3 t2 = Unit(u.cross(n2));
  const Vec3 mean = Unit(n1 + n2);
  if (mean.dot(pq) < 0 && !pair.both_side[side]) return false;
  return !OutsideCone(*pair.settings, mean, t1, pq) && !OutsideCone(*pair.settings, mean, t2, pq);
}

// testValidity(Triangle): PQ leaves the triangle on its front, (B − A) × (C − A)·PQ ≥ 0.
bool TriangleValid(const ElementPair& pair, int side, Index t, const Vec3& pq) {
  if (!Filtering(pair) || pair.both_side[side]) return true;
  const Vec3 a = pair.point(side, t, 0);
  return (pair.point(side, t, 1) - a).cross(pair.point(side, t, 2) - a).dot(pq) >= 0.0;
}

// Within the alarm distance (written so that NaN fails).
bool Near(const Vec3& pq, double alarm) { return pq.squaredNorm() < alarm * alarm; }

// The point of the line through `line` that X projects on, when strictly inside (SOFA's 1e-6
// margins; a zero-length edge has none).
bool ProjectOnLine(const ElementPair& pair, Index line, const Vec3& x, Vec3& q) {
  const Vec3 a = pair.point(0, line, 0);
  const Vec3 ab = pair.point(0, line, 1) - a;
  const Vec3 ap = x - a;
  if (ab.norm() < 0.000000000001 * ap.norm()) return false;
  const double alpha = ap.dot(ab) / ab.dot(ab);
  if (!(alpha >= 0.000001 && alpha <= 0.999999)) return false;
  q = a + ab * alpha;
  return true;
}

}  // namespace

int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out) {
  const Vec3 x = pair.point(0, p, 0), y = pair.point(1, q, 0);
  const Vec3 pq = y - x;
  if (!Near(pq, pair.alarm_distance)) return 0;
  if (!PointValid(pair, 0, p, pq) || !PointValid(pair, 1, q, -pq)) return 0;
  AppendContact(out, x, y, pair.contact_distance, pair.LargerModelId(p, q));
  return 1;
}

int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out) {
  const Vec3 x = pair.point(1, p, 0);
  Vec3 q;
  if (!ProjectOnLine(pair, line, x, q)) return 0;
  const Vec3 pq = q - x;  // SOFA's PQ: from the point to the line
  if (!Near(pq, pair.alarm_distance)) return 0;
  if (!PointValid(pair, 1, p, pq) || !LineValid(pair, 0, line, -pq)) return 0;
  AppendContact(out, q, x, pair.contact_distance, p);
  return 1;
}

int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  const Vec3 a1 = pair.point(0, a, 0), b1 = pair.point(1, b, 0);
  const Vec3 ab = pair.point(0, a, 1) - a1;
  const Vec3 cd = pair.point(1, b, 1) - b1;
  const Vec3 ac = b1 - a1;
  // The normal equations of the closest points (SOFA's, with its own thresholds).
  const double a00 = ab.dot(ab), a11 = cd.dot(cd), a01 = -cd.dot(ab);
  const double b0 = ab.dot(ac), b1c = -cd.dot(ac);
  const double det = a00 * a11 - a01 * a01;
  double alpha = 0.5, beta = 0.5;  // parallel lines: the middles
  if (det < -1.0e-30 || det > 1.0e-30) {
    alpha = (b0 * a11 - b1c * a01) / det;
    beta = (b1c * a00 - b0 * a01) / det;
    if (!(alpha >= 1e-15 && alpha <= 1.0 - 1e-15 && beta >= 1e-15 && beta <= 1.0 - 1e-15)) return 0;
  }
  const Vec3 p = a1 + ab * alpha, q = b1 + cd * beta;
  const Vec3 pq = q - p;
  if (!Near(pq, pair.alarm_distance)) return 0;
  if (!LineValid(pair, 0, a, pq) || !LineValid(pair, 1, b, -pq)) return 0;
  AppendContact(out, p, q, pair.contact_distance, pair.LargerModelId(a, b));
  return 1;
}

int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out) {
  const Vec3 x = pair.point(1, p, 0);
  Vec3 q;
  if (!ProjectInsideTriangle(pair, t, x, q)) return 0;
  const Vec3 pq = q - x;  // SOFA's PQ: from the point to the triangle
  if (!Near(pq, pair.alarm_distance)) return 0;
  if (!PointValid(pair, 1, p, pq) || !TriangleValid(pair, 0, t, -pq)) return 0;
  AppendContact(out, q, x, pair.contact_distance, p);
  return 1;
}

int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(1, s);
  const Vec3 c = pair.point(1, s, 0);
  Vec3 q;
  if (!ProjectInsideTriangle(pair, t, c, q)) return 0;
  const Vec3 pq = q - c;
  if (!Near(pq, pair.alarm_distance + r)) return 0;
  if (!TriangleValid(pair, 0, t, -pq)) return 0;  // a sphere never rejects
  AppendContact(out, q, c, pair.contact_distance + r, s);
  return 1;
}

int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(1, s);
  const Vec3 c = pair.point(1, s, 0);
  Vec3 q;
  if (!ProjectOnLine(pair, line, c, q)) return 0;
  const Vec3 pq = q - c;
  if (!Near(pq, pair.alarm_distance + r)) return 0;
  if (!LineValid(pair, 0, line, -pq)) return 0;
  AppendContact(out, q, c, pair.contact_distance + r, s);
  return 1;
}

int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(0, s);
  const Vec3 c = pair.point(0, s, 0), x = pair.point(1, p, 0);
  const Vec3 pq = x - c;
  if (!Near(pq, pair.alarm_distance + r)) return 0;
  if (!PointValid(pair, 1, p, -pq)) return 0;
  AppendContact(out, c, x, pair.contact_distance + r, pair.LargerModelId(s, p));
  return 1;
}

int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  const double radii = pair.radius(0, a) + pair.radius(1, b);
  const Vec3 c1 = pair.point(0, a, 0), c2 = pair.point(1, b, 0);
  if (!Near(c2 - c1, pair.alarm_distance + radii)) return 0;
  AppendContact(out, c1, c2, pair.contact_distance + radii, pair.LargerModelId(a, b));
  return 1;
}

}  // namespace fluxion::internal::collision::local_min_distance
