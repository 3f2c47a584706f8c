// SOFA's TriangleBendingSprings (components/triangle_bending_springs.cpp): the springs SOFA's
// registerTriangle makes, worked by hand, read through the springs' potential energy
// V = Σ ½·k·(L − L0)² after moving one point (rest lengths are the distances at load).
#include <gmock/gmock.h>

#include <cmath>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

constexpr double kStiffness = 100.0;

// The scene of `topology` (elements over the points `positions`) with TriangleBendingSprings,
// point `moved` then placed at `to`; the springs' energy. No `positions`: the topology's.
double EnergyAfterMoving(const std::string& topology, const std::string& positions, int moved,
                         const Vector& to) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + topology + R"(
  <MechanicalObject)" + (positions.empty() ? "" : " position=\"" + positions + "\"") +
                                    R"(/>
  <UniformMass vertexMass="1"/>
  <TriangleBendingSprings stiffness="100" damping="0"/>
</Node>)");
  Vector x = simulation.position(0);
  x.segment<3>(3 * moved) = to;
  simulation.SetPosition(0, x);
  return simulation.PotentialEnergy();
}

class TriangleBendingSprings : public testing::QuietTest {};

TEST_F(TriangleBendingSprings, OneSpringAcrossTheSharedEdge) {
  // (0 1 2) then (2 1 3): edge {1 2} is first seen with opposite 0, then with 3: one spring
  // 3–0, rest √2. Point 3 moved from (1, 1) to (2, 2): L = 2√2, V = ½·k·(√2)² = k.
  Vector to(3);
  to << 2, 2, 0;
  const double energy = EnergyAfterMoving(R"(<MeshTopology triangles="0 1 2  2 1 3"/>)",
                                          "0 0 0  1 0 0  0 1 0  1 1 0", 3, to);
  EXPECT_NEAR(energy, kStiffness, 1e-12);
}

TEST_F(TriangleBendingSprings, ThreeFacesOnAnEdgeJoinTheFirstFacesVertex) {
  // Edge {0 1} in (0 1 2), (1 0 3), (0 1 4): springs 3–2 (rest 2) and 4–2 (rest √2). Point 2
  // moved from (0.5, 1, 0) to (0.5, 2, 0): lengths 3 and √5, V = ½·k·(1 + (√5 − √2)²).
  Vector to(3);
  to << 0.5, 2, 0;
  const double energy = EnergyAfterMoving(R"(<MeshTopology triangles="0 1 2  1 0 3  0 1 4"/>)",
                                          "0 0 0  1 0 0  0.5 1 0  0.5 -1 0  0.5 0 1", 2, to);
  const double stretch = std::sqrt(5.0) - std::sqrt(2.0);
  EXPECT_NEAR(energy, 0.5 * kStiffness * (1 + stretch * stretch), 1e-12);
}

TEST_F(TriangleBendingSprings, GridFacesAreRegisteredTwiceAsInSofa) {
  // A 2×2×1 grid: one quad (0 1 3 2) and its halves (0 1 3), (0 3 2) as triangles. SOFA walks
  // the triangles (spring 2–1 across the diagonal {0 3}), then the quad's two triangles again:
  // the second meets {0 3} a second time (spring 2–1 again), the rest meets itself (springs
  // from a point to itself: no force in SOFA, left out). Point 2 moved from (0, 1) to (−1, 2):
  // each spring goes from √2 to 2√2, V = 2·½·k·2 = 2k — twice a single spring's.
  Vector to(3);
  to << -1, 2, 0;
  const double energy =
      EnergyAfterMoving(R"(<RegularGridTopology n="2 2 1" min="0 0 0" max="1 1 0"/>)", "", 2, to);
  EXPECT_NEAR(energy, 2 * kStiffness, 1e-12);
}

TEST_F(TriangleBendingSprings, NeedsFacesAndPointsItHas) {
  testing::ExpectSceneError(R"(<Node name="root"><EulerExplicitSolver/>
  <MeshTopology edges="0 1"/><MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/><TriangleBendingSprings/></Node>)",
                            "TriangleBendingSprings needs a topology with triangles or quads");
  testing::ExpectSceneError(R"(<Node name="root"><EulerExplicitSolver/>
  <MeshTopology triangles="0 1 5"/><MechanicalObject position="0 0 0  1 0 0  0 1 0"/>
  <UniformMass vertexMass="1"/><TriangleBendingSprings/></Node>)",
                            "TriangleBendingSprings: the topology's faces use point 5");
}

}  // namespace
}  // namespace fluxion
