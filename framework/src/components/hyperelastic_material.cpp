#include "components/hyperelastic_material.h"

#include <Eigen/LU>
#include <array>
#include <cmath>

namespace fluxion::internal {

namespace {

// St Venant–Kirchhoff, SOFA's STVenantKirchhoff.h: ParameterSet = (μ, λ), the Lamé constants;
//   ψ = ½·λ·(tr E)² + μ·tr(E²),  E = ½·(C − I),  S = λ·tr E·I + 2·μ·E.
// In invariants: tr E = ½·(I₁ − 3) and tr(E²) = ¼·(I₁² − 2·I₂ − 2·I₁ + 3).
class StVenantKirchhoff final : public HyperelasticMaterial {
 public:
  StVenantKirchhoff(double mu, double lambda) : mu_(mu), lambda_(lambda) {}
  std::string_view name() const override { return "StVenantKirchhoff"; }
  bool uses_volume() const override { return false; }
  double Energy(const Strain& s) const override {
    // From E itself, not the invariants: no cancellation near the rest state.
    const Eigen::Matrix3d E = 0.5 * (s.C - Eigen::Matrix3d::Identity());
    const double trace = E.trace();
    return 0.5 * lambda_ * trace * trace + mu_ * E.cwiseProduct(E).sum();
  }
  InvariantDerivatives Derivatives(const Strain& s) const override {
    InvariantDerivatives d;
    d.gradient = {0.25 * lambda_ * (s.I1 - 3.0) + 0.5 * mu_ * (s.I1 - 1.0), -0.5 * mu_, 0.0};
    d.hessian(0, 0) = 0.25 * lambda_ + 0.5 * mu_;
    return d;
  }

 private:
  double mu_, lambda_;
};

// Compressible Neo-Hookean as SOFA writes it (NeoHookean.h, after Bonet & Wood, Nonlinear
// continuum mechanics for finite element analysis, 2008, §6.4.3): ParameterSet = (μ, λ);
//   ψ = ½·μ·(I₁ − 3) − μ·ln J + ½·λ·(ln J)²,  S = μ·(I − C⁻¹) + λ·ln J·C⁻¹.
class NeoHookean final : public HyperelasticMaterial {
 public:
  NeoHookean(double mu, double lambda) : mu_(mu), lambda_(lambda) {}
  std::string_view name() const override { return "NeoHookean"; }
  bool uses_volume() const override { return true; }
  double Energy(const Strain& s) const override {
    const double log_J = std::log(s.J);
    return 0.5 * mu_ * (s.I1 - 3.0) - mu_ * log_J + 0.5 * lambda_ * log_J * log_J;
  }
  InvariantDerivatives Derivatives(const Strain& s) const override {
    const double log_J = std::log(s.J);
    InvariantDerivatives d;
    d.gradient = {0.5 * mu_, 0.0, (lambda_ * log_J - mu_) / s.J};
    d.hessian(2, 2) = (lambda_ + mu_ - lambda_ * log_J) / (s.J * s.J);
    return d;
  }

 private:
  double mu_, lambda_;
};

// Stable Neo-Hookean (StableNeoHookean.h, after Smith, de Goes & Kim, ACM TOG 37(2), 2018,
// without the origin barrier): ParameterSet = (μ, λ), used as given (SOFA does not convert them
// to the paper's μ' = 4μ/3, λ' = λ + 5μ/6);
//   ψ = ½·μ·(I₁ − 3) + ½·(λ + μ)·(J − α)² − ½·μ²/(λ + μ),  α = 1 + μ/(λ + μ),
//   S = μ·I + (λ + μ)·J·(J − α)·C⁻¹.
// Defined for inverted elements (J < 0). The constant −½·μ²/(λ + μ) is Fluxion's: SOFA's energy
// is ½·(λ + μ)·(1 − α)² at rest; without it a body at rest has zero energy (forces unchanged).
class StableNeoHookean final : public HyperelasticMaterial {
 public:
  StableNeoHookean(double mu, double lambda)
      : mu_(mu), lambda_(lambda), alpha_(1.0 + mu / (lambda + mu)) {}
  std::string_view name() const override { return "StableNeoHookean"; }
  bool uses_volume() const override { return true; }
  double Energy(const Strain& s) const override {
    const double excess = s.J - alpha_;
    return 0.5 *
           (mu_ * (s.I1 - 3.0) + (lambda_ + mu_) * excess * excess - mu_ * mu_ / (lambda_ + mu_));
  }
  InvariantDerivatives Derivatives(const Strain& s) const override {
    InvariantDerivatives d;
    d.gradient = {0.5 * mu_, 0.0, (lambda_ + mu_) * (s.J - alpha_)};
    d.hessian(2, 2) = lambda_ + mu_;
    return d;
  }

