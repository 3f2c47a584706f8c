// SOFA's TriangularTensorMassForceField (Delingette's tensor-mass model of a membrane under small
// displacements): a constant 3×3 block D_e per edge e = (v0, v1), built once from the rest
// triangles, and the linear force of the displacements u = x − X from the rest positions X:
//   dp = u_v1 − u_v0,   f_v1 += D_e·dp,   f_v0 −= D_eᵀ·dp,
// hence K = −∂f/∂x with the blocks K_v1v1 = −D_e, K_v1v0 = D_e, K_v0v1 = D_eᵀ, K_v0v0 = −D_eᵀ.
// Each rest triangle (p0, p1, p2) of area A, with squared side lengths a_j = |p_{j+1} − p_{j+2}|²
// (indices mod 3), adds to the block of the edge opposite vertex j (k = j+1, l = j+2):
//   cot_j = (a_k + a_l − a_j)/(4A),  λ* = λ/(4A),  μ* = μ/(8A),
//   dpl = p_j − p_k,  dpk = p_j − p_l,
//   M = λ*·dpl·dpkᵀ + μ*·dpk·dplᵀ − cot_j·(λ + μ)/2·I,
// M itself when the edge runs from vertex l to vertex k, Mᵀ's off-diagonal part otherwise (the
// diagonal term is the same), with SOFA's λ = E·ν/(1 − ν²) and μ = E·(1 − ν)/(1 − ν²)
// (updateLameCoefficients; this μ is twice the shear modulus). 16A² = Σ_j a_j(a_k + a_l − a_j).
// In the triangle's plane this is the linear constant-strain triangle under plane stress
// (λ = E·ν/(1 − ν²), G = E/(2(1 + ν)) = μ/2), for any ν (tested); across the plane the diagonal
// terms stiffen the normal displacements too (the model is linear: not invariant under rotation).
// Source: Sofa/Component/SolidMechanics/TensorMass/src/sofa/component/solidmechanics/tensormass/
//         TriangularTensorMassForceField.inl (applyTriangleCreation, addForce, addDForce,
//         updateLameCoefficients).
// Deviations: SOFA's field has no assembled stiffness (addDForce only: matrix-free CG sees it, a
// direct solver does not) and no potential energy (it warns); Fluxion assembles K for every
// solver, and its energy is 0, as SOFA's.
#pragma once

#include <array>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

class TriangularTensorMass final : public ForceField {
 public:
  struct Edge {
    Index v0 = 0, v1 = 0;  ///< system DOF of each end's x axis
    std::array<double, 3> rest0{}, rest1{};
    std::array<double, 9> d{};  ///< D_e, row-major
  };

  explicit TriangularTensorMass(std::vector<Edge> edges);

  /// SOFA's Lamé coefficients λ = E·ν/(1 − ν²), μ = E·(1 − ν)/(1 − ν²).
  static void LameCoefficients(double young, double poisson, double& lambda, double& mu);
  /// Adds the rest triangle `p` (SOFA's order) to the blocks of its edges: `edge[j]` is the
  /// block of the edge opposite vertex j, `edge_starts_at_l[j]` whether that edge runs from
  /// vertex j + 2 to vertex j + 1. False (nothing added) for a flat triangle.
  static bool AddTriangle(const std::array<std::array<double, 3>, 3>& p, double lambda, double mu,
                          const std::array<std::array<double, 9>*, 3>& edge,
                          const std::array<bool, 3>& edge_starts_at_l);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

 private:
  std::vector<Edge> edges_;
};

}  // namespace fluxion::internal
