// SOFA's PatchTestMovementProjectiveConstraint
// (components/patch_test_movement_projective_constraint.cpp).
//
// A 3×3 patch of side 1 (points 0…8, spacing 0.5) and a tenth point at (0.25, 0.5). The eight
// boundary points and the tenth are moved; their coordinates, given as constrainedPoints, put the
// corners at c₀ = (0, 0), c₁ = (1, 0), c₂ = (1, 1), c₃ = (0, 1). With SOFA's
// BilinearConstraint.scn movements m₀ = (−0.2, −0.1), m₁ = (0.1, −0.1), m₂ = (0.1, 0.1),
// m₃ = (−0.1, 0.3), the displacement of (x, y) is, by hand,
//   d = m₀(1−x)(1−y) + m₁x(1−y) + m₂xy + m₃(1−x)y:
//   (0.5, 0) → (−0.05, −0.1);  (1, 0.5) → (0.1, 0);  (0.5, 1) → (0, 0.2);  (1, 1) → (0.1, 0.1);
//   (0, 0.5) → (−0.15, 0.1);  (0.25, 0.5) → 0.375m₀ + 0.125m₁ + 0.125m₂ + 0.375m₃
//                                         = (−0.0875, 0.075).
// Over [0, 1] with h = 0.25, after the step that starts at tₙ a moved point is at x₀ + d·tₙ
// (SOFA's node time is the step's start), x₀ + d after the end; the centre point 4 is free and
// falls under gravity while the moved points, held, do not.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

class PatchTestMovement : public testing::QuietTest {};

constexpr const char* kPatch = R"(<Node name="root" dt="0.25" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  0.5 0 0  1 0 0  0 0.5 0  0.5 0.5 0  1 0.5 0
                              0 1 0  0.5 1 0  1 1 0  0.25 0.5 0"/>
  <UniformMass vertexMass="1"/>
  <PatchTestMovementProjectiveConstraint indices="0 1 2 3 5 6 7 8 9"
      beginConstraintTime="0" endConstraintTime="1"
      constrainedPoints="0 0 0  0.5 0 0  1 0 0  0 0.5 0  1 0.5 0  0 1 0  0.5 1 0  1 1 0"
      cornerMovements="-0.2 -0.1 0  0.1 -0.1 0  0.1 0.1 0  -0.1 0.3 0"/>
</Node>)";

TEST_F(PatchTestMovement, MovesPointsByTheBilinearInterpolationOfTheCorners) {
  Simulation simulation = LoadScene(kPatch);
  struct Expected {
    int point;
    double x0, y0, dx, dy;
  };
  const Expected moved[] = {{0, 0, 0, -0.2, -0.1},   {1, 0.5, 0, -0.05, -0.1},
                            {2, 1, 0, 0.1, -0.1},    {5, 1, 0.5, 0.1, 0},
                            {7, 0.5, 1, 0, 0.2},     {8, 1, 1, 0.1, 0.1},
                            {3, 0, 0.5, -0.15, 0.1}, {9, 0.25, 0.5, -0.0875, 0.075}};
  // Round-off of a few operations on numbers below 2: a few ulps.
  constexpr double kRoundOff = 1e-15;
  const double t_start[] = {0, 0.25, 0.5, 0.75, 1.0, 1.25};
  for (const double t : t_start) {
    simulation.Step();
    const double s = t > 1.0 ? 1.0 : t;
    const auto x = simulation.position(0);
    const auto v = simulation.velocity(0);
    for (const Expected& e : moved) {
      EXPECT_NEAR(x[3 * e.point], e.x0 + e.dx * s, kRoundOff) << "point " << e.point << " t " << t;
      EXPECT_NEAR(x[3 * e.point + 1], e.y0 + e.dy * s, kRoundOff)
          << "point " << e.point << " t " << t;
      EXPECT_EQ(x[3 * e.point + 2], 0.0);
      EXPECT_EQ(v[3 * e.point + 1], 0.0) << "point " << e.point << " is held";
    }
  }
  // The free centre point: symplectic Euler under g = −10 for six steps, v = −10·6·0.25.
  EXPECT_DOUBLE_EQ(simulation.velocity(0)[13], -15.0);
}

TEST_F(PatchTestMovement, GivenCornerPointsReplaceTheSearch) {
  // Corners given for a patch twice as large, (0, 0)…(2, 2): point (1, 0) has α = 0.5, β = 0,
  // so d = 0.5·m₀ + 0.5·m₁ = (0.5, 0) with m₀ = (1, 0), m₁ = (0, 0); the end state is reached
  // after the step that starts at t = 1 = endConstraintTime.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <PatchTestMovementProjectiveConstraint indices="0" beginConstraintTime="0"
      endConstraintTime="1" cornerPoints="0 0 0  2 0 0  2 2 0  0 2 0"
      cornerMovements="1 0 0  0 0 0  0 0 0  0 0 0"/>
</Node>)");
  for (int step = 0; step < 3; ++step) simulation.Step();
  EXPECT_EQ(simulation.position(0)[0], 1.5);
  EXPECT_EQ(simulation.position(0)[1], 0.0);
}

TEST_F(PatchTestMovement, RejectsTooFewCornerMovements) {
  try {
    LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0  1 1 0  0 1 0"/>
  <UniformMass vertexMass="1"/>
  <PatchTestMovementProjectiveConstraint indices="0 1 2 3"
      constrainedPoints="0 0 0  1 0 0  1 1 0  0 1 0" cornerMovements="1 0 0  0 1 0"/>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("'cornerMovements' has 2 vectors (expected one "
                                                   "for each of the 4 corners)"));
  }
}

}  // namespace
}  // namespace fluxion