 private:
  double mu_, lambda_, alpha_;
};

// Mooney–Rivlin with a logarithmic volumetric term (MooneyRivlin.h): ParameterSet = (c₁, c₂, k₀);
//   ψ = c₁·(J^(−2/3)·I₁ − 3) + c₂·(J^(−4/3)·I₂ − 3) + ½·k₀·(ln J)²,
//   S = 2c₁·J^(−2/3)·(I − I₁/3·C⁻¹) + 2c₂·J^(−4/3)·(I₁·I − C − 2I₂/3·C⁻¹) + k₀·ln J·C⁻¹.
// S is SOFA's deriveSPKTensor. SOFA's getStrainEnergy disagrees with it (J^(−2/3) written with an
// integer division, so J⁰, and no −3 in the c₂ term); ψ here is the energy whose derivative is
// that S.
class MooneyRivlin final : public HyperelasticMaterial {
 public:
  MooneyRivlin(double c1, double c2, double k0) : c1_(c1), c2_(c2), k0_(k0) {}
  std::string_view name() const override { return "MooneyRivlin"; }
  bool uses_volume() const override { return true; }
  double Energy(const Strain& s) const override {
    const double log_J = std::log(s.J);
    return c1_ * (std::pow(s.J, -2.0 / 3.0) * s.I1 - 3.0) +
           c2_ * (std::pow(s.J, -4.0 / 3.0) * s.I2 - 3.0) + 0.5 * k0_ * log_J * log_J;
  }
  InvariantDerivatives Derivatives(const Strain& s) const override {
    const double J = s.J, log_J = std::log(J);
    const double j23 = std::pow(J, -2.0 / 3.0), j43 = j23 * j23;  // J^(−2/3), J^(−4/3)
    InvariantDerivatives d;
    d.gradient = {c1_ * j23, c2_ * j43,
                  (-2.0 / 3.0 * c1_ * s.I1 * j23 - 4.0 / 3.0 * c2_ * s.I2 * j43 + k0_ * log_J) / J};
    d.hessian(0, 2) = d.hessian(2, 0) = -2.0 / 3.0 * c1_ * j23 / J;
    d.hessian(1, 2) = d.hessian(2, 1) = -4.0 / 3.0 * c2_ * j43 / J;
    d.hessian(2, 2) =
        (10.0 / 9.0 * c1_ * s.I1 * j23 + 28.0 / 9.0 * c2_ * s.I2 * j43 + k0_ * (1.0 - log_J)) /
        (J * J);
    return d;
  }

 private:
  double c1_, c2_, k0_;
};

// Arruda–Boyce (BoyceAndArruda.h): ParameterSet = (μ, k₀); with Ī₁ = J^(−2/3)·I₁ and the
// five-term series of the eight-chain model at SOFA's fixed locking stretch λ_m² = 8,
//   ψ = μ·Σ_{i=1..5} β_i·(Ī₁^i − 3^i) + ½·k₀·(ln J)²,
//   β_i = c_i/8^(i−1),  c = (1/2, 1/20, 11/1050, 19/7000, 519/673750).
class ArrudaBoyce final : public HyperelasticMaterial {
 public:
  ArrudaBoyce(double mu, double k0) : mu_(mu), k0_(k0) {}
  std::string_view name() const override { return "ArrudaBoyce"; }
  bool uses_volume() const override { return true; }
  double Energy(const Strain& s) const override {
    const double bar = std::pow(s.J, -2.0 / 3.0) * s.I1, log_J = std::log(s.J);
    double sum = 0.0, power = 1.0, three = 1.0;
    for (const double beta : kBeta) {
      power *= bar;
      three *= 3.0;
      sum += beta * (power - three);
    }
    return mu_ * sum + 0.5 * k0_ * log_J * log_J;
  }
  InvariantDerivatives Derivatives(const Strain& s) const override {
    const double J = s.J, log_J = std::log(J), j23 = std::pow(J, -2.0 / 3.0), bar = j23 * s.I1;
    // g(Ī₁) = μ·Σ β_i·Ī₁^i: g′ and g″.
    double g1 = 0.0, g2 = 0.0, power = 1.0;  // power = Ī₁^(i−1)
    for (std::size_t i = 1; i <= kBeta.size(); ++i) {
      g1 += static_cast<double>(i) * kBeta[i - 1] * power;
      if (i >= 2) g2 += static_cast<double>(i * (i - 1)) * kBeta[i - 1] * power / bar;
      power *= bar;
    }
    g1 *= mu_;
    g2 *= mu_;
    // ∂Ī₁/∂I₁ = J^(−2/3), ∂Ī₁/∂J = −⅔·Ī₁/J.
    InvariantDerivatives d;
    d.gradient = {g1 * j23, 0.0, -2.0 / 3.0 * g1 * bar / J + k0_ * log_J / J};
    d.hessian(0, 0) = g2 * j23 * j23;
    d.hessian(0, 2) = d.hessian(2, 0) = -2.0 / 3.0 * (g2 * bar + g1) * j23 / J;
    d.hessian(2, 2) =
        (4.0 / 9.0 * g2 * bar * bar + 10.0 / 9.0 * g1 * bar + k0_ * (1.0 - log_J)) / (J * J);
    return d;
  }

