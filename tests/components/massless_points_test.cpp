// Massless points in no element (build/component_passes.h, CheckMasses; build/point_use.h): SOFA's
// SubsetTopology example keeps every loaded point in a MechanicalObject whose triangles use only
// some; its DiagonalMass gives the others 0, and its implicit solver leaves them where they are
// (their row of the system and their right-hand side are 0: CG's dv is 0 there). Fluxion holds
// them still. The references are independent of that rule: the same cloth without the extra
// points (their numbering the same: the extra points come last), and the extra points' loaded
// positions.
//
// Cloth: topology_in_place_test.cpp's, 5 × 5 points (point p + 5j at (p, j, 0)), hanging from its
// top corners 20 and 24, DiagonalMass by density, MeshSpringForceField on the edges,
// EulerImplicitSolver with CGLinearSolver run to round-off.
#include <gmock/gmock.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "support/cloth_grid.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

constexpr int kSide = 5;
constexpr int kClothPoints = kSide * kSide;
// Three points in no triangle, after the cloth's (one of them inside the cloth's square).
constexpr const char* kExtraPoints = "7 7 0  2.5 2.5 1  -3 0 0";
constexpr int kExtra = 3;

constexpr const char* kImplicit =
    R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>)";

// The cloth, with `extra` points after its own, and `more` components in its node.
std::string Cloth(const std::string& extra, const std::string& solver = kImplicit,
                  const std::string& more = "", const std::string& processor = "") {
  const auto [points, triangles] = testing::ClothGrid(kSide);
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + extra + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" massDensity="2"/>
  <MeshSpringForceField name="springs" stiffness="100" damping="0.5"/>
  )" + more +
         R"(
  <FixedProjectiveConstraint name="fix" indices=")" +
         std::to_string(kClothPoints - kSide) + " " + std::to_string(kClothPoints - 1) + R"("/>
  )" + processor +
         R"(
</Node>)";
}

class MasslessPoints : public testing::QuietTest {
 protected:
  void TearDown() override {
    unsetenv("FLUXION_TOPOLOGY_REBUILD");
    QuietTest::TearDown();
  }
};

// 20 steps: the extra points keep their loaded positions and a zero velocity, bit for bit; the
// cloth's points have the bits of the cloth without them, with the implicit solver and with an
// explicit one (SOFA's explicit solvers would divide 0 by 0 there: Fluxion holds them as well).
TEST_F(MasslessPoints, AreHeldAndLeaveTheOthersBitForBit) {
  ExpectWarnings(2);  // the held points' line, once per load
  for (const std::string& solver :
       {std::string(kImplicit), std::string("<EulerExplicitSolver/>")}) {
    SCOPED_TRACE(solver);
    Simulation plain = LoadScene(Cloth("", solver));
    Simulation extra = LoadScene(Cloth(kExtraPoints, solver));
    const Vector loaded = extra.position(0);
    ASSERT_EQ(loaded.size(), 3 * (kClothPoints + kExtra));
    for (int step = 1; step <= 20; ++step) {
      plain.Step();
      extra.Step();
      const Vector x = extra.position(0), v = extra.velocity(0);
      ASSERT_TRUE(x.head(3 * kClothPoints) == plain.position(0)) << "step " << step;
      ASSERT_TRUE(v.head(3 * kClothPoints) == plain.velocity(0)) << "step " << step;
      ASSERT_TRUE(x.tail(3 * kExtra) == loaded.tail(3 * kExtra)) << "step " << step;
      ASSERT_TRUE(v.tail(3 * kExtra).isZero(0.0)) << "step " << step;
    }
    // The cloth did move: 20 steps of a hanging cloth under gravity.
    EXPECT_GT((plain.position(0) - loaded.head(3 * kClothPoints)).norm(), 1e-3);
  }
}

