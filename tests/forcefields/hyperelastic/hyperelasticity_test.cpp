// The numerical core of TetrahedronHyperelasticityFEMForceField (components/
// tetrahedron_hyperelasticity_fem_force_field.cpp, components/hyperelastic_material.cpp), for
// each of its materials: forces against central differences of the energy, K against central
// differences of the forces, rigid motions of the rest shape (no force, no energy), and
// homogeneous stretches of one tetrahedron and of a cube of six tetrahedra against each
// material's closed-form second Piola–Kirchhoff stress, written here from the formulas of SOFA's
// material headers (material/*.h, deriveSPKTensor) and the textbook (St Venant–Kirchhoff:
// S = λ·tr E·I + 2μE; Bonet & Wood's compressible Neo-Hookean: S = μ(I − C⁻¹) + λ·ln J·C⁻¹),
// evaluated per principal axis without the code under test.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "components/hyperelastic_material.h"
#include "components/tetrahedron_hyperelasticity_fem_force_field.h"
#include "forcefields/field_probes.h"

namespace fluxion::internal {
namespace {

using field_probes::At;
using field_probes::Force;
using field_probes::Stiffness;

// E = 1e4 Pa, ν = 0.45: μ = E/(2(1 + ν)) and λ = Eν/((1 + ν)(1 − 2ν)), the ParameterSet of
// SOFA's BDFOdeSolver.scn ("3448.2759 31034.483").
constexpr double kYoung = 1e4, kPoisson = 0.45;
const double kMu = kYoung / (2 * (1 + kPoisson));
const double kLambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));

struct MaterialCase {
  const char* name;
  std::vector<double> parameters;
};

// Every material with the parameters of SOFA's examples (TetrahedronHyperelasticityFEMForceField
// .scn: MooneyRivlin "5000 7000 10"; the others E = 1e4, ν = 0.45).
std::vector<MaterialCase> Materials() {
  return {{"StVenantKirchhoff", {kMu, kLambda}},
          {"NeoHookean", {kMu, kLambda}},
          {"StableNeoHookean", {kMu, kLambda}},
          {"MooneyRivlin", {5000, 7000, 10}},
          {"ArrudaBoyce", {kMu, kLambda}}};
}

// The unit right tetrahedron: V = 1/6, g₁ = e₁, g₂ = e₂, g₃ = e₃, g₀ = −(1, 1, 1).
const std::vector<std::array<Index, 4>> kOneTet = {{0, 1, 2, 3}};
Vector OneTetRest() {
  Vector x(12);
  x << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  return x;
}

// The unit cube, corner n = x + 2y + 4z, cut into the six tetrahedra around its diagonal 0–7
// (0, e_p, e_p + e_q, 7) for each order p, q of the axes: half of them negatively oriented,
// which the field must treat as the same elements.
Vector CubeRest() {
  Vector x(24);
  for (int n = 0; n < 8; ++n) x.segment<3>(3 * n) = Eigen::Vector3d(n & 1, (n >> 1) & 1, n >> 2);
  return x;
}
std::vector<std::array<Index, 4>> CubeTets() {
  std::vector<std::array<Index, 4>> tets;
  const int axis_bit[3] = {1, 2, 4};
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q) {
      if (q == p) continue;
      tets.push_back({0, axis_bit[p], axis_bit[p] + axis_bit[q], 7});
    }
  return tets;
}

std::unique_ptr<TetrahedronHyperelasticity> Field(const MaterialCase& material,
                                                  const std::vector<std::array<Index, 4>>& tets,
                                                  const Vector& rest) {
  std::vector<TetrahedronHyperelasticity::Element> elements;
  EXPECT_EQ(TetrahedronHyperelasticity::RestElements(tets, rest, 0, elements), -1);
  return std::make_unique<TetrahedronHyperelasticity>(
      std::move(elements), MakeMaterial(material.name, material.parameters));
}

// Central differences with step h = 1e-6 on O(1) coordinates: truncation h²·|∂³| ≲ 1e-12·1e6
// (third derivatives of the energy ≲ 1e6 for moduli ≲ 3e4 and strains ≲ 0.3) and round-off
// ε·|W or f|/h ≲ 1e-16·1e4/1e-6 = 1e-6 for energies and forces ≲ 1e4; the tolerances are a
// few times that, five orders below the forces (O(1e2–1e3)) and stiffnesses (O(1e4)) compared.
constexpr double kStep = 1e-6;
constexpr double kDifferenceTolerance = 1e-5;
// The same for K from forces: round-off ε·|f|/h ≲ 1e-16·1e4/1e-6 and truncation h²·|∂³f| ≲
// 1e-12·1e6, against entries of K of O(1e4).
constexpr double kStiffnessTolerance = 1e-4;

