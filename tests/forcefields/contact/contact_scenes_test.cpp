// Contact end to end (issue #26), with the real detection layer: SOFA scenes with a collision
// pipeline and the penalty response, stepped by EulerImplicitSolver with CGLinearSolver.
//  - a point resting on a static triangle floor settles where ks·pen = m·g (MinProximity and
//    LocalMinDistance, whose filter ignores a point behind the floor);
//  - two spheres colliding head-on under one solver, without gravity, keep their momentum;
//  - two bodies under sibling solvers with the pipeline at the root push each other with explicit
//    forces computed at each step's start (SOFA's SolveVisitor on a response outside every
//    solver's subtree), equal and opposite: momentum is kept too;
//  - a head-on collision under symplectic Euler follows the hand-written recursion and keeps the
//    kinetic energy within 4(hω)² of the relative motion's;
//  - a folded cloth with selfCollision rests on itself, and falls through itself without;
//  - collision models take the object and topology above their node;
//  - the gallery's cloth dropped on a triangle-mesh ball ends with no point inside the ball (no
//    point deeper than the contact distance below the penalty's surface).
// The response's own tests, on hand-made detection outputs, are penalty_contact_test.cpp.
#include <gmock/gmock.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "fluxion/contact_times.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

constexpr const char* kPipeline = R"(
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.05" contactDistance="0.01"/>
  <CollisionResponse response="PenalityContactForceField"/>)";

class ContactScenes : public testing::QuietTest {};

// A static one-triangle floor in z = 0 (covering x, y in [−1, 2) near the origin), not simulated.
constexpr const char* kFloor = R"(
  <Node name="floor">
    <MeshTopology position="-1 -1 0  2 -1 0  -1 2 0" triangles="0 1 2"/>
    <MechanicalObject/>
    <TriangleCollisionModel moving="0" simulated="0"/>
  </Node>)";

// A body of 0.1 kg at `position` under its own undamped implicit Euler, with collision `model`.
std::string FallingBody(const std::string& name, const std::string& position,
                        const std::string& model) {
  return R"(
  <Node name=")" +
         name + R"(">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject position=")" +
         position + R"("/>
    <UniformMass totalMass="0.1"/>
    )" + model +
         R"(
  </Node>)";
}

// The floor and `bodies` under gravity −9.81 along z, dt = 0.01, with `pipeline`.
std::string OnTheFloor(const std::string& pipeline, const std::string& bodies) {
  return R"(<Node name="root" gravity="0 0 -9.81" dt="0.01">)" + pipeline + kFloor + bodies +
         "\n</Node>";
}

TEST_F(ContactScenes, PointRestsOnStaticFloorWhereStiffnessBalancesWeight) {
  Simulation simulation = LoadScene(OnTheFloor(
      kPipeline,
      FallingBody("body", "0.2 0.3 0.03", R"(<PointCollisionModel contactStiffness="5"/>)")));
  for (int step = 0; step < 2000; ++step) simulation.Step();
  // d = 0.01 (the intersection's contactDistance), ks = 10·5/d = 5000 N/m: the point rests at
  // z = d − m·g/ks. Implicit Euler has damped the bounce to round-off in 20 s.
  const double ks = 10.0 * 5.0 / 0.01;
  EXPECT_NEAR(simulation.position(1)[2], 0.01 - 0.1 * 9.81 / ks, 1e-10);
  EXPECT_LT(simulation.velocity(1).norm(), 1e-9);
  ASSERT_EQ(simulation.contacts().size(), 1u);
  EXPECT_EQ(simulation.contacts()[0].solver_node, 0);
}

