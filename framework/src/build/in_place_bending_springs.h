// SOFA's TriangularBendingSprings on a live triangle topology, as its build makes them
// (components/triangular_bending_springs.cpp): for each edge with exactly two triangles, in edge
// order, a spring from the vertex opposite the edge in the higher-numbered triangle to the one in
// the lower-numbered, its rest length their rest distance. Shared by the followers whose
// topology's triangles change in place: the triangle follower (build/topology_in_place.cpp, on
// its container's TriangleShells) and a Tetra2Triangle child (build/mapped_child_in_place.cpp, on
// its surface's SurfaceShells).
//
// SOFA's handler (Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
// TriangularBendingSprings.inl: applyTriangleCreation, applyTriangleDestruction,
// applyPointDestruction; its EdgeData removing an edge's spring by moving the last edge's into
// its slot) gives the same springs: an edge of a removed triangle that had two loses its spring
// (it has one or none left), an edge that had three keeps one between the two left, an edge that
// a new triangle gives a second triangle gains one, the others keep theirs (ends renamed with
// their points, the rest length as computed): the springs of the edges with two triangles, in
// edge order. Where SOFA kept a spring's ends as first made, this takes them from the triangles'
// numbers now, which may swap a spring's two ends: a spring's force and tangent are the same bits
// either way (û and x_b − x_a change sign exactly), so this changes nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

/// The bending springs of `topology` (its triangles and edges, with `shells` giving
/// EdgesInTriangle and TrianglesAroundEdge) into `out`, cleared first: nothing is allocated once
/// `out` has the capacity of the springs. The ends are first DOFs `first_dof + point·dimension`;
/// `rest_points` the rest positions by point.
template <class Shells>
void BendingSpringsOf(const Topology& topology, const Shells& shells,
                      const std::vector<std::array<double, 3>>& rest_points, Index first_dof,
                      int dimension, double stiffness, double damping,
                      std::vector<PackedSpring>& out) {
  out.clear();
  const auto opposite = [&](Index t, Index e) {
    const auto& edges = shells.EdgesInTriangle(t);
    const auto& triangle = topology.triangles[static_cast<std::size_t>(t)];
    for (std::size_t j = 0; j < 3; ++j)
      if (edges[j] == e) return triangle[j];
    return triangle[0];
  };
  const int d = dimension;
  for (std::size_t e = 0; e < topology.edges.size(); ++e) {
    const std::vector<Index>& around = shells.TrianglesAroundEdge(static_cast<Index>(e));
    if (around.size() != 2) continue;
    const Index high = std::max(around[0], around[1]), low = std::min(around[0], around[1]);
    const Index m1 = opposite(high, static_cast<Index>(e));
    const Index m2 = opposite(low, static_cast<Index>(e));
    double length2 = 0.0;
    for (int c = 0; c < d && c < 3; ++c) {
      const double u = rest_points[static_cast<std::size_t>(m1)][static_cast<std::size_t>(c)] -
                       rest_points[static_cast<std::size_t>(m2)][static_cast<std::size_t>(c)];
      length2 += u * u;
    }
    out.push_back(PackedSpring{static_cast<std::int32_t>(first_dof + m1 * d),
                               static_cast<std::int32_t>(first_dof + m2 * d), stiffness, damping,
                               std::sqrt(length2)});
  }
}

/// True when `built` (a field's springs) are `expected` (BendingSpringsOf), each spring's ends
/// either way round.
inline bool SameBendingSprings(const std::vector<PackedSpring>& built,
                               const std::vector<PackedSpring>& expected) {
  bool same = expected.size() == built.size();
  for (std::size_t k = 0; same && k < built.size(); ++k) {
    const PackedSpring &a = built[k], &b = expected[k];
    same = ((a.a == b.a && a.b == b.b) || (a.a == b.b && a.b == b.a)) &&
           a.rest_length == b.rest_length && a.stiffness == b.stiffness && a.damping == b.damping;
  }
  return same;
}

}  // namespace fluxion::internal
