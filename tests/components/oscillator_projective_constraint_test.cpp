// SOFA's OscillatorProjectiveConstraint (components/oscillator_projective_constraint.cpp):
// x = mean + a·sin(ω·t + φ), v = a·ω·cos(ω·t + φ), at the time each step started at (SOFA's node
// time) and at the start; the point is held, so gravity never moves it, while a free point falls.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class Oscillator : public testing::QuietTest {};

TEST_F(Oscillator, SetsTheSineAndItsDerivative) {
  // Vec2: point 1 about (1, 2) with amplitude (0.5, −1), ω = 2, φ = 0.25; h = 0.25.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.25" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject template="Vec2d" position="0 0  7 7"/>
  <UniformMass vertexMass="1"/>
  <OscillatorProjectiveConstraint oscillators="1  1 2  0.5 -1  2 0.25"/>
</Node>)");
  // One sine and one product per value: round-off of a few ulps of numbers below 3.
  constexpr double kRoundOff = 1e-15;
  const auto check = [&](double t) {
    const double s = std::sin(2 * t + 0.25), c = std::cos(2 * t + 0.25);
    EXPECT_NEAR(simulation.position(0)[2], 1 + 0.5 * s, kRoundOff) << t;
    EXPECT_NEAR(simulation.position(0)[3], 2 - s, kRoundOff) << t;
    EXPECT_NEAR(simulation.velocity(0)[2], 0.5 * 2 * c, kRoundOff) << t;
    EXPECT_NEAR(simulation.velocity(0)[3], -2 * c, kRoundOff) << t;
  };
  check(0.0);  // projected at the start
  for (int n = 0; n < 6; ++n) {
    simulation.Step();
    check(0.25 * n);
  }
  // The free point 0 fell: symplectic Euler, v = −10·6·0.25.
  EXPECT_DOUBLE_EQ(simulation.velocity(0)[1], -15.0);
}

TEST_F(Oscillator, RejectsAPartialRecord) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <OscillatorProjectiveConstraint oscillators="0  1 1 1  1 0 0  1"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("'oscillators' has 8 numbers (expected 9 per "
                                                   "oscillator"));
  }
}

}  // namespace
}  // namespace fluxion
