#include "mechanics/lumped_mass.h"

#include <cmath>

namespace fluxion::internal {

namespace {

using Vec3 = std::array<double, 3>;

Vec3 Minus(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 Cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace

double EdgeLength(const Vec3& a, const Vec3& b) {
  const Vec3 d = Minus(b, a);
  return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

double TriangleArea(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = Cross(Minus(b, a), Minus(c, a));
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

double TetrahedronVolume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 n = Cross(Minus(b, a), Minus(c, a));
  const Vec3 e = Minus(d, a);
  return std::abs((n[0] * e[0] + n[1] * e[1] + n[2] * e[2]) / 6.0);
}

LumpedMass LumpedVertexMass(const Topology& topology, const std::vector<Vec3>& points,
                            double density) {
  LumpedMass result;
  result.vertex.assign(points.size(), 0.0);
  const auto give = [&](const auto& element, double measure, double parts) {
    const double mass = density * measure / parts;
    for (const Index v : element) {
      result.vertex[static_cast<std::size_t>(v)] += mass;
      result.total += mass;
    }
  };
  const auto p = [&](Index i) -> const Vec3& { return points[static_cast<std::size_t>(i)]; };
  if (!topology.hexahedra.empty()) {
    result.element_kind = 5;
    for (const auto& h : topology.hexahedra)
      give(h,
           TetrahedronVolume(p(h[0]), p(h[5]), p(h[1]), p(h[6])) +
               TetrahedronVolume(p(h[0]), p(h[1]), p(h[3]), p(h[6])) +
               TetrahedronVolume(p(h[1]), p(h[3]), p(h[6]), p(h[2])) +
               TetrahedronVolume(p(h[6]), p(h[3]), p(h[0]), p(h[7])) +
               TetrahedronVolume(p(h[6]), p(h[7]), p(h[0]), p(h[5])) +
               TetrahedronVolume(p(h[7]), p(h[5]), p(h[4]), p(h[0])),
           8.0);
  } else if (!topology.tetrahedra.empty()) {
    result.element_kind = 4;
    for (const auto& t : topology.tetrahedra)
      give(t, TetrahedronVolume(p(t[0]), p(t[1]), p(t[2]), p(t[3])), 4.0);
  } else if (!topology.quads.empty()) {
    result.element_kind = 3;
    for (const auto& q : topology.quads)
      give(q, TriangleArea(p(q[0]), p(q[1]), p(q[2])) + TriangleArea(p(q[0]), p(q[2]), p(q[3])),
           4.0);
  } else if (!topology.triangles.empty()) {
    result.element_kind = 2;
    for (const auto& t : topology.triangles) give(t, TriangleArea(p(t[0]), p(t[1]), p(t[2])), 3.0);
  } else if (!topology.edges.empty()) {
    result.element_kind = 1;
    for (const auto& e : topology.edges) give(e, EdgeLength(p(e[0]), p(e[1])), 2.0);
  }
  return result;
}

}  // namespace fluxion::internal