// The pipeline's phases are timed per step (fluxion/contact_times.h); a scene without a pipeline
// reports nothing.
TEST_F(ContactScenes, PipelinePhasesAreTimedEveryStep) {
  Simulation simulation = LoadScene(
      OnTheFloor(kPipeline, FallingBody("body", "0.2 0.3 0.03", R"(<PointCollisionModel/>)")));
  EXPECT_EQ(MeasuredContactTimes(simulation).steps, 0);
  for (int step = 0; step < 3; ++step) simulation.Step();
  const ContactTimes times = MeasuredContactTimes(simulation);
  EXPECT_EQ(times.steps, 3);
  EXPECT_GT(times.detection, 0.0);  // a steady clock read around real work
  EXPECT_GE(times.response, 0.0);
  Simulation without = LoadScene(OnTheFloor("", FallingBody("body", "0.2 0.3 0.03", "")));
  without.Step();
  EXPECT_EQ(MeasuredContactTimes(without).steps, 0);
  EXPECT_EQ(MeasuredContactTimes(without).detection, 0.0);
}

// LocalMinDistance on the same floor, with a contact distance of its own: d = 0.02, so
// ks = 10·5/d = 2500 N/m and the point rests at z = d − m·g/ks = 0.02 − 0.981/2500 = 0.0196076.
// A second point starts 0.03 under the floor, within the alarm distance: it is behind the
// triangle, whose cone filter ((B − A) × (C − A)·QP ≥ 0) gives it no contact, so it falls freely
// (MinProximity would push it down).
TEST_F(ContactScenes, LocalMinDistanceRestsAPointOnTheFloorAndIgnoresOneBehindIt) {
  const std::string point = R"(<PointCollisionModel contactStiffness="5"/>)";
  Simulation simulation = LoadScene(OnTheFloor(
      R"(
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <LocalMinDistance alarmDistance="0.05" contactDistance="0.02"/>
  <CollisionResponse response="PenalityContactForceField"/>)",
      FallingBody("body", "0.2 0.3 0.04", point) + FallingBody("under", "0.2 0.3 -0.03", point)));
  simulation.Step();
  ASSERT_EQ(simulation.contacts().size(), 1u);  // the point above only
  for (int step = 1; step < 2000; ++step) simulation.Step();
  const double ks = 10.0 * 5.0 / 0.02;
  EXPECT_NEAR(simulation.position(1)[2], 0.02 - 0.1 * 9.81 / ks, 1e-10);
  EXPECT_LT(simulation.velocity(1).norm(), 1e-9);
  ASSERT_EQ(simulation.contacts().size(), 1u);
  // The point under the floor fell freely: about ½·g·t² = 1962 m in 20 s.
  EXPECT_LT(simulation.position(2)[2], -1000.0);
}

// A sphere of radius 0.05 on the same floor (MinProximity's triangle–sphere test): the penalty
// keeps its centre d = contactDistance + r = 0.06 above the floor, ks = 10·5/d, so it rests at
// z = d − m·g/ks.
TEST_F(ContactScenes, SphereRestsOnATriangleFloorWhereStiffnessBalancesWeight) {
  Simulation simulation = LoadScene(OnTheFloor(
      kPipeline, FallingBody("ball", "0.2 0.3 0.08",
                             R"(<SphereCollisionModel radius="0.05" contactStiffness="5"/>)")));
  for (int step = 0; step < 2000; ++step) simulation.Step();
  const double d = 0.01 + 0.05, ks = 10.0 * 5.0 / d;
  EXPECT_NEAR(simulation.position(1)[2], d - 0.1 * 9.81 / ks, 1e-10);
  EXPECT_LT(simulation.velocity(1).norm(), 1e-9);
  ASSERT_EQ(simulation.contacts().size(), 1u);
  EXPECT_NEAR(simulation.contacts()[0].distance, d, 1e-15);
}