// Something acting on a massless point makes it an error, as before: a spring, a constant force
// on it, a projector.
TEST_F(MasslessPoints, TouchedByAComponentAreStillAnError) {
  const std::string spring = R"(<SpringForceField object1="@dofs" object2="@dofs"
      spring="25 26 10 0 1"/>)";
  const std::string force = R"(<ConstantForceField indices="27" forces="1 0 0"/>)";
  // The first point that cannot be held is reported (25 and 26 could be, before 27).
  testing::ExpectSceneError(Cloth(kExtraPoints, kImplicit, spring),
                            "point 25 of 'root/dofs' has no mass and is not fixed");
  testing::ExpectSceneError(Cloth(kExtraPoints, kImplicit, force),
                            "point 27 of 'root/dofs' has no mass and is not fixed");
  // A point a projector keeps on a line counts as touched too (a constraint acts on it).
  testing::ExpectSceneError(Cloth(kExtraPoints, kImplicit,
                                  R"(<LineProjectiveConstraint indices="26" direction="1 0 0"/>)"),
                            "point 26 of 'root/dofs' has no mass and is not fixed");
  // A mapping reads its parent's points: an IdentityMapping's child reaches every one.
  testing::ExpectSceneError(
      Cloth(kExtraPoints, kImplicit, R"(<Node name="child"><MechanicalObject name="copy"/>
      <IdentityMapping input="@../dofs" output="@copy"/></Node>)"),
      "point 25 of 'root/dofs' has no mass and is not fixed");
}

// Collision models count by their elements: a PointCollisionModel's are every point (an error
// for the extra ones), a TriangleCollisionModel's the triangles' (the extra points are held).
TEST_F(MasslessPoints, CountCollisionModelsByTheirElements) {
  const std::string pipeline = R"(<CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
  <CollisionResponse response="PenalityContactForceField"/><MinProximityIntersection/>
  )";
  testing::ExpectSceneError(Cloth(kExtraPoints, kImplicit, pipeline + "<PointCollisionModel/>"),
                            "point 25 of 'root/dofs' has no mass and is not fixed");
  ExpectWarnings(1);
  Simulation held =
      LoadScene(Cloth(kExtraPoints, kImplicit, pipeline + "<TriangleCollisionModel/>"));
  const Vector loaded = held.position(0);
  held.Step();
  EXPECT_TRUE(held.position(0).tail(3 * kExtra) == loaded.tail(3 * kExtra));
}

// A removal of the corner cell frees point 0 (SOFA's removeIsolatedPoints): the last point — a
// held extra point — moves into its slot. The in-place follow
// (build/topology_in_place.h) and the rebuild give the same bits, and the moved points are still
// held where they were loaded.
TEST_F(MasslessPoints, FollowARemovalInPlaceAsTheRebuildDoes) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_massless_points_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n0 1\n";
  const std::string file = (folder / "cloth.scn").string();
  const std::string xml =
      Cloth(kExtraPoints, kImplicit, "", R"(<TopologicalChangeProcessor filename="process.txt"/>)");
  std::vector<Vector> x[2];
  Vector loaded;
  for (const bool rebuild : {false, true}) {
    if (rebuild)
      setenv("FLUXION_TOPOLOGY_REBUILD", "1", 1);
    else
      unsetenv("FLUXION_TOPOLOGY_REBUILD");
    Simulation simulation = LoadScene(xml, file);
    loaded = simulation.position(0);
    for (int step = 0; step < 15; ++step) {
      const double* before = simulation.position(0).data();
      simulation.Step();
      // The removal at t = 0.05 (step 6): followed in place, the state keeps its buffer.
      if (step == 5) {
        EXPECT_EQ(simulation.position(0).data() == before, !rebuild);
      }
      x[rebuild].push_back(simulation.position(0));
    }
  }
  ExpectWarnings(2);  // one load each (a rebuild says it at debug level)
  std::filesystem::remove_all(folder);
  for (std::size_t k = 0; k < x[0].size(); ++k) ASSERT_TRUE(x[0][k] == x[1][k]) << "step " << k + 1;
  // Point 0 went; the last point (extra point 2) took its slot and is still held there.
  const Vector& end = x[0].back();
  ASSERT_EQ(end.size(), 3 * (kClothPoints + kExtra - 1));
  const auto extra_point = [&](int k) { return Vector(loaded.segment<3>(3 * (kClothPoints + k))); };
  EXPECT_TRUE(end.segment<3>(0) == extra_point(2));
  EXPECT_TRUE(end.segment<3>(3 * kClothPoints) == extra_point(0));
  EXPECT_TRUE(end.tail<3>() == extra_point(1));
}

}  // namespace
}  // namespace fluxion