Vector FiniteDifferenceForce(const ForceField& field, const Vector& x) {
  Vector f(x.size());
  for (Index j = 0; j < x.size(); ++j) {
    Vector plus = x, minus = x;
    plus[j] += kStep;
    minus[j] -= kStep;
    f[j] = -(field.PotentialEnergy(At(plus)) - field.PotentialEnergy(At(minus))) / (2 * kStep);
  }
  return f;
}

Eigen::MatrixXd FiniteDifferenceStiffness(const ForceField& field, const Vector& x) {
  Eigen::MatrixXd K(x.size(), x.size());
  for (Index j = 0; j < x.size(); ++j) {
    Vector plus = x, minus = x;
    plus[j] += kStep;
    minus[j] -= kStep;
    K.col(j) = -(Force(field, At(plus)) - Force(field, At(minus))) / (2 * kStep);
  }
  return K;
}

// The cube moved by a seeded random displacement of up to ±0.15 per coordinate (strains up to
// ~0.3, all elements keep J > 0), and compressed to 0.9 along z so that every term is loaded.
Vector DeformedCube(unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-0.15, 0.15);
  Vector x = CubeRest();
  for (Index k = 0; k < x.size(); ++k) x[k] += uniform(random);
  for (int n = 0; n < 8; ++n) x[3 * n + 2] *= 0.9;
  return x;
}

TEST(TetrahedronHyperelasticity, ForcesAreMinusTheEnergyGradient) {
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, CubeTets(), CubeRest());
    for (unsigned seed : {1u, 2u, 3u}) {
      const Vector x = DeformedCube(seed);
      const Vector f = Force(*field, At(x));
      ASSERT_GT(f.cwiseAbs().maxCoeff(), 10.0) << material.name;  // a real load
      EXPECT_LT((f - FiniteDifferenceForce(*field, x)).cwiseAbs().maxCoeff(), kDifferenceTolerance)
          << material.name << " seed " << seed;
      EXPECT_LT(std::abs(f.reshaped(3, 8).rowwise().sum().norm()), 1e-10 * f.norm())
          << material.name;  // internal forces: no net force
    }
  }
}

TEST(TetrahedronHyperelasticity, StiffnessIsMinusTheForceJacobian) {
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, CubeTets(), CubeRest());
    for (unsigned seed : {4u, 5u}) {
      const Vector x = DeformedCube(seed);
      const Eigen::MatrixXd K = Stiffness(*field, At(x));
      const Eigen::MatrixXd K_fd = FiniteDifferenceStiffness(*field, x);
      ASSERT_GT(K.cwiseAbs().maxCoeff(), 1000.0) << material.name;
      EXPECT_LT((K - K_fd).cwiseAbs().maxCoeff(), kStiffnessTolerance)
          << material.name << " seed " << seed;
      // The Hessian of an energy: symmetric to round-off.
      EXPECT_LT((K - K.transpose()).cwiseAbs().maxCoeff(), 1e-10 * K.cwiseAbs().maxCoeff())
          << material.name;
    }
  }
}

TEST(TetrahedronHyperelasticity, InvertedElementsOfStVenantKirchhoffAndStableNeoHookean) {
  // The deformed cube mirrored through z = 0 (every element inverted, J < 0, as in SOFA's
  // TetrahedronHyperelasticityFEMForceField_invertedTets.scn): the two materials defined there
  // still have forces = −∇W and K = −∂f/∂x; the others take ln J or J^(−2/3) (NaN, as SOFA's).
  for (const MaterialCase& material : {Materials()[0], Materials()[2]}) {
    const auto field = Field(material, CubeTets(), CubeRest());
    Vector x = DeformedCube(6);
    for (int n = 0; n < 8; ++n) x[3 * n + 2] = -x[3 * n + 2];
    const Vector f = Force(*field, At(x));
    ASSERT_GT(f.cwiseAbs().maxCoeff(), 10.0) << material.name;
    EXPECT_LT((f - FiniteDifferenceForce(*field, x)).cwiseAbs().maxCoeff(), kDifferenceTolerance)
        << material.name;
    EXPECT_LT(
        (Stiffness(*field, At(x)) - FiniteDifferenceStiffness(*field, x)).cwiseAbs().maxCoeff(),
        kStiffnessTolerance)
        << material.name;
  }
}

