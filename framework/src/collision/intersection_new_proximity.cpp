#include "collision/intersection_new_proximity.h"

#include <limits>

#include "collision/model_elements.h"
#include "collision/proximity_geometry.h"

namespace fluxion::internal::collision::new_proximity {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
// doIntersectionTrianglePoint's rule, and the triangle–sphere test's.
constexpr FeatureRule kPointRule{kEps, 1 - kEps, kEps, true, kFlagE31, kFlagE23};
constexpr FeatureRule kSphereRule{0.000001, 0.999999, 0.0000001, false, kFlagE12, kFlagE31};

// SOFA's doIntersectionPointPoint and friends end here: P (model 0's side) and Q, a contact when
// |Q − P|² < alarm², written with P first unless `swap` (then Q is on model 0's element).
int Contact(std::vector<DetectionOutput>& out, const Vec3& p, const Vec3& q, double alarm,
            double contact, std::int64_t id, bool swap = false) {
  if (!((q - p).squaredNorm() < alarm * alarm)) return 0;
  if (swap)
    AppendContact(out, q, p, contact, id);
  else
    AppendContact(out, p, q, contact, id);
  return 1;
}

// doIntersectionLinePoint: Q against segment [A, B], the projection clamped.
int SegmentPoint(std::vector<DetectionOutput>& out, const Vec3& a, const Vec3& b, const Vec3& q,
                 double alarm, double contact, std::int64_t id, bool swap = false) {
  const Vec3 ab = b - a;
  double alpha = (q - a).dot(ab) / ab.dot(ab);
  if (alpha < 0.0) alpha = 0.0;
  if (alpha > 1.0) alpha = 1.0;
  return Contact(out, a + ab * alpha, q, alarm, contact, id, swap);
}

// doIntersectionLineLine.
int SegmentSegment(std::vector<DetectionOutput>& out, const Vec3& a, const Vec3& b, const Vec3& c,
                   const Vec3& d, double alarm, double contact, std::int64_t id) {
  double alpha = 0.0, beta = 0.0;
  if (!ClosestOnSegments(b - a, d - c, c - a, 1.0e-12, alpha, beta)) return 0;
  return Contact(out, a + (b - a) * alpha, c + (d - c) * beta, alarm, contact, id);
}

// doIntersectionTrianglePoint (or the sphere test's variant): Q against the triangle (A, B, C).
int TriangleVsPoint(std::vector<DetectionOutput>& out, const Vec3 (&tri)[3], int flags,
                    const FeatureRule& rule, const Vec3& q, double alarm, double contact,
                    std::int64_t id, bool swap = false) {
  const Vec3 ab = tri[1] - tri[0], ac = tri[2] - tri[0];
  double alpha = 0.0, beta = 0.0;
  if (!ChooseTriangleFeature(ProjectOnPlane(ab, ac, q - tri[0]), flags, rule, alpha, beta))
    return 0;
  return Contact(out, tri[0] + ab * alpha + ac * beta, q, alarm, contact, id, swap);
}

void Corners(const ElementPair& pair, int side, Index t, Vec3 (&tri)[3]) {
  for (int k = 0; k < 3; ++k) tri[k] = pair.point(side, t, k);
}

// The edges of a triangle as SOFA's flags name them: E12, E23, E31.
constexpr int kEdgeFlags[3] = {kFlagE12, kFlagE23, kFlagE31};

}  // namespace

int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out) {
  return Contact(out, pair.point(0, p, 0), pair.point(1, q, 0), pair.alarm_distance,
                 pair.contact_distance, pair.LargerModelId(p, q));
}

int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out) {
  return SegmentPoint(out, pair.point(0, line, 0), pair.point(0, line, 1), pair.point(1, p, 0),
                      pair.alarm_distance, pair.contact_distance, p);
}

int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  return SegmentSegment(out, pair.point(0, a, 0), pair.point(0, a, 1), pair.point(1, b, 0),
                        pair.point(1, b, 1), pair.alarm_distance, pair.contact_distance,
                        pair.LargerModelId(a, b));
}

