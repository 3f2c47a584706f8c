// A pre-tensioned square membrane under uniform pressure against the membrane equation's closed
// form (issue #29: "a membrane under uniform pressure against its closed form").
//
// The membrane: each of SOFA's corotational membranes (TriangularFEMForceFieldOptim,
// TriangularFEMForceField, TriangleFEMForceField, method large) on the square [−a/2, a/2]² (a = 1)
// of a RegularGridTopology, its boundary held, its rest shape the mesh scaled by 1/λ about the
// centre (MechanicalObject restScale), so that at the mesh's positions every triangle is stretched
// by λ in every direction: a uniform equibiaxial plane stress σ = E·ε₀/(1 − ν), ε₀ = λ − 1 (the
// corotational linear element's strain is exactly λ − 1). Then TrianglePressureForceField presses
// every triangle along z with p per unit rest area.
//
// The closed form (small deflection; the membrane equation, Prandtl's analogy in Timoshenko &
// Goodier's "Theory of Elasticity", solved on the square by its double Fourier sine series):
// T·∇²w = −q on the square, w = 0 on its edge, with T the tension per unit current length and q the
// load per unit current area. Here T = σ·t/λ (the element's force σ·t per unit *rest* length) and q
// = p/λ², so ∇²w = −p/(λ·σ·t), and the centre deflection is
//     w₀ = C·p·a²/(λ·σ·t),  C = (16/π⁴)·Σ_{m,n odd} (−1)^((m+n)/2−1) / (m·n·(m² + n²)) ≈ 0.0736714.
// TriangularFEMForceField and TriangleFEMForceField take their strain–displacement gradients from
// the *current* triangle (SOFA's computeStrainDisplacement of the deformed points, see
// mechanics/triangle_fem.h): under the stretch λ the gradients are 1/λ of the rest ones, in the
// strain and again in the force, so their tension is σ·t/λ³ and their centre deflection
// C·p·a²·λ/(σ·t), λ² = 1.0201 times Optim's. Each is checked against its own closed form.
//
// The out-of-plane stiffness of a flat membrane is only geometric (the tension turned with the
// triangles); SOFA's tangent for this element is the rotated in-plane stiffness, without it, so
// the equilibrium is reached by dynamic relaxation: implicit Euler with mass-proportional damping
// critical for the first mode (α = 2ω₁, ω₁ = π·√2·√(T/ρ_A)/a), run until the state is at rest.
//
// Discretisation: on the grid's right triangles, linear elements give the Laplacian the 5-point
// stencil and the lumped load p·A/3 gives each interior point p·h²: the centre's error is the
// 5-point scheme's, −1.21 % at h = a/8 and −0.31 % at h = a/16 (computed independently by SOR on
// the 5-point equations), second order. The deflection is kept at w₀/a = 2·10⁻⁴ so that the
// stretching it adds (slope²/2 ≈ 3·10⁻⁷) is negligible beside ε₀ = 10⁻².
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class TriangleMembranePressure : public testing::QuietTest {};

constexpr double kYoung = 1000.0, kPoisson = 0.3, kStretch = 1.01, kSide = 1.0;
constexpr double kMassPerArea = 1.0;

// C of the centre deflection: the double series summed to m, n < 2001 (terms fall as 1/(m·n³)
// and alternate: the remainder is below 1e-9).
double CentreCoefficient() {
  const double pi = std::acos(-1.0);
  double sum = 0.0;
  for (int m = 1; m < 2001; m += 2)
    for (int n = 1; n < 2001; n += 2) {
      const double sign = ((m + n) / 2 - 1) % 2 == 0 ? 1.0 : -1.0;
      sum += sign / (static_cast<double>(m) * n * (static_cast<double>(m) * m + n * n));
    }
  return 16.0 / (pi * pi * pi * pi) * sum;
}

struct Relaxed {
  double centre_deflection;
  double centre_speed;
};