TEST(TetrahedronHyperelasticity, StiffnessAtRestIsPositiveSemidefiniteWithSixRigidModes) {
  // At rest K is the linear-elastic stiffness: its null space is the six rigid motions.
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, CubeTets(), CubeRest());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Stiffness(*field, At(CubeRest())));
    const Eigen::VectorXd lambda = eigen.eigenvalues();
    const double largest = lambda.maxCoeff();
    for (int k = 0; k < 6; ++k) EXPECT_LT(std::abs(lambda[k]), 1e-10 * largest) << material.name;
    // The softest deformation mode: MooneyRivlin's bulk term k₀ = 10 is 1e-3 of its shear
    // moduli (c₁, c₂ = 5000, 7000), the others' are all O(1e3–1e4).
    EXPECT_GT(lambda[6], 1e-5 * largest) << material.name;
  }
}

TEST(TetrahedronHyperelasticity, RigidMotionsOfTheRestShapeAreFree) {
  // A translation and a finite rotation (0.7 rad about (1, 2, 3)/√14) of the rest cube: C = I to
  // round-off, so no force and no energy beyond μ·ε-sized residues.
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Vector3d shift(0.3, -1.2, 2.5);
  const Vector rest = CubeRest();
  Vector moved(rest.size());
  for (int n = 0; n < 8; ++n) moved.segment<3>(3 * n) = R * rest.segment<3>(3 * n) + shift;
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, CubeTets(), rest);
    for (const Vector& x : {Vector(rest), moved}) {
      // Round-off: C − I ≈ 1e-15, times moduli ≲ 3e4 → forces ≲ 1e-10.
      EXPECT_LT(Force(*field, At(x)).cwiseAbs().maxCoeff(), 1e-9) << material.name;
      EXPECT_LT(std::abs(field->PotentialEnergy(At(x))), 1e-9) << material.name;
    }
  }
}

// --- Closed forms ------------------------------------------------------------------------------

// Principal values of S under F = diag(s) (C = diag(s²)), from each material's formula.
Eigen::Vector3d ClosedFormStress(const MaterialCase& material, const Eigen::Vector3d& s) {
  const Eigen::Vector3d C = s.cwiseProduct(s);
  const double J = s.prod(), log_J = std::log(J);
  const double I1 = C.sum(), I2 = C[0] * C[1] + C[1] * C[2] + C[2] * C[0];
  const std::vector<double>& p = material.parameters;
  const std::string name = material.name;
  Eigen::Vector3d S;
  for (int i = 0; i < 3; ++i) {
    if (name == "StVenantKirchhoff") {  // S = λ·tr E·I + 2μE
      const Eigen::Vector3d E = 0.5 * (C - Eigen::Vector3d::Ones());
      S[i] = p[1] * E.sum() + 2 * p[0] * E[i];
    } else if (name == "NeoHookean") {  // S = μ(I − C⁻¹) + λ·ln J·C⁻¹
      S[i] = p[0] * (1 - 1 / C[i]) + p[1] * log_J / C[i];
    } else if (name == "StableNeoHookean") {  // S = μI + (λ + μ)·J·(J − α)·C⁻¹
      const double alpha = 1 + p[0] / (p[1] + p[0]);
      S[i] = p[0] + (p[1] + p[0]) * J * (J - alpha) / C[i];
    } else if (name == "MooneyRivlin") {
      S[i] = 2 * p[0] * std::pow(J, -2.0 / 3) * (1 - I1 / (3 * C[i])) +
             2 * p[1] * std::pow(J, -4.0 / 3) * (I1 - C[i] - 2 * I2 / (3 * C[i])) +
             p[2] * log_J / C[i];
    } else {  // ArrudaBoyce, SOFA's five terms
      const double a = 1 / C[i];
      S[i] = 2 * p[0] *
                 (0.5 * std::pow(J, -2.0 / 3) * (1 - I1 * a / 3) +
                  std::pow(J, -4.0 / 3) * (2 * I1 - 2.0 / 3 * I1 * I1 * a) / 160 +
                  std::pow(J, -2.0) * (3 * I1 * I1 - I1 * I1 * I1 * a) * 11 / (1050.0 * 64) +
                  std::pow(J, -8.0 / 3) * (4 * std::pow(I1, 3) - 4.0 / 3 * std::pow(I1, 4) * a) *
                      19 / (7000.0 * 512) +
                  std::pow(J, -10.0 / 3) * (5 * std::pow(I1, 4) - 5.0 / 3 * std::pow(I1, 5) * a) *
                      519 / (673750.0 * 4096)) +
             p[1] * log_J * a;
    }
  }
  return S;
}