// SOFA's collision models take the nearest MechanicalObject and topology at or above their node
// (getContext()->getMechanicalState(), getMeshTopology()): the floor's model sits in a child
// node holding nothing else, and the point still rests where ks·pen = m·g.
TEST_F(ContactScenes, AModelInAChildNodeUsesTheObjectAndTopologyAboveIt) {
  Simulation simulation =
      LoadScene(std::string(R"(<Node name="root" gravity="0 0 -9.81" dt="0.01">)") + kPipeline + R"(
  <Node name="floor">
    <MeshTopology position="-1 -1 0  2 -1 0  -1 2 0" triangles="0 1 2"/>
    <MechanicalObject/>
    <Node name="surface">
      <TriangleCollisionModel moving="0" simulated="0"/>
    </Node>
  </Node>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject position="0.2 0.3 0.03"/>
    <UniformMass totalMass="0.1"/>
    <PointCollisionModel contactStiffness="5"/>
  </Node>
</Node>)");
  for (int step = 0; step < 2000; ++step) simulation.Step();
  EXPECT_NEAR(simulation.position(1)[2], 0.01 - 0.1 * 9.81 / (10.0 * 5.0 / 0.01), 1e-10);
  ASSERT_EQ(simulation.contacts().size(), 1u);
  // A topology of the child node that names points its ancestor's object does not have.
  try {
    LoadScene(std::string(R"(<Node name="root" gravity="0 0 -9.81" dt="0.01">)") + kPipeline + R"(
  <EulerImplicitSolver/> <CGLinearSolver/>
  <Node name="body">
    <MechanicalObject position="0 0 0  1 0 0  0 1 0"/>
    <UniformMass totalMass="1"/>
    <Node name="surface">
      <MeshTopology triangles="0 1 3"/>
      <TriangleCollisionModel/>
    </Node>
  </Node>
</Node>)");
    ADD_FAILURE() << "loaded";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("its topology uses point 3 of 'root/body/"));
    EXPECT_THAT(error.what(), HasSubstr("which has 3 (expected a topology of that object's"));
  }
  // A model with its own object does not take a topology from above it (SOFA's
  // RegularGridTopology.scn: spheres of their own under a grid): the grid's 8 points are not the
  // spheres' 2.
  Simulation spheres =
      LoadScene(std::string(R"(<Node name="root" gravity="0 0 -9.81" dt="0.01">)") + kPipeline + R"(
  <EulerImplicitSolver/> <CGLinearSolver/>
  <Node name="body">
    <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <Node name="spheres">
      <MechanicalObject position="0.2 0.2 0.2  0.8 0.8 0.8"/>
      <SphereCollisionModel radius="0.1"/>
      <BarycentricMapping/>
    </Node>
  </Node>
</Node>)");
  EXPECT_EQ(spheres.collision_models().size(), 1u);
}

std::string TwoSpheres(bool one_solver) {
  const std::string solver = R"(<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>)";
  return std::string(R"(<Node name="root" gravity="0 0 0" dt="0.01">)") + kPipeline +
         (one_solver ? solver : "") + R"(
  <Node name="a">)" +
         (one_solver ? "" : solver) +
         R"(
    <MechanicalObject position="0 0 0" velocity="1 0 0"/>
    <UniformMass totalMass="1"/>
    <SphereCollisionModel radius="0.1" contactStiffness="20"/>
  </Node>
  <Node name="b">)" +
         (one_solver ? "" : solver) +
         R"(
    <MechanicalObject position="0.5 0.01 0" velocity="-0.2 0 0"/>
    <UniformMass totalMass="3"/>
    <SphereCollisionModel radius="0.1" contactStiffness="20"/>
  </Node>
</Node>)";
}

TEST_F(ContactScenes, HeadOnCollisionUnderOneSolverConservesMomentum) {
  Simulation simulation = LoadScene(TwoSpheres(true));
  const auto momentum = [&] {
    return Eigen::Vector3d(1.0 * simulation.velocity(0) + 3.0 * simulation.velocity(1));
  };
  const Eigen::Vector3d before = momentum();
  long steps_with_contacts = 0;
  for (int step = 0; step < 200; ++step) {
    simulation.Step();
    steps_with_contacts += simulation.contacts().empty() ? 0 : 1;
  }
  ASSERT_GT(steps_with_contacts, 3);
  EXPECT_LT(simulation.velocity(0)[0], simulation.velocity(1)[0]);  // they bounced apart
  // The contact forces are equal and opposite and CG's solution keeps Σ Δv·m to its round-off.
  EXPECT_LT((momentum() - before).norm(), 1e-12);
}

