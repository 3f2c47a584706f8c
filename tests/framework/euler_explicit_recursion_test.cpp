// EulerExplicitSolver against hand-written recursions of seed 004 §2.1 (and SOFA's test suite,
// sofa-notes §2.1): the fixed point + mass + spring scene, y compared before every step.
#include <cmath>

#include "support/test_support.h"

namespace fluxion {
namespace {

std::string SpringScene(double k, double m, double h, const char* solver_attributes) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + std::to_string(h) + R"(">
  <EulerExplicitSolver )" + solver_attributes + R"(/>
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" template="Vec3d" position="0 2 0" velocity="0 0 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" template="Vec3d" position="0 1 0" velocity="0 0 0"/>
    <UniformMass totalMass=")" + std::to_string(m) + R"("/>
  </Node>
  <SpringForceField spring="0 0 )" + std::to_string(k) + R"( 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>)";
}

// Relative tolerance: our force is −k·(d − L0)·û summed in another order than the recursion's
// −k·(y − z0) − m·g, so the two agree to a few ulps per step; 1e-12 relative leaves margin for
// the ~2/h steps of accumulation (SOFA itself asserts ~5e-16 absolute).
constexpr double kRelativeTolerance = 1e-12;

struct Case {
  double k, m, h;
};

class EulerExplicitSofaCases : public fluxion::testing::QuietTest,
                              public ::testing::WithParamInterface<Case> {};

TEST_P(EulerExplicitSofaCases, MatchesSymplecticRecursion) {
  const auto [k, m, h] = GetParam();
  internal::Simulation simulation = fluxion::testing::LoadScene(SpringScene(k, m, h, ""));
  const double g = 10.0, z0 = 1.0;
  double y = z0, v = 0.0;
  while (simulation.time() < 2.0) {
    const double simulated = simulation.position(1)[1];
    ASSERT_NEAR(simulated, y, kRelativeTolerance * std::max(1.0, std::abs(y))) << "t = " << simulation.time();
    simulation.Step();
    v = v + h * (-k * (y - z0) - m * g) / m;  // seed 004: v_{k+1} = v_k + h a_k
    y = y + h * v;                           // SOFA's symplectic default: x with the new v
  }
}

INSTANTIATE_TEST_SUITE_P(SofaTestMatrix, EulerExplicitSofaCases,
                         ::testing::Values(Case{100, 10, 0.001}, Case{1000, 10, 0.01}, Case{1000, 100, 0.1}));


}  // namespace
}  // namespace fluxion