// ψ under F = diag(s), from each material's energy (MooneyRivlin's as derived from SOFA's S).
double ClosedFormEnergy(const MaterialCase& material, const Eigen::Vector3d& s) {
  const Eigen::Vector3d C = s.cwiseProduct(s);
  const double J = s.prod(), log_J = std::log(J);
  const double I1 = C.sum(), I2 = C[0] * C[1] + C[1] * C[2] + C[2] * C[0];
  const std::vector<double>& p = material.parameters;
  const std::string name = material.name;
  if (name == "StVenantKirchhoff") {
    const Eigen::Vector3d E = 0.5 * (C - Eigen::Vector3d::Ones());
    return 0.5 * p[1] * E.sum() * E.sum() + p[0] * E.squaredNorm();
  }
  if (name == "NeoHookean")
    return 0.5 * p[0] * (I1 - 3) - p[0] * log_J + 0.5 * p[1] * log_J * log_J;
  if (name == "StableNeoHookean") {
    const double alpha = 1 + p[0] / (p[1] + p[0]);
    // Less its value at rest (Fluxion's choice, see hyperelastic_material.cpp).
    return 0.5 * (p[0] * (I1 - 3) + (p[1] + p[0]) * (J - alpha) * (J - alpha) -
                  p[0] * p[0] / (p[1] + p[0]));
  }
  if (name == "MooneyRivlin")
    return p[0] * (std::pow(J, -2.0 / 3) * I1 - 3) + p[1] * (std::pow(J, -4.0 / 3) * I2 - 3) +
           0.5 * p[2] * log_J * log_J;
  const double bar = std::pow(J, -2.0 / 3) * I1;
  const double c[5] = {0.5, 1.0 / 20, 11.0 / 1050, 19.0 / 7000, 519.0 / 673750};
  double sum = 0;
  for (int i = 1; i <= 5; ++i)
    sum += c[i - 1] / std::pow(8.0, i - 1) * (std::pow(bar, i) - std::pow(3.0, i));
  return p[0] * sum + 0.5 * p[1] * log_J * log_J;
}

// Stretches tried: uniaxial tension, uniaxial compression, biaxial, triaxial.
const Eigen::Vector3d kStretches[] = {{1.2, 1, 1}, {0.85, 1, 1}, {1.1, 1.25, 1}, {1.15, 0.9, 1.05}};

TEST(TetrahedronHyperelasticity, OneTetrahedronUnderHomogeneousStretchCarriesTheClosedFormStress) {
  // x = diag(s)·X on the unit right tetrahedron: P = F·S = diag(s_i·S_i) and, with V = 1/6 and
  // g_i = e_i, f_i = −P·e_i/6 for i = 1, 2, 3 and f₀ = P·(1, 1, 1)/6; W = ψ/6.
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, kOneTet, OneTetRest());
    for (const Eigen::Vector3d& s : kStretches) {
      Vector x = OneTetRest();
      for (int n = 0; n < 4; ++n) x.segment<3>(3 * n) = s.cwiseProduct(x.segment<3>(3 * n));
      const Eigen::Vector3d P = s.cwiseProduct(ClosedFormStress(material, s));
      const Vector f = Force(*field, At(x));
      const double scale = P.cwiseAbs().maxCoeff();
      ASSERT_GT(scale, 1.0) << material.name;
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c) {
          // Round-off of a handful of operations on O(1e4) stresses.
          EXPECT_NEAR(f[3 * (i + 1) + c], c == i ? -P[i] / 6 : 0.0, 1e-11 * scale)
              << material.name << " s=" << s.transpose() << " vertex " << i + 1 << " axis " << c;
          EXPECT_NEAR(f[c], P[c] / 6, 1e-11 * scale) << material.name;
        }
      EXPECT_NEAR(field->PotentialEnergy(At(x)), ClosedFormEnergy(material, s) / 6, 1e-11 * scale)
          << material.name << " s=" << s.transpose();
    }
  }
}

