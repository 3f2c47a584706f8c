// SOFA's collision models (components/collision_models.h): in a scene without a collision
// pipeline they are accepted, their fields validated, and inert — the motion is the mechanics'
// alone, checked against the free-fall recursion of symplectic Euler (SOFA's EulerExplicitSolver:
// v ← v + h·g, x ← x + h·v). In a scene with a pipeline they are the detection's
// (tests/components/collision_pipeline_test.cpp).
#include <gmock/gmock.h>

#include <fstream>
#include <string>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

constexpr double kH = 0.01;  // the dt below

// Two falling points carrying every collision model Fluxion accepts, with SOFA's usual fields
// (moving, simulated, group, contactStiffness, proximity: the old name of contactDistance),
// and `pipeline` (an element, or nothing) at line 2.
std::string Scene(const std::string& pipeline) {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  )" + pipeline +
         R"(
  <EulerExplicitSolver/>
  <Node name="body">
    <MeshTopology position="0 0 0  1 0 0  0 1 0" edges="0 1  1 2" triangles="0 1 2"/>
    <MechanicalObject/>
    <UniformMass vertexMass="0.5"/>
    <TriangleCollisionModel moving="0" simulated="0" group="1" bothSide="1" color="1 0 0"/>
    <LineCollisionModel contactStiffness="50" proximity="0.01" group="1 2"/>
    <PointCollisionModel selfCollision="1" computeNormals="1"/>
    <SphereCollisionModel radius="0.1" listRadius="0.1 0.2 0.3" showImpostors="0"/>
  </Node>
</Node>)";
}

class CollisionModels : public testing::QuietTest {};

TEST_F(CollisionModels, AreInertWithoutAPipeline) {
  Simulation simulation = LoadScene(Scene(""));
  // They are part of the model, as collision models.
  int collision_models = 0;
  for (const ComponentModel& component : simulation.model().components)
    if (component.kind == ComponentKind::kCollisionModel) ++collision_models;
  EXPECT_EQ(collision_models, 4);
  // And change nothing: every point falls freely (no contact force, no constraint).
  double v = 0.0, y = 0.0;
  for (int step = 0; step < 50; ++step) {
    simulation.Step();
    v += kH * -9.81;
    y += kH * v;
  }
  const auto x = simulation.position(0);
  const double initial_y[3] = {0.0, 0.0, 1.0};
  // One rounding per operation of the same recursion: a few ulps of the 0.1 m fallen.
  constexpr double kRoundOff = 1e-14;
  for (int point = 0; point < 3; ++point)
    EXPECT_NEAR(x[3 * point + 1], initial_y[point] + y, kRoundOff) << "point " << point;
}

TEST_F(CollisionModels, AreGivenToTheDetectionWithAPipeline) {
  // With a pipeline and its contact manager the four models are read (the points start 1 m
  // apart or more, beyond any contact distance here); CompositeCollisionPipeline is not one
  // Fluxion has.
  for (const std::string pipeline : {"CollisionPipeline", "DefaultPipeline"}) {
    Simulation simulation = LoadScene(
        Scene("<" + pipeline + "/> <BruteForceDetection/> <CollisionResponse/>"), "collides.scn");
    EXPECT_EQ(simulation.collision_models().size(), 4u) << pipeline;
  }
  EXPECT_THROW(LoadScene(Scene("<CompositeCollisionPipeline/>")), SceneError);
}

TEST_F(CollisionModels, FieldsAreValidatedAsAnyComponent) {
  const auto first_error = [](const std::string& attributes) {
    try {
      LoadScene(R"(<Node name="root">
  <EulerExplicitSolver/>
  <Node name="body">
    <MechanicalObject position="0 0 0"/>
    <UniformMass vertexMass="1"/>
    <PointCollisionModel )" +
                    attributes + R"(/>
  </Node>
</Node>)",
                "fields.scn");
    } catch (const SceneError& error) {
      return error.diagnostics().at(0).Format();
    }
    return std::string("loaded");
  };
  EXPECT_THAT(first_error(R"(contactStifness="10")"),
              HasSubstr("fields.scn:6: unknown attribute 'contactStifness'"));
  EXPECT_THAT(first_error(R"(contactStifness="10")"), HasSubstr("contactStiffness"));
  EXPECT_THAT(first_error(R"(moving="perhaps")"), HasSubstr("fields.scn:6:"));
  EXPECT_THAT(first_error(R"(moving="perhaps")"), HasSubstr("'moving'"));
  EXPECT_THAT(first_error(R"(group="-1")"), HasSubstr("'group'"));
  // A field of another collision model is not one of this one's: SOFA's PointCollisionModel
  // has none either, so SOFA's rule applies, a warning (docs/scene-format.md).
  ExpectWarnings(1);
  EXPECT_EQ(first_error(R"(listRadius="0.1")"), "loaded");
  EXPECT_EQ(first_error(R"(name="points" moving="0" tags="x" printLog="1")"), "loaded");
}

TEST_F(CollisionModels, OldNamesAreRefusedAsInSofa) {
  // TriangleModel, TPointModel…: removed in SOFA v20.06 (helper/ComponentChange.cpp).
  for (const std::string old : {"TriangleModel", "LineModel", "PointModel", "SphereModel"}) {
    EXPECT_THROW(LoadScene(R"(<Node name="root">
  <Node name="body">
    <MechanicalObject position="0 0 0"/>
    <)" + old + R"(/>
  </Node>
</Node>)"),
                 SceneError)
        << old;
  }
}

TEST_F(CollisionModels, ScenesSayTheyAreInert) {
  const std::string scene = ::testing::TempDir() + "inert_collision_models.scn";
  std::ofstream(scene) << Scene("");
  const testing::CommandResult run = testing::RunCommand(
      testing::SceneRunner() + " " + scene + " --steps 2 --log-level info -o /dev/null");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("inert_collision_models.scn:8: <TriangleCollisionModel> is inert: "
                                 "the scene has no collision pipeline"));
  EXPECT_THAT(run.err, HasSubstr(":11: <SphereCollisionModel> is inert"));
}

}  // namespace
}  // namespace fluxion
