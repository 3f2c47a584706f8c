// SOFA's TriangularQuadraticSpringsForceField: Delingette's "tensile and angular" springs, a
// membrane made of the edges of a triangle mesh whose spring constants come from Young's modulus
// and Poisson's ratio, so that it behaves as an elastic membrane under small strains.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         TriangularQuadraticSpringsForceField.{h,inl} (applyEdgeCreation,
//         applyTriangleCreation, updateLameCoefficients, addForce, addDForce);
//         H. Delingette, "Triangular springs for modeling nonlinear membranes", IEEE TVCG 14(2),
//         2008.
//
// Rest data, per triangle with rest edge lengths L_j (edge j opposite vertex j), SOFA's
//   λ = E·ν/(1 − ν²), μ = E·(1 − ν)/(1 − ν²) = E/(1 + ν),
//   A = ¼·√(Σ_j L_j²·(L_{j+1}² + L_{j+2}² − L_j²))   (Heron),  cot_j = (L_{j+1}² + L_{j+2}² −
//   L_j²)/(4A), k_j = L_j²·(2·cot_j²·(λ + μ) + μ)/(8A),   γ_j =
//   L_{j+1}·L_{j+2}·(2·cot_{j+1}·cot_{j+2}·(λ + μ) − μ)/(8A);
// each edge's spring constant is the sum of k_j over the triangles around it.
//
// Force (SOFA's addForce), with the edge vectors p = x_{v0} − x_{v1}, lengths L and
//   dl = L − L0 + ζ·(v_{v0} − v_{v1})·p/L   (ζ the dampingRatio),
// each edge pulls its ends by k_edge·dl·p/L, and with useAngularSprings each triangle adds along
// its edge j (from vertex j+2 to j+1, length L_j) the coupling (γ_{j+2}·dl_{j+1} +
// γ_{j+1}·dl_{j+2})·(x_{j+1} − x_{j+2})/L_j: the gradient of
//   V = Σ_edges ½·k_edge·dl² + Σ_triangles Σ_j γ_j·dl_{j+1}·dl_{j+2}   (ζ = 0).
//
// Stiffness: SOFA's addDForce, kept as SOFA computes it so that implicit steps take SOFA's
// iterates: per triangle and edge k (from vertex i = k+1 to j = k+2, p_k = x_i − x_j,
// p_j = x_i − x_k, p_i = x_j − x_k) the 3×3 block
//   m = val2·p_k p_kᵀ + val_k·p_j p_iᵀ − val_i·p_j p_kᵀ + val_j·p_k p_iᵀ + val1·I,
//   c = k_k·dl_k + γ_i·dl_j + γ_j·dl_i,  val1 = −c/L_k,  val2 = (c − k_k·L0_k)/L_k³,
//   val_k = γ_k/(L_j·L_i),  val_i = γ_i/(L_j·L_k),  val_j = γ_j/(L_k·L_i)
// (without angular springs m = −k_k·dl_k/L_k·I − k_k·L0_k/L_k³·p_k p_kᵀ), acting as
// ∂f_i/∂x_i = m, ∂f_i/∂x_j = −m, ∂f_j/∂x_i = −mᵀ, ∂f_j/∂x_j = mᵀ; K = −∂f/∂x. It is not
// symmetric and not the exact Hessian of V away from rest (the angular blocks leave out terms);
// Fluxion keeps it to reproduce SOFA's trajectories (a deliberate choice, tested against finite
// differences at rest, where it is exact).
//
// Deliberate differences from SOFA: none in what is computed; `initialPoints` is accepted and,
// as in SOFA (whose rest lengths come from the rest positions), unused; PotentialEnergy is V
// (SOFA has none).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

class TriangularQuadraticSprings final : public ForceField {
 public:
  struct Edge {
    Index a = 0, b = 0;      ///< first system DOF of its two points (p = x_a − x_b)
    double rest_length = 0;  ///< L0 [m]
    double stiffness = 0;    ///< Σ k_j of the triangles around it [N/m]
  };
  struct Triangle {
    std::array<Index, 3> dof{};         ///< first system DOF of vertices 0, 1, 2
    std::array<std::size_t, 3> edge{};  ///< edge j opposite vertex j (into the edge list)
    std::array<double, 3> stiffness{};  ///< k_j
    std::array<double, 3> gamma{};      ///< γ_j
  };

  /// k_j and γ_j of a triangle of rest edge lengths `rest` (edge j opposite vertex j) for
  /// Young's modulus E and Poisson's ratio ν; false for a flat or degenerate rest triangle.
  static bool TriangleConstants(const std::array<double, 3>& rest, double young, double poisson,
                                std::array<double, 3>& stiffness, std::array<double, 3>& gamma);

  TriangularQuadraticSprings(std::vector<Edge> edges, std::vector<Triangle> triangles,
                             double damping_ratio, bool angular);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;
  /// Matrix-free: each triangle's 9×9 block (mechanics/triangle_spring_elements.h), the product
  /// of the system's fallback to the bit, and right after triangles are removed in place.
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;

  // A removal of triangles followed in place (build/topology_in_place.h; SOFA's TriangleData and
  // EdgeData handlers, mechanics/triangle_spring_elements.h), between steps only. A built matrix
  // layout keeps the first slots: the caller refuses to follow then.
  std::size_t num_edges() const { return edges_.size(); }
  std::size_t num_triangles() const { return triangles_.size(); }
  const Edge& edge(std::size_t e) const { return edges_[e]; }
  const Triangle& triangle(std::size_t t) const { return triangles_[t]; }
  /// Removes the triangles `sorted_descending`, the last one's data moved into each slot.
  void RemoveTrianglesMovingLast(std::span<const Index> sorted_descending);
  /// Removes the edges `sorted_descending`, the last one's data moved into each slot (the
  /// triangles' edge indices are the caller's: SetTriangle).
  void RemoveEdgesMovingLast(std::span<const Index> sorted_descending);
  /// Triangle `t`'s vertices' first DOFs and its edges (edge j opposite vertex j).
  void SetTriangle(std::size_t t, const std::array<Index, 3>& dof,
                   const std::array<Index, 3>& edges);
  /// Edge `e`'s ends' first DOFs.
  void SetEdgeEnds(std::size_t e, Index a, Index b);
  /// Edge `e`'s constant k_e summed again over the triangles `around` it (ascending).
  void SumEdgeStiffness(std::size_t e, std::span<const Index> around);

  /// Triangle `t`'s 9×9 K at `state`, as AddStiffness assembles it (for tests).
  std::array<double, 81> TriangleStiffness(std::size_t t, const State& state) const;

 private:
  struct EdgeState {
    double length = 0, dl = 0;
  };
  void MeasureEdges(const State& state) const;
  std::array<double, 81> TriangleBlocks(std::size_t t, const State& state) const;  // measured

  std::vector<Edge> edges_;
  std::vector<Triangle> triangles_;
  double damping_ratio_;
  bool angular_;
  mutable std::vector<EdgeState> measured_;  // per edge, sized once (no allocation in a step)
};

}  // namespace fluxion::internal