 private:
  static constexpr std::array<double, 5> kBeta = {0.5, 0.05 / 8.0, 11.0 / (1050.0 * 64.0),
                                                  19.0 / (7000.0 * 512.0),
                                                  519.0 / (673750.0 * 4096.0)};
  double mu_, k0_;
};

constexpr std::array<MaterialInfo, 5> kMaterials = {{
    {"ArrudaBoyce", "mu k0", 2},
    {"MooneyRivlin", "c1 c2 k0", 3},
    {"NeoHookean", "mu lambda", 2},
    {"StVenantKirchhoff", "mu lambda", 2},
    {"StableNeoHookean", "mu lambda", 2},
}};

}  // namespace

std::span<const MaterialInfo> SupportedMaterials() { return kMaterials; }

std::string SupportedMaterialNames() {
  std::string names;
  for (const MaterialInfo& info : kMaterials) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

const MaterialInfo* FindMaterial(std::string_view name) {
  for (const MaterialInfo& info : kMaterials)
    if (info.name == name) return &info;
  return nullptr;
}

std::unique_ptr<HyperelasticMaterial> MakeMaterial(std::string_view name,
                                                   std::span<const double> p) {
  if (name == "StVenantKirchhoff") return std::make_unique<StVenantKirchhoff>(p[0], p[1]);
  if (name == "NeoHookean") return std::make_unique<NeoHookean>(p[0], p[1]);
  if (name == "StableNeoHookean") return std::make_unique<StableNeoHookean>(p[0], p[1]);
  if (name == "MooneyRivlin") return std::make_unique<MooneyRivlin>(p[0], p[1], p[2]);
  if (name == "ArrudaBoyce") return std::make_unique<ArrudaBoyce>(p[0], p[1]);
  return nullptr;
}

void ComputeStrain(const Eigen::Matrix3d& F, bool with_inverse, Strain& strain) {
  strain.C.noalias() = F.transpose() * F;
  strain.I1 = strain.C.trace();
  strain.I2 = 0.5 * (strain.I1 * strain.I1 - strain.C.cwiseProduct(strain.C).sum());
  strain.J = F.determinant();
  if (with_inverse) strain.C_inverse = strain.C.inverse();
}

Eigen::Matrix3d StressFromInvariants(const Strain& s, const InvariantDerivatives& d) {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d S = 2.0 * d.gradient[0] * I;
  if (d.gradient[1] != 0.0) S += 2.0 * d.gradient[1] * (s.I1 * I - s.C);
  if (d.gradient[2] != 0.0) S += d.gradient[2] * s.J * s.C_inverse;
  return S;
}

Eigen::Matrix3d DStressFromInvariants(const Strain& s, const InvariantDerivatives& d,
                                      const Eigen::Matrix3d& H) {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const double trace_H = H.trace();
  const bool volume = d.gradient[2] != 0.0 || d.hessian.col(2).squaredNorm() != 0.0;
  // The increments of the invariants.
  const Eigen::Vector3d dI(trace_H, s.I1 * trace_H - s.C.cwiseProduct(H).sum(),
                           volume ? 0.5 * s.J * s.C_inverse.cwiseProduct(H).sum() : 0.0);
  const Eigen::Vector3d dpsi = d.hessian * dI;  // increments of (ψ₁, ψ₂, ψ_J)
  Eigen::Matrix3d dS = 2.0 * dpsi[0] * I;
  if (dpsi[1] != 0.0 || d.gradient[1] != 0.0)
    dS += 2.0 * (dpsi[1] * (s.I1 * I - s.C) + d.gradient[1] * (trace_H * I - H));
  if (volume)
    dS += (dpsi[2] * s.J + d.gradient[2] * dI[2]) * s.C_inverse -
          d.gradient[2] * s.J * s.C_inverse * H * s.C_inverse;
  return dS;
}

}  // namespace fluxion::internal