int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out) {
  Vec3 tri[3];
  Corners(pair, 0, t, tri);
  return TriangleVsPoint(out, tri, pair.elements[0]->triangle_flags(t), kPointRule,
                         pair.point(1, p, 0), pair.alarm_distance, pair.contact_distance, p);
}

int TriangleLine(const ElementPair& pair, Index t, Index line, std::vector<DetectionOutput>& out) {
  Vec3 tri[3];
  Corners(pair, 0, t, tri);
  const int flags = pair.elements[0]->triangle_flags(t);
  const Vec3 q1 = pair.point(1, line, 0), q2 = pair.point(1, line, 1);
  const double alarm = pair.alarm_distance, contact = pair.contact_distance;
  int n = 0;
  for (int k = 0; k < 3; ++k)
    if (flags & (kFlagP1 << k)) n += SegmentPoint(out, q1, q2, tri[k], alarm, contact, line, true);
  n += TriangleVsPoint(out, tri, flags, kPointRule, q1, alarm, contact, line);
  n += TriangleVsPoint(out, tri, flags, kPointRule, q2, alarm, contact, line);
  if (pair.settings->use_line_line)
    for (int k = 0; k < 3; ++k)  // edges 12, 23, 31
      if (flags & kEdgeFlags[k])
        n += SegmentSegment(out, tri[k], tri[(k + 1) % 3], q1, q2, alarm, contact, line);
  return n;
}

int TriangleTriangle(const ElementPair& pair, Index t1, Index t2,
                     std::vector<DetectionOutput>& out) {
  if (pair.elements[0] == pair.elements[1])
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (pair.elements[0]->vertex(t1, i) == pair.elements[1]->vertex(t2, j)) return 0;
  Vec3 p[3], q[3];
  Corners(pair, 0, t1, p);
  Corners(pair, 1, t2, q);
  const int f1 = pair.elements[0]->triangle_flags(t1);
  const int f2 = pair.elements[1]->triangle_flags(t2);
  const std::int64_t id1 = 3 * t1;
  const std::int64_t id2 = 3 * pair.size(0) + 12 * t2;
  const double alarm = pair.alarm_distance, contact = pair.contact_distance;
  int n = 0;
  for (int k = 0; k < 3; ++k)  // SOFA tests the first vertex whatever its flag
    if (k == 0 || (f1 & (kFlagP1 << k)))
      n += TriangleVsPoint(out, q, f2, kPointRule, p[k], alarm, contact, id1 + k, true);
  for (int k = 0; k < 3; ++k)
    if (f2 & (kFlagP1 << k))
      n += TriangleVsPoint(out, p, f1, kPointRule, q[k], alarm, contact, id2 + k);
  if (pair.settings->use_line_line)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if ((f1 & kEdgeFlags[i]) && (f2 & kEdgeFlags[j]))
          n += SegmentSegment(out, p[i], p[(i + 1) % 3], q[j], q[(j + 1) % 3], alarm, contact,
                              id2 + 3 + 3 * i + j);
  return n;
}

int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(0, s);
  return Contact(out, pair.point(0, s, 0), pair.point(1, p, 0), pair.alarm_distance + r,
                 pair.contact_distance + r, pair.LargerModelId(s, p));
}

int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out) {
  const double r = pair.radius(1, s);
  return SegmentPoint(out, pair.point(0, line, 0), pair.point(0, line, 1), pair.point(1, s, 0),
                      pair.alarm_distance + r, pair.contact_distance + r, s);
}

int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out) {
  Vec3 tri[3];
  Corners(pair, 0, t, tri);
  const double r = pair.radius(1, s);
  return TriangleVsPoint(out, tri, pair.elements[0]->triangle_flags(t), kSphereRule,
                         pair.point(1, s, 0), pair.alarm_distance + r, pair.contact_distance + r,
                         s);
}

int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out) {
  const double radii = pair.radius(0, a) + pair.radius(1, b);
  return Contact(out, pair.point(0, a, 0), pair.point(1, b, 0), pair.alarm_distance + radii,
                 pair.contact_distance + radii, pair.LargerModelId(a, b));
}

}  // namespace fluxion::internal::collision::new_proximity
