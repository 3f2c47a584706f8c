// SOFA's TriangularBendingSprings (components/triangular_bending_springs.cpp): on the unit square
// split along 0–2 into (0 1 2) and (0 2 3), the only inner edge is 0–2, so the only spring joins
// the opposite vertices 3 (of triangle 1, SOFA's m1) and 1 (of triangle 0, m2), rest length √2.
// Lifting point 3 to z = 0.5 stretches it to 1.5; one symplectic Euler step from rest (m = 1,
// h = 0.01, no gravity) gives v = h·f with f_3 = ks·(1.5 − √2)·û, û = (x_1 − x_3)/1.5, and
// f_1 = −f_3; points 0 and 2, on no bending spring, do not move.
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class TriangularBendingSprings : public testing::QuietTest {};

TEST_F(TriangularBendingSprings, OneSpringAcrossTheInnerEdge) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0" triangles="0 1 2  0 2 3"/>
  <MechanicalObject position="0 0 0  1 0 0  1 1 0  0 1 0.5" rest_position="0 0 0  1 0 0  1 1 0  0 1 0"/>
  <UniformMass vertexMass="1"/>
  <TriangularBendingSprings stiffness="100" damping="0"/>
</Node>)");
  simulation.Step();
  const auto v = simulation.velocity(0);
  const double intensity = 100 * (1.5 - std::sqrt(2.0));
  const double u[3] = {1 / 1.5, -1 / 1.5, -0.5 / 1.5};
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(v[9 + c], 0.01 * intensity * u[c], 1e-15) << c;
    EXPECT_NEAR(v[3 + c], -0.01 * intensity * u[c], 1e-15) << c;
    EXPECT_EQ(v[c], 0.0);
    EXPECT_EQ(v[6 + c], 0.0);
  }
}

TEST_F(TriangularBendingSprings, NeedsTriangles) {
  try {
    LoadScene(R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0" edges="0 1"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <TriangularBendingSprings/>
</Node>)");
    ADD_FAILURE();
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("needs a topology with triangles"));
  }
}

}  // namespace
}  // namespace fluxion
