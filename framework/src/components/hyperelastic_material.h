// Isotropic hyperelastic materials of SOFA's TetrahedronHyperelasticityFEMForceField, written as
// strain-energy densities ψ(I₁, I₂, J) of the invariants of the right Cauchy–Green tensor C = FᵀF.
// Source: Sofa/Component/SolidMechanics/FEM/HyperElastic/src/sofa/component/solidmechanics/fem/
//         hyperelastic/material/{HyperelasticMaterial,STVenantKirchhoff,NeoHookean,MooneyRivlin,
//         BoyceAndArruda,StableNeoHookean}.h (getStrainEnergy, deriveSPKTensor,
//         applyElasticityTensor).
//
// SOFA codes each material's second Piola–Kirchhoff stress S = 2·∂ψ/∂C and its derivative
// ∂S/∂C : H by hand. Here a material gives only ψ and its first and second partial derivatives
// in (I₁, I₂, J), with
//   I₁ = tr C,  I₂ = ½·(I₁² − tr C²),  J = det F,
// and one routine (StressFromInvariants, DStressFromInvariants) turns them into S and ∂S[H] by the
// chain rule (Holzapfel, Nonlinear Solid Mechanics, §6.2):
//   ∂I₁/∂C = I,  ∂I₂/∂C = I₁·I − C,  ∂J/∂C = ½·J·C⁻¹,
//   S = 2·ψ₁·I + 2·ψ₂·(I₁·I − C) + ψ_J·J·C⁻¹,
//   dS = 2·(dψ₁·I + dψ₂·(I₁·I − C) + ψ₂·(tr H·I − H)) + dψ_J·J·C⁻¹ + ψ_J·(dJ·C⁻¹ − J·C⁻¹·H·C⁻¹)
// for dC = H, with dI₁ = tr H, dI₂ = I₁·tr H − C:H, dJ = ½·J·C⁻¹:H and dψ_k = Σ_m ψ_km·dI_m.
// The stresses are SOFA's (each material's S is checked against SOFA's formula in the tests);
// the tangent is the exact derivative of that S (checked against finite differences). For
// StVenantKirchhoff, NeoHookean and StableNeoHookean that is SOFA's applyElasticityTensor term by
// term; SOFA's long hand-written tensors of MooneyRivlin and ArrudaBoyce were not compared term
// by term (the trajectories of SOFA's example scene agree to its references' 6 digits).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fluxion::internal {

/// ψ and its partial derivatives in (I₁, I₂, J) at one strain: `gradient` = (ψ₁, ψ₂, ψ_J),
/// `hessian` the symmetric matrix of second derivatives in that order.
struct InvariantDerivatives {
  Eigen::Vector3d gradient = Eigen::Vector3d::Zero();
  Eigen::Matrix3d hessian = Eigen::Matrix3d::Zero();
};

/// The strain of one element: C = FᵀF, its invariants, and C⁻¹ when the material depends on J
/// (left unset otherwise: St Venant–Kirchhoff stays defined for flat and inverted elements).
struct Strain {
  Eigen::Matrix3d C;
  Eigen::Matrix3d C_inverse;
  double I1 = 3.0;
  double I2 = 3.0;
  double J = 1.0;
};

/// An isotropic hyperelastic material: a strain-energy density ψ [J/m³ = Pa] of the invariants.
/// Implementations hold their parameters and no state; all methods are const and allocate
/// nothing.
class HyperelasticMaterial {
 public:
  virtual ~HyperelasticMaterial() = default;
  /// SOFA's name of the material (`materialName`).
  virtual std::string_view name() const = 0;
  /// ψ at `strain` [Pa].
  virtual double Energy(const Strain& strain) const = 0;
  /// ψ's first and second derivatives in (I₁, I₂, J) at `strain`.
  virtual InvariantDerivatives Derivatives(const Strain& strain) const = 0;
  /// Whether ψ depends on J (then the element needs C⁻¹, and J > 0 for the logarithms).
  virtual bool uses_volume() const = 0;
};

/// How `ParameterSet` is read for one material, in SOFA's order.
struct MaterialInfo {
  std::string_view name;
  std::string_view parameters;  ///< e.g. "mu lambda" (for messages and docs)
  std::size_t count;            ///< how many numbers ParameterSet must have
};

/// The materials Fluxion has, by SOFA name, sorted.
std::span<const MaterialInfo> SupportedMaterials();
/// "ArrudaBoyce, MooneyRivlin, …" for messages.
std::string SupportedMaterialNames();
/// The material info for `name`, or null.
const MaterialInfo* FindMaterial(std::string_view name);
/// The material `name` with parameters `parameters` (already checked: `name` is supported and
/// `parameters` has its count).
std::unique_ptr<HyperelasticMaterial> MakeMaterial(std::string_view name,
                                                   std::span<const double> parameters);

/// Fills `strain` from the deformation gradient F (C⁻¹ only if `with_inverse`).
void ComputeStrain(const Eigen::Matrix3d& F, bool with_inverse, Strain& strain);
/// S = 2·∂ψ/∂C (second Piola–Kirchhoff stress) from ψ's derivatives.
Eigen::Matrix3d StressFromInvariants(const Strain& strain, const InvariantDerivatives& d);
/// dS = ∂S/∂C : H for a symmetric increment H = dC.
Eigen::Matrix3d DStressFromInvariants(const Strain& strain, const InvariantDerivatives& d,
                                      const Eigen::Matrix3d& H);

}  // namespace fluxion::internal
