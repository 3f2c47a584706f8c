// SOFA's TriangularBiquadraticSpringsForceField: Delingette's biquadratic "tensile and angular"
// springs, the edges of a triangle mesh whose energy is quadratic in the change of the squared
// edge lengths, with constants from Young's modulus and Poisson's ratio (an elastic membrane under
// small strains, a St Venant–Kirchhoff-like one under large), and a penalty on compressed area.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         TriangularBiquadraticSpringsForceField.{h,inl} (applyEdgeCreation,
//         applyTriangleCreation, updateLameCoefficients, addForce, addDForce);
//         H. Delingette, "Triangular springs for modeling nonlinear membranes", IEEE TVCG 14(2),
//         2008.
//
// Rest data, per triangle with rest edge lengths L_j (edge j opposite vertex j), SOFA's
//   λ = E·ν/(1 − ν²), μ = E·(1 − ν)/(1 − ν²),  A0 = ¼·√(Σ_j L_j²·(L_{j+1}² + L_{j+2}² − L_j²)),
//   cot_j = (L_{j+1}² + L_{j+2}² − L_j²)/(4·A0),
//   k_j = (2·cot_j²·(λ + μ) + μ)/(16·A0),   γ_j = (2·cot_{j+1}·cot_{j+2}·(λ + μ) − μ)/(16·A0);
// each edge's constant k_e is the sum of k_j over the triangles around it, and each triangle
// keeps its rest unit normal n0 = (x1 − x0)×(x2 − x0)/(2·A0).
//
// Force (SOFA's addForce), with p = x_{v0} − x_{v1} per edge and
//   Δ = |p|² − L0² + ζ·(v_{v0} − v_{v1})·p/|p|²   (ζ the dampingRatio, as SOFA writes it),
// each edge pulls its ends by k_e·Δ·p; with useAngularSprings each triangle adds along its edge j
// (d_j = x_{j+2} − x_{j+1}) the force −d_j·(Δ_{j+1}·γ_{j+2} + Δ_{j+2}·γ_{j+1}) on vertex j+2 and
// its opposite on j+1; with `compressible` too, a triangle whose area A is below A0
// (J = A/A0 < 1) has each vertex j pushed by −3·(λ + μ)·(J − 1)³·½·n×d_j, n its unit normal.
// For ζ = 0 and unflipped triangles (below) this is −∇V of
//   V = Σ_edges ¼·k_e·Δ² + Σ_triangles Σ_j ½·γ_j·Δ_{j+1}·Δ_{j+2}
//       + Σ_{triangles with J<1} ¾·(λ + μ)·A0·(1 − J)⁴         (½·n×d_j = ∂A/∂x_j).
//
// History (SOFA's per-triangle `lastValidNormal`): the normal n of the compression force is not a
// function of the positions alone. While a compressed triangle (J < 1) keeps J ≥ 0.01 and turns
// by less than 120° from its last valid normal, n is its own normal and becomes the last valid
// one; past 120° the triangle is taken as flipped and n is its normal reversed (the force pushes
// it back through); below J = 0.01 n is the last valid normal. So the force depends on the path:
// this field keeps that per-triangle normal, starting at n0 and updated by every AddForce — as
// SOFA's addForce updates it at every force evaluation, trial states included — while
// PotentialEnergy and AddStiffness read it without changing it: an implicit step's matrix uses
// the normals of the last AddForce (SOFA's addDForce uses what its last addForce stored). This
// departs from fluxion::ForceField's rule that a field keeps no per-step state, deliberately, to
// take SOFA's trajectories; a solver's rejected step does not restore it.
//
// Stiffness: SOFA's addDForce, kept as SOFA computes it (per triangle and edge k from vertex
// i = k+1 to j = k+2, p_k = x_i − x_j, p_j = x_i − x_k, p_i = x_j − x_k, the 3×3 block
//   m = −2·k_k·p_k p_kᵀ + 2·γ_k·p_j p_iᵀ − 2·γ_i·p_j p_kᵀ + 2·γ_j·p_k p_iᵀ
//       − (k_k·Δ_k + γ_i·Δ_j + γ_j·Δ_i)·I
// (without angular springs −2·k_k·p_k p_kᵀ − k_k·Δ_k·I), and for a compressed triangle, with
// c = 3·(λ + μ), h = 1 − J, s = c·(J − 1)³/2, a_j = ½·n×d_j, the regularised area term
//   m += s·[n]× + (1 − h)·3c·(J − 1)²/A0·a_i a_jᵀ + h·3c·(J − 1)²/A0·(a_i·a_j)·I
//        + s/(2A)·(Σ|d|² − 2|d_k|²)·n nᵀ),
// acting as ∂f_i/∂x_i = m, ∂f_i/∂x_j = −m, ∂f_j/∂x_i = −mᵀ, ∂f_j/∂x_j = mᵀ; K = −∂f/∂x. The
// spring part is the exact Hessian of V; the area part is not (SOFA blends the exact outer product
// with a multiple of the identity, more so the more compressed the triangle), tested as such.
//
// Deliberate differences from SOFA: without useAngularSprings SOFA's addForce computes no J, and
// its addDForce then adds the area term from a J never computed (zero: a division by a zero area,
// NaN in the matrix); Fluxion adds no area term without angular springs, as SOFA's force.
// `matrixRegularization` is accepted and, as in SOFA (which declares it and never reads it),
// unused; `initialPoints` too (the rest lengths come from the rest positions, as in SOFA).
// PotentialEnergy is V (SOFA has none). SOFA warns at every step that lists flipped triangles;
// Fluxion warns once.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "fluxion/force_field.h"