TEST_F(ContactScenes, BodiesUnderSiblingSolversPushEachOtherExplicitly) {
  Simulation simulation = LoadScene(TwoSpheres(false));
  const auto momentum = [&] {
    return Eigen::Vector3d(1.0 * simulation.velocity(0) + 3.0 * simulation.velocity(1));
  };
  const Eigen::Vector3d before = momentum();
  bool explicit_contact = false;
  for (int step = 0; step < 200; ++step) {
    simulation.Step();
    for (const Contact& contact : simulation.contacts())
      explicit_contact = explicit_contact || contact.solver_node == -1;
  }
  // SOFA places the pair's response in the root, which no solver's subtree contains; its
  // SolveVisitor still adds the penalty force at the step's start to both spheres' external
  // forces. So they bounce apart, each solver integrating a constant force of its own side.
  EXPECT_TRUE(explicit_contact);
  EXPECT_LT(simulation.velocity(0)[0], simulation.velocity(1)[0]);
  // Equal and opposite forces, each integrated exactly by its own implicit Euler (no other force,
  // no damping: M·Δv = h·f, solved by CG to its round-off).
  EXPECT_LT((momentum() - before).norm(), 1e-12);
}

// A head-on collision integrated by symplectic Euler (EulerExplicitSolver): the penalty is a
// conservative force, f = ks·pen on the relative coordinate r = x₂ − x₁ while pen = d − r > 0,
// so the pair behaves as an oscillator of ω = √(ks/μ) (μ the reduced mass) during the contact.
// Symplectic Euler keeps the modified energy ½μv² + ½ks·pen² − ½h·ks·pen·v exactly for a
// linear force; entering and leaving the contact, pen is at most h·|v| at the first and last
// contact steps, which moves kinetic energy by at most 2(hω)² of it each time: |ΔKE|/KE ≤ 4(hω)².
// The trajectory itself is checked against the recursion written out here.
TEST_F(ContactScenes, SymplecticHeadOnCollisionKeepsKineticEnergyWithinFourHOmegaSquared) {
  const double h = 5e-4, m1 = 1.0, m2 = 3.0, mu = m1 * m2 / (m1 + m2);
  const double d = 0.01 + 0.1 + 0.1;  // contactDistance + both radii
  const double ks = 1.0 * 44.1 / d;   // contactStiffness 1 and 44.1: 210 N/m
  const double omega = std::sqrt(ks / mu);
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="5e-4">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.5" contactDistance="0.01"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <EulerExplicitSolver/>
  <Node name="a">
    <MechanicalObject position="0 0 0" velocity="1 0 0"/>
    <UniformMass totalMass="1"/>
    <SphereCollisionModel radius="0.1" contactStiffness="1"/>
  </Node>
  <Node name="b">
    <MechanicalObject position="0.5 0 0" velocity="-0.2 0 0"/>
    <UniformMass totalMass="3"/>
    <SphereCollisionModel radius="0.1" contactStiffness="44.1"/>
  </Node>
</Node>)");
  double x1 = 0.0, x2 = 0.5, v1 = 1.0, v2 = -0.2;
  const auto kinetic = [&] { return 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2; };
  const double kinetic_before = kinetic(), momentum_before = m1 * v1 + m2 * v2;
  ASSERT_EQ(kinetic_before, 0.5 + 0.5 * 3 * 0.04);
  int contact_steps = 0;
  for (int step = 0; step < 1200; ++step) {  // 0.6 s: approach, ≈ π/ω = 0.19 s of contact, apart
    simulation.Step();
    const double pen = d - (x2 - x1);
    const double f = pen > 0 ? ks * pen : 0.0;
    contact_steps += pen > 0 ? 1 : 0;
    v1 -= h * f / m1;
    v2 += h * f / m2;
    x1 += h * v1;
    x2 += h * v2;
    ASSERT_NEAR(simulation.position(0)[0], x1, 1e-12) << "step " << step;
    ASSERT_NEAR(simulation.position(1)[0], x2, 1e-12) << "step " << step;
    ASSERT_NEAR(simulation.velocity(0)[0], v1, 1e-12) << "step " << step;
    ASSERT_NEAR(simulation.velocity(1)[0], v2, 1e-12) << "step " << step;
  }
  EXPECT_GT(contact_steps, 300);  // ≈ 0.19 s / 5e-4 s
  ASSERT_GT(x2 - x1, d);          // apart again: no force acts
  EXPECT_LT(std::abs(m1 * v1 + m2 * v2 - momentum_before), 1e-14);
  const double fluxion_kinetic = 0.5 * m1 * std::pow(simulation.velocity(0)[0], 2) +
                                 0.5 * m2 * std::pow(simulation.velocity(1)[0], 2);
  // The centre of mass keeps its kinetic energy; the relative motion's, ½μ·1.2², is the one the
  // contact exchanges with the penalty's potential.
  const double relative_kinetic = 0.5 * mu * 1.2 * 1.2;
  // 4(hω)² = 2.8e-4; the recursion gives 5.4e-6 here (it scales as h², halving h → 9e-8).
  EXPECT_LT(std::abs(fluxion_kinetic - kinetic_before) / relative_kinetic,
            4 * (h * omega) * (h * omega));
  EXPECT_GT(v2 - v1, 0.0);  // bounced
}

