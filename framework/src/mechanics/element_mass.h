// SOFA's FEMMass element matrices: the mass of a tetrahedron or a trilinear hexahedron from a
// density given at its nodes, integrated with the element's own quadrature rule.
// Source: Sofa/Component/Mass/src/sofa/component/mass/FEMMass.inl (calculateElementMassMatrix)
//         and Sofa/framework/FEM/src/sofa/fem/FiniteElement[Tetrahedron].h, [Hexahedron].h
//         (shape functions, quadrature points and weights).
//
//   M_ab = Σ_q w_q · ρ(ξ_q) · |det J(ξ_q)| · N_a(ξ_q) · N_b(ξ_q),   ρ(ξ) = Σ_c N_c(ξ)·ρ_c,
// one scalar per pair of nodes (the same on each axis: the 3×3 block is M_ab·I).
//   tetrahedron: N = (1 − ξ₁ − ξ₂ − ξ₃, ξ₁, ξ₂, ξ₃), SOFA's one point ξ = (¼, ¼, ¼) with weight ⅙,
//     det J = 6V: M_ab = V·ρ̄/16 for every pair (ρ̄ the mean nodal density). This is SOFA's rule
//     and is exact only for the total mass ρV and each row sum ρV/4; the exact integral of the
//     quadratic N_a·N_b is the consistent mass ρV/20·(1 + δ_ab). Kept as SOFA computes it (its
//     scenes and references depend on it); the one-point element matrix has rank one, so a
//     FEMMass on tetrahedra relies on the mesh to make the global matrix regular.
//   hexahedron: N_a = ⅛·Π_k(1 + s_ak·ξ_k) with SOFA's corners s_a (mechanics/hexahedron_fem.h),
//     2×2×2 Gauss points ξ = (±1/√3)³, weights 1, J evaluated at each point. For a
//     parallelepiped with a uniform density this is exact (N_a·N_b is quadratic per axis, which
//     two-point Gauss integrates exactly): M_ab = ρV·Π_k m(s_ak, s_bk), m = ⅓ for the same end of
//     the axis, ⅙ for opposite ones (SOFA takes 1/√3 from its constant 1.73205080757, which
//     differs from √3 by 2e-12 relative: round-off here).
#pragma once

#include <array>

#include <Eigen/Core>

namespace fluxion::internal {

/// M_ab of a tetrahedron with vertices `X` and nodal densities `rho` (SOFA's one-point rule).
Eigen::Matrix4d TetrahedronMassMatrix(const std::array<Eigen::Vector3d, 4>& X,
                                      const std::array<double, 4>& rho);

/// M_ab of a hexahedron with vertices `X` in SOFA's order and nodal densities `rho` (2×2×2
/// Gauss; |det J| as SOFA, so an inverted element still has a positive mass).
Eigen::Matrix<double, 8, 8> HexahedronMassMatrix(const std::array<Eigen::Vector3d, 8>& X,
                                                 const std::array<double, 8>& rho);

}  // namespace fluxion::internal