TEST(TetrahedronHyperelasticity, CubeUnderHomogeneousStretchCarriesTheClosedFormTraction) {
  // The cube of six tetrahedra under x = diag(s)·X: the internal forces on the corners of the
  // face X_i = 1 add up to −P·e_i·A (A = 1: the face's traction; Σ over those corners of the
  // barycentric coordinates is X_i, whose gradient is e_i), W = ψ·1.
  for (const MaterialCase& material : Materials()) {
    const auto field = Field(material, CubeTets(), CubeRest());
    for (const Eigen::Vector3d& s : kStretches) {
      Vector x = CubeRest();
      for (int n = 0; n < 8; ++n) x.segment<3>(3 * n) = s.cwiseProduct(x.segment<3>(3 * n));
      const Eigen::Vector3d P = s.cwiseProduct(ClosedFormStress(material, s));
      const double scale = P.cwiseAbs().maxCoeff();
      const Vector f = Force(*field, At(x));
      for (int i = 0; i < 3; ++i) {
        Eigen::Vector3d face = Eigen::Vector3d::Zero();
        for (int n = 0; n < 8; ++n)
          if ((n >> i) & 1) face += f.segment<3>(3 * n);
        for (int c = 0; c < 3; ++c)
          EXPECT_NEAR(face[c], c == i ? -P[i] : 0.0, 1e-11 * scale)
              << material.name << " s=" << s.transpose() << " face " << i << " axis " << c;
      }
      EXPECT_NEAR(field->PotentialEnergy(At(x)), ClosedFormEnergy(material, s), 1e-11 * scale)
          << material.name;
    }
  }
}

TEST(TetrahedronHyperelasticity, SmallStrainStiffnessIsLinearElasticity) {
  // A uniaxial strain ε ≪ 1 of St Venant–Kirchhoff, Neo-Hookean and Stable Neo-Hookean (whose
  // α = 1 + μ/(λ + μ) makes its small-strain constants (μ, λ) too): P₁₁ ≈ (λ + 2μ)·ε and
  // P₂₂ ≈ λ·ε, the linear-elastic law with the Lamé constants of ParameterSet; the error is
  // O(ε²·modulus), 1e-6 relative at ε = 1e-6.
  const double epsilon = 1e-6;
  for (const char* name : {"StVenantKirchhoff", "NeoHookean", "StableNeoHookean"}) {
    const MaterialCase material{name, {kMu, kLambda}};
    const auto field = Field(material, kOneTet, OneTetRest());
    Vector x = OneTetRest();
    x[3] += epsilon;  // vertex 1 along x: F = diag(1 + ε, 1, 1)
    const Vector f = Force(*field, At(x));
    EXPECT_NEAR(-6 * f[3] / epsilon, kLambda + 2 * kMu, 1e-5 * (kLambda + 2 * kMu)) << name;
    EXPECT_NEAR(-6 * f[7] / epsilon, kLambda, 1e-5 * (kLambda + 2 * kMu)) << name;
  }
}

TEST(TetrahedronHyperelasticity, OrientationOfATetrahedronDoesNotMatter) {
  // (0 1 2 3) and (0 2 1 3) are the same element with opposite signed volumes (SOFA's
  // |volume| weight and signed shape vectors).
  const MaterialCase material = Materials()[1];
  const auto positive = Field(material, kOneTet, OneTetRest());
  const auto negative = Field(material, {{0, 2, 1, 3}}, OneTetRest());
  Vector x = OneTetRest();
  x << 0.05, -0.02, 0.01, 1.1, 0.1, -0.05, 0.02, 0.95, 0.1, -0.1, 0.05, 1.2;
  EXPECT_LT((Force(*positive, At(x)) - Force(*negative, At(x))).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_NEAR(positive->PotentialEnergy(At(x)), negative->PotentialEnergy(At(x)), 1e-9);
}

TEST(TetrahedronHyperelasticity, ZeroRestVolumeIsFound) {
  Vector flat = OneTetRest();
  flat[11] = 0;  // vertex 3 into the plane z = 0
  std::vector<TetrahedronHyperelasticity::Element> elements;
  EXPECT_EQ(TetrahedronHyperelasticity::RestElements({{0, 1, 2, 3}, {0, 1, 2, 3}}, OneTetRest(), 0,
                                                     elements),
            -1);
  EXPECT_EQ(TetrahedronHyperelasticity::RestElements({{0, 1, 2, 3}}, flat, 0, elements), 0);
}

}  // namespace
}  // namespace fluxion::internal