// The membrane of `cells` × `cells` squares (two triangles each) relaxed under pressure p.
Relaxed RelaxMembrane(const std::string& force_field, int cells, double pressure) {
  const int m = cells + 1;
  std::string boundary;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i)
      if (i == 0 || j == 0 || i == cells || j == cells) boundary += std::to_string(i + m * j) + " ";
  const double sigma = kYoung * (kStretch - 1.0) / (1.0 - kPoisson);
  const double tension = sigma / kStretch;  // t = 1
  const double omega1 =
      std::acos(-1.0) * std::sqrt(2.0) * std::sqrt(tension / kMassPerArea) / kSide;
  const int triangles = 2 * cells * cells;
  char number[64];
  std::snprintf(number, sizeof number, "%.17g", 2.0 * omega1);
  const std::string damping = number;
  std::snprintf(number, sizeof number, "%.17g", 1.0 / kStretch);
  const std::string rest_scale = number;
  std::snprintf(number, sizeof number, "%.17g", pressure);
  const std::string p = number;
  const std::string scene = R"(<Node name="root" dt="0.005" gravity="0 0 0">
  <EulerImplicitSolver rayleighMass=")" +
                            damping + R"(" rayleighStiffness="0"/>
  <SparseLDLSolver/>
  <RegularGridTopology n=")" +
                            std::to_string(m) + " " + std::to_string(m) +
                            R"( 1" min="-0.5 -0.5 0" max="0.5 0.5 0"/>
  <MechanicalObject name="membrane" restScale=")" +
                            rest_scale + R"("/>
  <UniformMass totalMass=")" +
                            std::to_string(kMassPerArea * kSide * kSide) + R"("/>
  )" + force_field + R"(
  <FixedProjectiveConstraint indices=")" +
                            boundary + R"("/>
  <TrianglePressureForceField pressure="0 0 )" +
                            p + R"(" triangleList="0-)" + std::to_string(triangles - 1) + R"("/>
</Node>)";
  Simulation simulation = LoadScene(scene);
  simulation.Run(600);  // 3 s: every mode decays as e^(−ω₁·t) at least, below 1e-20
  const int centre = cells / 2 + m * (cells / 2);
  const auto x = simulation.position(0);
  const auto v = simulation.velocity(0);
  return {x[3 * centre + 2], std::abs(v[3 * centre + 2])};
}

TEST_F(TriangleMembranePressure, CentreDeflectionConvergesToTheMembraneEquationAtSecondOrder) {
  const double sigma = kYoung * (kStretch - 1.0) / (1.0 - kPoisson);
  const double coefficient = CentreCoefficient();
  EXPECT_NEAR(coefficient, 0.0736714, 1e-7);  // the tabulated value
  // p such that w₀ = 2e-4·a for Optim.
  const double pressure = 2e-4 * kStretch * sigma / (coefficient * kSide * kSide);
  // SOFA's three corotational membranes ("large"), thickness 1; the tension's power of λ.
  struct Case {
    std::string field;
    int tension_power;  // T = σ·t/λ^power
  };
  for (const Case& c : {Case{"TriangularFEMForceFieldOptim", 1}, Case{"TriangularFEMForceField", 3},
                        Case{"TriangleFEMForceField", 3}}) {
    const std::string& field = c.field;
    const std::string force_field = "<" + field + R"( youngModulus="1000" poissonRatio="0.3"/>)";
    const double closed_form =
        coefficient * pressure * kSide * kSide * std::pow(kStretch, c.tension_power - 2) / sigma;
    const Relaxed coarse = RelaxMembrane(force_field, 8, pressure);
    const Relaxed fine = RelaxMembrane(force_field, 16, pressure);
    const double coarse_error = coarse.centre_deflection / closed_form - 1.0;
    const double fine_error = fine.centre_deflection / closed_form - 1.0;
    std::printf(
        "[ info ] %s: centre deflection %.6e (h = a/8), %.6e (h = a/16), closed form "
        "%.6e: errors %.4f %%, %.4f %% (5-point scheme: -1.2063 %%, -0.3062 %%)\n",
        field.c_str(), coarse.centre_deflection, fine.centre_deflection, closed_form,
        100 * coarse_error, 100 * fine_error);
    EXPECT_LT(coarse.centre_speed, 1e-12 * closed_form) << field;
    EXPECT_LT(fine.centre_speed, 1e-12 * closed_form) << field;
    // The 5-point scheme's errors, to 1e-4 (the nonlinear remainder is far below).
    EXPECT_NEAR(coarse_error, -0.012063, 1e-4) << field;
    EXPECT_NEAR(fine_error, -0.003062, 1e-4) << field;
    // Second order: halving h divides the error by 4 (3.94 for the 5-point scheme here).
    EXPECT_NEAR(coarse_error / fine_error, 3.94, 0.1) << field;
  }
}

}  // namespace
}  // namespace fluxion
