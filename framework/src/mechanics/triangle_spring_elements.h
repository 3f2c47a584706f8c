// What Delingette's two triangular spring fields (TriangularQuadraticSprings and
// TriangularBiquadraticSprings) share beyond their formulas: the matrix-free tangent of their 9×9
// triangle blocks, and the in-place follow of a removal of triangles (build/topology_in_place.h).
//
// Tangent: the blocks are stored as the entries the system's fallback would assemble
// (AppendElementBlockEntries' order) and multiplied entry by entry in that order, so the product
// is the fallback's to the bit; stored in the field's own slice, they stay right when triangles
// go (a fallback list of entries would keep the rows and columns of the first build).
//
// Follow: SOFA keeps the rest data of these fields in a TriangleData (per triangle: k_j, γ_j, and
// for the biquadratic field A0, n0 and the last valid normal) and an EdgeData (per edge: the rest
// length and k_e); a removal moves the last element's data into each removed slot
// (TopologyData::remove) and the triangle destruction handler takes the removed triangle's k_j
// from its edges (TriangularQuadraticSpringsForceField.inl, TriangularBiquadraticSprings
// ForceField.inl, applyTriangleDestruction). The same moves here; an edge that lost a triangle
// gets k_e summed again over its remaining triangles in ascending order — what a build from the
// reduced mesh sums, not SOFA's subtraction, whose rounding a build does not have.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "fluxion/state.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// Doubles stored per triangle by the tangent: its 9×9 block.
inline constexpr std::size_t kTriangleSpringTangentStride = 81;

/// Writes triangle block `K` (row-major 9×9) into `out` in AppendElementBlockEntries' order
/// (vertex blocks (a, b), rows, columns), each value as 0 + K, as the fallback accumulates it.
inline void StoreTriangleBlock(const std::array<double, 81>& K, double* out) {
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) *out++ = 0.0 + K[(3 * a + i) * 9 + 3 * b + j];
}

/// y += k·K·x over `triangles` (items with `dof`, their three first DOFs), `tangent` as stored
/// by StoreTriangleBlock per triangle in order.
template <class Triangle>
void AddTriangleBlocksProduct(const std::vector<Triangle>& triangles, const double* tangent,
                              double k, const Vector& x, Vector& y) {
  for (const Triangle& t : triangles)
    for (std::size_t a = 0; a < 3; ++a)
      for (std::size_t b = 0; b < 3; ++b)
        for (Index i = 0; i < 3; ++i)
          for (Index j = 0; j < 3; ++j) y[t.dof[a] + i] += k * *tangent++ * x[t.dof[b] + j];
}

/// Removes the items at `sorted_descending` from `items`, the last item moved into each slot
/// (SOFA's TopologyData::remove). No allocation.
template <class Item>
void RemoveMovingLast(std::vector<Item>& items, std::span<const Index> sorted_descending) {
  for (const Index removed : sorted_descending) {
    const auto slot = static_cast<std::size_t>(removed);
    if (slot + 1 != items.size()) items[slot] = items.back();
    items.pop_back();
  }
}

/// k_e of edge `e`: 0 plus the k_j of each triangle of `around` (ascending) whose edge j is `e`,
/// as the build sums them.
template <class Triangle>
double SumEdgeStiffness(const std::vector<Triangle>& triangles, std::size_t e,
                        std::span<const Index> around) {
  double stiffness = 0.0;
  for (const Index t : around) {
    const Triangle& triangle = triangles[static_cast<std::size_t>(t)];
    for (std::size_t j = 0; j < 3; ++j)
      if (triangle.edge[j] == e) stiffness += triangle.stiffness[j];
  }
  return stiffness;
}

}  // namespace fluxion::internal