namespace fluxion::internal {

class TriangularBiquadraticSprings final : public ForceField {
 public:
  struct Edge {
    Index a = 0, b = 0;             ///< first system DOF of its two points (p = x_a − x_b)
    double rest_square_length = 0;  ///< L0² [m²]
    double stiffness = 0;           ///< k_e: Σ k_j of the triangles around it
  };
  struct Triangle {
    std::array<Index, 3> dof{};         ///< first system DOF of vertices 0, 1, 2
    std::array<std::size_t, 3> edge{};  ///< edge j opposite vertex j (into the edge list)
    std::array<double, 3> stiffness{};  ///< k_j
    std::array<double, 3> gamma{};      ///< γ_j
    double rest_area = 0;               ///< A0 [m²]
    Eigen::Vector3d rest_normal = Eigen::Vector3d::Zero();  ///< n0 (unit)
  };
  struct Options {
    double young = 1000, poisson = 0.3;  ///< E [Pa], ν (not ±1)
    double damping_ratio = 0;            ///< ζ
    bool angular = true;                 ///< useAngularSprings
    bool compressible = true;            ///< the area penalty (with angular springs only)
  };

  /// k_j, γ_j and A0 of a triangle of rest edge lengths `rest` (edge j opposite vertex j); false
  /// for a flat or degenerate rest triangle.
  static bool TriangleConstants(const std::array<double, 3>& rest, double young, double poisson,
                                std::array<double, 3>& stiffness, std::array<double, 3>& gamma,
                                double& area);

  TriangularBiquadraticSprings(std::vector<Edge> edges, std::vector<Triangle> triangles,
                               const Options& options);

  /// Adds the force at `state` and updates each compressed triangle's last valid normal.
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
  /// Triangle `t`'s last valid normal (for tests).
  const Eigen::Vector3d& last_valid_normal(std::size_t t) const { return last_valid_normal_[t]; }

 private:
  struct EdgeState {
    double square_length = 0, delta = 0;  // |p|², Δ
  };
  struct Area {
    Eigen::Vector3d normal;               // n, as SOFA's addForce chooses it
    double area = 0, J = 1;               // A, A/A0
    bool flipped = false, valid = false;  // valid: n becomes the last valid normal
  };
  void MeasureEdges(const State& state) const;
  Area MeasureArea(std::size_t t, const State& state) const;
  std::array<double, 81> TriangleBlocks(std::size_t t, const State& state) const;  // measured

  std::vector<Edge> edges_;
  std::vector<Triangle> triangles_;
  Options options_;
  double lambda_ = 0, mu_ = 0;
  mutable std::vector<EdgeState> measured_;                 // per edge, sized once
  mutable std::vector<Eigen::Vector3d> last_valid_normal_;  // per triangle: SOFA's history
  mutable bool warned_flip_ = false;
};

}  // namespace fluxion::internal