// A cloth folded on itself: the lower half (columns 0…K of a (2K + 2) × (M + 1) grid, cells of
// 1 cm) lies flat at y = 0, held; the upper half, the flap, lies 2 cm above it, folded back at
// column K (column K + 1 + k above column K − k), and falls onto it. One model pair of the
// cloth's own triangles and points with selfCollision: the flap's points meet the lower half's
// triangles (never their own: a point is not tested against the triangles it belongs to) and
// stay above it, at about d = 2 mm (contactDistance); without selfCollision they fall through.
// The solver is at the root, with the pipeline: SOFA places a self-collision response in the
// pipeline's node, so it is solved implicitly there (under a solver in the cloth's node it would
// be an explicit force, far too stiff for this dt: ks = 10·10/d = 5e4 N/m on 0.3 g points).
std::string FoldedCloth(bool self_collision) {
  constexpr int K = 8, M = 8;
  const double c = 0.01;
  const auto index = [&](int i, int j) { return i * (M + 1) + j; };
  std::ostringstream positions, triangles, fixed;
  for (int i = 0; i <= 2 * K + 1; ++i)
    for (int j = 0; j <= M; ++j) {
      const bool flap = i > K;
      // The flap is shifted by a third of a cell in x and z: its points fall inside the lower
      // half's triangles, not onto its vertices.
      positions << (flap ? (2 * K + 1 - i + 1.0 / 3) * c : i * c) << ' ' << (flap ? 0.02 : 0.0)
                << ' ' << (flap ? j + 1.0 / 3 : j) * c << "  ";
      if (!flap) fixed << index(i, j) << ' ';
    }
  for (int i = 0; i < 2 * K + 1; ++i)
    for (int j = 0; j < M; ++j)
      triangles << index(i, j) << ' ' << index(i + 1, j) << ' ' << index(i + 1, j + 1) << "  "
                << index(i, j) << ' ' << index(i + 1, j + 1) << ' ' << index(i, j + 1) << "  ";
  const std::string self = self_collision ? "1" : "0";
  return std::string(R"(<Node name="root" gravity="0 -9.81 0" dt="0.002">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.005" contactDistance="0.002"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="1000" tolerance="1e-8" threshold="1e-20"/>
  <Node name="cloth">
    <MeshTopology position=")") +
         positions.str() + R"(" triangles=")" + triangles.str() + R"("/>
    <MechanicalObject/>
    <UniformMass totalMass="0.05"/>
    <FixedProjectiveConstraint indices=")" +
         fixed.str() + R"("/>
    <MeshSpringForceField linesStiffness="20" linesDamping="0.01"/>
    <TriangleCollisionModel selfCollision=")" +
         self + R"("/>
    <PointCollisionModel selfCollision=")" +
         self + R"("/>
  </Node>
</Node>)";
}

