#include "collision/intersection_min_proximity.h"

#include <Eigen/Geometry>

#include "collision/proximity_geometry.h"

namespace fluxion::internal::collision::min_proximity {

namespace {

// The contact between P and Q when nearer than `alarm` (|Q − P|² < alarm², so that NaN fails).
int ContactWithin(std::vector<DetectionOutput>& out, const Vec3& p, const Vec3& q, double alarm,
                  double contact, std::int64_t id) {
  if (!((q - p).squaredNorm() < alarm * alarm)) return 0;
  AppendContact(out, p, q, contact, id);
  return 1;
}

}  // namespace

int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out) {
  return ContactWithin(out, pair.point(0, p, 0), pair.point(1, q, 0), pair.alarm_distance,
                       pair.contact_distance, pair.LargerModelId(p, q));
}

int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out) {
  const Vec3 a = pair.point(0, line, 0), b = pair.point(0, line, 1);
  const Vec3 x = pair.point(1, p, 0);
  const Vec3 ab = b - a;
  const double alpha = (x - a).dot(ab) / ab.dot(ab);
  const Vec3 q = alpha <= 0.0 ? a : alpha >= 1.0 ? b : Vec3(a + ab * alpha);
  return ContactWithin(out, q, x, pair.alarm_distance, pair.contact_distance, p);
}

int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  const Vec3 a1 = pair.point(0, a, 0), a2 = pair.point(0, a, 1);
  const Vec3 b1 = pair.point(1, b, 0), b2 = pair.point(1, b, 1);
  double alpha = 0.0, beta = 0.0;
  if (!ClosestOnSegments(a2 - a1, b2 - b1, b1 - a1, 1.0e-15, alpha, beta)) return 0;
  return ContactWithin(out, a1 + (a2 - a1) * alpha, b1 + (b2 - b1) * beta, pair.alarm_distance,
                       pair.contact_distance, pair.LargerModelId(a, b));
}

int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out) {
  const Vec3 x = pair.point(1, p, 0);
  Vec3 q;
  if (!ProjectInsideTriangle(pair, t, x, q)) return 0;
  if (!ContactWithin(out, q, x, pair.alarm_distance, pair.contact_distance, p)) return 0;
  if (pair.settings->use_surface_normals) {
    const Vec3 a = pair.point(0, t, 0);
    out.back().normal = (pair.point(0, t, 1) - a).cross(pair.point(0, t, 2) - a).normalized();
  }
  return 1;
}

int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  const double radii = pair.radius(0, a) + pair.radius(1, b);
  const Vec3 c1 = pair.point(0, a, 0), c2 = pair.point(1, b, 0);
  const double reach = pair.alarm_distance + radii;
  if (!((c2 - c1).squaredNorm() <= reach * reach)) return 0;
  AppendContact(out, c1, c2, pair.contact_distance + radii, pair.LargerModelId(a, b));
  return 1;
}

int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(0, s);
  return ContactWithin(out, pair.point(0, s, 0), pair.point(1, p, 0), pair.alarm_distance + r,
                       pair.contact_distance + r, s);
}

int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(1, s);
  const Vec3 c = pair.point(1, s, 0);
  Vec3 q;
  if (!ProjectInsideTriangle(pair, t, c, q)) return 0;
  return ContactWithin(out, q, c, pair.alarm_distance + r, pair.contact_distance + r, s);
}

int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(1, s);
  const Vec3 a = pair.point(0, line, 0), b = pair.point(0, line, 1);
  const Vec3 c = pair.point(1, s, 0);
  const Vec3 ba = a - b;
  const double alpha = ba.dot(c - b) / ba.dot(ba);
  if (!(alpha >= 0.000001 && alpha <= 0.999999)) return 0;
  return ContactWithin(out, a - ba * alpha, c, pair.alarm_distance + r, pair.contact_distance + r,
                       s);
}

}  // namespace fluxion::internal::collision::min_proximity
