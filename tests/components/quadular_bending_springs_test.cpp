// SOFA's QuadularBendingSprings (components/quadular_bending_springs.cpp), worked by hand.
//
// Two unit quads side by side, q0 = (0 1 4 3) and q1 = (1 2 5 4) on the points
// 0 (0,0) 1 (1,0) 2 (2,0) 3 (0,1) 4 (1,1) 5 (2,1): the only inner edge is 1–4. SOFA's edge j of a
// quad is (q[j+1], q[j+2]): in q0 the edge 1–4 is j = 0 (q0[1], q0[2]) = (1, 4), in q1 it is
// j = 2 (q1[3], q1[0]) = (4, 1). q0 meets the edge first (SOFA's t2, i2 = 0), q1 is t1 (i1 = 2):
// springs (t1[2], t2[3]) = (5, 3) and (t1[1], t2[0]) = (2, 0), both of rest length 2: the strip's
// two rows end to end, 3–5 on top and 0–2 at the bottom (a fold along 1–4 shortens them).
// Lifting the edge 1–4 to z = 0.5 leaves those springs at rest (their ends do not move); pulling
// point 5 to x = 2.5 stretches (5, 3) to 2.5: one symplectic Euler step from rest (m = 1,
// h = 0.01, no gravity) gives v_5 = h·ks·0.5·(−1, 0, 0), v_3 = −v_5, and nothing else moves.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class QuadularBendingSprings : public testing::QuietTest {};

std::string Strip(const std::string& position, const std::string& springs) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0" quads="0 1 4 3  1 2 5 4"/>
  <MechanicalObject position=")" +
         position + R"(" rest_position="0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0"/>
  <UniformMass vertexMass="1"/>
  )" + springs +
         "\n</Node>";
}

TEST_F(QuadularBendingSprings, TwoSpringsJoinTheVerticesOffTheSharedEdge) {
  Simulation simulation =
      LoadScene(Strip("0 0 0  1 0 0.5  2 0 0  0 1 0  1 1 0.5  2.5 1 0",
                      R"(<QuadularBendingSprings stiffness="100" damping="0"/>)"));
  simulation.Step();
  const auto v = simulation.velocity(0);
  const double expected = 0.01 * 100 * 0.5;
  EXPECT_NEAR(v[3 * 5 + 0], -expected, 1e-15);
  EXPECT_NEAR(v[3 * 3 + 0], expected, 1e-15);
  for (const int point : {0, 1, 2, 4})
    for (int c = 0; c < 3; ++c) EXPECT_EQ(v[3 * point + c], 0.0) << point << " " << c;
  for (int c = 1; c < 3; ++c) {
    EXPECT_EQ(v[3 * 5 + c], 0.0);
    EXPECT_EQ(v[3 * 3 + c], 0.0);
  }
}

TEST_F(QuadularBendingSprings, TheSecondSpringJoinsTheOtherRow) {
  // Point 0 pulled to x = −1: the spring (2, 0) stretches from 2 to 3.
  Simulation simulation =
      LoadScene(Strip("-1 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0",
                      R"(<QuadularBendingSprings stiffness="100" damping="0"/>)"));
  simulation.Step();
  const auto v = simulation.velocity(0);
  EXPECT_NEAR(v[0], 0.01 * 100 * 1.0, 1e-15);
  EXPECT_NEAR(v[3 * 2], -0.01 * 100 * 1.0, 1e-15);
  EXPECT_EQ(v[3 * 5], 0.0);
}

TEST_F(QuadularBendingSprings, NeedsQuads) {
  try {
    LoadScene(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <QuadularBendingSprings/>
</Node>)");
    ADD_FAILURE();
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(),
                HasSubstr("inline.scn:6: QuadularBendingSprings needs a topology with quads"));
  }
}

}  // namespace
}  // namespace fluxion
