#include "mechanics/lumped_mass.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace fluxion::internal {

namespace {

using MassPoint3 = std::array<double, 3>;

MassPoint3 Minus(const MassPoint3& a, const MassPoint3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
MassPoint3 Cross(const MassPoint3& a, const MassPoint3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace

double EdgeLength(const MassPoint3& a, const MassPoint3& b) {
  const MassPoint3 d = Minus(b, a);
  return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

double TriangleArea(const MassPoint3& a, const MassPoint3& b, const MassPoint3& c) {
  const MassPoint3 n = Cross(Minus(b, a), Minus(c, a));
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

double TetrahedronVolume(const MassPoint3& a, const MassPoint3& b, const MassPoint3& c,
                         const MassPoint3& d) {
  const MassPoint3 n = Cross(Minus(b, a), Minus(c, a));
  const MassPoint3 e = Minus(d, a);
  return std::abs((n[0] * e[0] + n[1] * e[1] + n[2] * e[2]) / 6.0);
}

double QuadArea(const std::vector<MassPoint3>& points, const std::array<Index, 4>& q) {
  const auto p = [&](Index i) -> const MassPoint3& { return points[static_cast<std::size_t>(i)]; };
  return TriangleArea(p(q[0]), p(q[1]), p(q[2])) + TriangleArea(p(q[0]), p(q[2]), p(q[3]));
}

double HexahedronVolume(const std::vector<MassPoint3>& points, const std::array<Index, 8>& h) {
  const auto p = [&](Index i) -> const MassPoint3& { return points[static_cast<std::size_t>(i)]; };
  return TetrahedronVolume(p(h[0]), p(h[5]), p(h[1]), p(h[6])) +
         TetrahedronVolume(p(h[0]), p(h[1]), p(h[3]), p(h[6])) +
         TetrahedronVolume(p(h[1]), p(h[3]), p(h[6]), p(h[2])) +
         TetrahedronVolume(p(h[6]), p(h[3]), p(h[0]), p(h[7])) +
         TetrahedronVolume(p(h[6]), p(h[7]), p(h[0]), p(h[5])) +
         TetrahedronVolume(p(h[7]), p(h[5]), p(h[4]), p(h[0]));
}

namespace {

// Calls visit(kind, element, measure) for each element of the topology's highest kind (SOFA's
// getMassTopologyType): 5 hexahedra, 4 tetrahedra, 3 quads, 2 triangles, 1 edges.
template <class Visit>
void ForEachMassElement(const Topology& topology, const std::vector<MassPoint3>& points,
                        Visit visit) {
  const auto p = [&](Index i) -> const MassPoint3& { return points[static_cast<std::size_t>(i)]; };
  if (!topology.hexahedra.empty()) {
    for (const auto& h : topology.hexahedra) visit(5, h, HexahedronVolume(points, h));
  } else if (!topology.tetrahedra.empty()) {
    for (const auto& t : topology.tetrahedra)
      visit(4, t, TetrahedronVolume(p(t[0]), p(t[1]), p(t[2]), p(t[3])));
  } else if (!topology.quads.empty()) {
    for (const auto& q : topology.quads) visit(3, q, QuadArea(points, q));
  } else if (!topology.triangles.empty()) {
    for (const auto& t : topology.triangles) visit(2, t, TriangleArea(p(t[0]), p(t[1]), p(t[2])));
  } else if (!topology.edges.empty()) {
    for (const auto& e : topology.edges) visit(1, e, EdgeLength(p(e[0]), p(e[1])));
  }
}

// The local vertex pairs of each element kind's edges (SOFA's edgesIn* arrays, as sets).
constexpr std::array<std::array<int, 2>, 3> kTriangleEdges{{{0, 1}, {1, 2}, {2, 0}}};
constexpr std::array<std::array<int, 2>, 4> kQuadEdges{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
constexpr std::array<std::array<int, 2>, 6> kTetrahedronEdges{
    {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};
constexpr std::array<std::array<int, 2>, 12> kHexahedronEdges{{{0, 1},
                                                               {1, 2},
                                                               {2, 3},
                                                               {3, 0},
                                                               {4, 5},
                                                               {5, 6},
                                                               {6, 7},
                                                               {7, 4},
                                                               {0, 4},
                                                               {1, 5},
                                                               {2, 6},
                                                               {3, 7}}};

}  // namespace

LumpedMass LumpedVertexMass(const Topology& topology, const std::vector<MassPoint3>& points,
                            double density) {
  LumpedMass result;
  result.vertex.assign(points.size(), 0.0);
  ForEachMassElement(topology, points, [&](int kind, const auto& element, double measure) {
    result.element_kind = kind;
    const double mass = density * measure / static_cast<double>(element.size());
    for (const Index v : element) {
      result.vertex[static_cast<std::size_t>(v)] += mass;
      result.total += mass;
    }
  });
  return result;
}

MassMatrixParts MeshMassMatrixParts(const Topology& topology, const std::vector<MassPoint3>& points,
                                    double density) {
  MassMatrixParts result;
  result.vertex.assign(points.size(), 0.0);
  std::map<std::pair<Index, Index>, std::size_t> edge_index;
  const auto add = [&](const auto& element, const auto& local_edges, double vertex_divisor,
                       double edge_divisor, double measure) {
    const double vertex_mass = density * measure / vertex_divisor;
    for (const Index v : element) result.vertex[static_cast<std::size_t>(v)] += vertex_mass;
    const double edge_mass = density * measure / edge_divisor;
    for (const auto& [i, j] : local_edges) {
      const Index a = element[static_cast<std::size_t>(i)],
                  b = element[static_cast<std::size_t>(j)];
      const auto [it, added] = edge_index.try_emplace(std::minmax(a, b), result.edges.size());
      if (added) result.edges.push_back({a, b, 0.0});
      result.edges[it->second].mass += edge_mass;
    }
  };
  ForEachMassElement(topology, points, [&](int kind, const auto& element, double measure) {
    result.element_kind = kind;
    switch (kind) {
      case 5:
        add(element, kHexahedronEdges, 20.0, 40.0, measure);
        break;
      case 4:
        add(element, kTetrahedronEdges, 10.0, 20.0, measure);
        break;
      case 3:
        add(element, kQuadEdges, 8.0, 16.0, measure);
        break;
      case 2:
        add(element, kTriangleEdges, 6.0, 12.0, measure);
        break;
      default:
        break;  // edges: MeshMatrixMass has no mass for them
    }
  });
  if (result.element_kind == 1) result.element_kind = 0;
  result.lumping_coefficient = result.element_kind >= 4 ? 2.5 : 2.0;
  for (const double m : result.vertex) result.total += m;
  for (const auto& edge : result.edges) result.total += 2.0 * edge.mass;
  return result;
}

}  // namespace fluxion::internal