TEST_F(ContactScenes, AFoldedClothWithSelfCollisionDoesNotPassThroughItself) {
  for (const bool self_collision : {true, false}) {
    Simulation simulation = LoadScene(FoldedCloth(self_collision));
    double lowest = 1e300;  // the lowest flap point away from the fold (x ≤ 6 cm)
    for (int step = 0; step < 300; ++step) {  // 0.6 s: the flap falls 2 cm in 0.064 s
      simulation.Step();
      const Vector& x = simulation.position(0);
      for (Index p = 9 * 9; p < x.size() / 3; ++p)
        if (x[3 * p] <= 0.06 + 1e-9) lowest = std::min(lowest, x[3 * p + 1]);
    }
    if (self_collision) {
      // Above the lower half all the time, and resting on it: within the contact distance.
      EXPECT_GT(lowest, 0.0);
      EXPECT_LT(lowest, 0.002);
      EXPECT_GT(simulation.contacts().size(), 40u);
    } else {
      EXPECT_LT(lowest, -0.01);  // through the lower half
      EXPECT_TRUE(simulation.contacts().empty());
    }
  }
}

// scenes/cloth_drop_on_mesh.scn: a 20 × 20 cloth falls 0.1 m onto a convex triangle mesh (an
// icosphere of radius 0.3) and drapes over it. The penalty keeps each point near d = 0.02 m above
// the mesh; "deeper than the contact distance" would put a point inside the mesh. The mesh is
// convex, so a point is outside it when it lies above the plane of at least one of its faces.
TEST_F(ContactScenes, ClothDroppedOnAMeshBallNeverGoesInside) {
  const std::string scene = std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/cloth_drop_on_mesh.scn";
  Simulation simulation = testing::TestHost().LoadFile(scene);
  const ObjectModel& ball = simulation.model().objects[0];
  const std::vector<std::array<Index, 3>>& faces = ball.topology->triangles;
  const Vector& corners = ball.rest_position;
  const auto outside_by = [&](const Eigen::Vector3d& p) {
    double most = -1e300;  // the largest signed distance to a face's plane (outward normals)
    for (const auto& f : faces) {
      const Eigen::Vector3d a = corners.segment<3>(3 * f[0]), b = corners.segment<3>(3 * f[1]),
                            c = corners.segment<3>(3 * f[2]);
      most = std::max(most, (b - a).cross(c - a).normalized().dot(p - a));
    }
    return most;
  };
  // CG stops at its iteration cap on three steps of the impact (the scene's comment says why):
  // the first is a warning, the other two are counted in the summary at the end.
  ExpectWarnings(2);
  std::size_t most_contacts = 0;
  double deepest = 1e300;
  for (int step = 0; step < 150; ++step) {  // 1.5 s: falling (0.2 s), then draped
    simulation.Step();
    most_contacts = std::max(most_contacts, simulation.contacts().size());
    const Vector& x = simulation.position(1);
    for (Index i = 0; i < x.size(); i += 3)
      deepest = std::min(deepest, outside_by(Eigen::Vector3d(x.segment<3>(i))));
  }
  EXPECT_GT(most_contacts, 20u);  // the cloth lies on the ball, it did not miss it
  // Every point stayed outside the mesh: none sank deeper than the contact distance d into the
  // penalty's layer (ks = 10·10/d = 5000 N/m holds a point's weight, 0.0125 kg·9.81, within
  // 2.5e-5 m; the impact sinks further, 0.013 m at most on this run, short of d).
  EXPECT_GT(deepest, 0.0);
  for (const Contact& contact : simulation.contacts()) EXPECT_LT(contact.penetration, 0.02);
}

}  // namespace
}  // namespace fluxion
