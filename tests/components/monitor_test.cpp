// SOFA's Monitor as a Fluxion observer (components/monitor.h): its gnuplot files read back and
// compared with files written by hand in the layout of SOFA's Monitor::initGnuplot and
// exportGnuplot (SofaValidation/Monitor.inl; the text SofaValidation_test/Monitor_test.cpp
// expects), for a two-step run computed by hand.
//
// The scene: three points of unit mass under g = (0, -2, 0), dt = 0.5, EulerExplicitSolver
// (symplectic Euler: v ← v + h·f/m, x ← x + h·v), point 2 also pushed up by a constant 1 N.
// Every number is a short binary fraction, so the hand recursion is exact:
//   points 0 and 1: f = (0, -2, 0);  step 1: v_y = -1, y = -0.5;  step 2: v_y = -2, y = -1.5
//   point 2 (y0 = 1): f = (0, -1, 0); step 1: v_y = -0.5, y = 0.75; step 2: v_y = -1, y = 0.25
// Time after step 1: 0.5, after step 2: 1.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "output_folder.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;

std::string MonitoredScene(const std::string& monitor) {
  return R"(<Node name="root" dt="0.5" gravity="0 -2 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField indices="2" forces="0 1 0"/>
  )" + monitor +
         R"(
</Node>)";
}

class MonitorFiles : public testing::OutputFolderTest {};

TEST_F(MonitorFiles, WritesSofasGnuplotFilesAfterEveryStep) {
  Simulation simulation = LoadScene(MonitoredScene(
      R"(<Monitor name="probe" fileName="falling" indices="2 0" ExportPositions="1"
         ExportVelocities="1" ExportForces="1" showPositions="1" showTrajectories="1"/>)"));
  simulation.Run(2);
  simulation.Finish();
  EXPECT_THAT(Files(), ElementsAre("falling_f.txt", "falling_v.txt", "falling_x.txt"));
  // Two comment lines, then "time\t" and "x y z\t" per monitored point, in the order of indices.
  EXPECT_EQ(Read("falling_x.txt"),
            "# Gnuplot File : positions of 2 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 2 0 \n"
            "0.5\t0 0.75 0\t0 -0.5 0\t\n"
            "1\t0 0.25 0\t0 -1.5 0\t\n");
  EXPECT_EQ(Read("falling_v.txt"),
            "# Gnuplot File : velocities of 2 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 2 0 \n"
            "0.5\t0 -0.5 0\t0 -1 0\t\n"
            "1\t0 -1 0\t0 -2 0\t\n");
  EXPECT_EQ(Read("falling_f.txt"),
            "# Gnuplot File : forces of 2 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 2 0 \n"
            "0.5\t0 -1 0\t0 -2 0\t\n"
            "1\t0 -1 0\t0 -2 0\t\n");
}

TEST_F(MonitorFiles, WritesSixSignificantDigitsAsSofa) {
  // dt = 0.1: the time after 3 steps is 0.1 + 0.1 + 0.1 = 0.30000000000000004 in double, which
  // SOFA's stream prints "0.3". Symplectic Euler under g_y = -2: after step k, v_y = -0.2 k and
  // y = -0.02 (1 + … + k): -0.02, -0.06, -0.12 (each a few ulps off in double, printed short).
  // x stays at 1/3, printed 0.333333.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 -2 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0.3333333333333333 0 0"/>
  <UniformMass vertexMass="1"/>
  <Monitor name="m" indices="0" ExportPositions="1"/>
</Node>)");
  simulation.Run(3);
  EXPECT_EQ(Read("m_x.txt"),
            "# Gnuplot File : positions of 1 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 0 \n"
            "0.1\t0.333333 -0.02 0\t\n"
            "0.2\t0.333333 -0.06 0\t\n"
            "0.3\t0.333333 -0.12 0\t\n");
}

TEST_F(MonitorFiles, CreatesItsFilesWhenLoadedNamedAfterTheComponent) {
  // No fileName: SOFA's default is the component's name. The header is written at init, before
  // any step; only the exported quantities get a file.
  Simulation simulation =
      LoadScene(MonitoredScene(R"(<Monitor indices="1" ExportVelocities="1"/>)"));
  EXPECT_THAT(Files(), ElementsAre("Monitor_v.txt"));
  EXPECT_EQ(Read("Monitor_v.txt"),
            "# Gnuplot File : velocities of 1 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 1 \n");
  simulation.Step();
  EXPECT_EQ(Read("Monitor_v.txt"),
            "# Gnuplot File : velocities of 1 particle(s) Monitored\n"
            "# 1st Column : time, others : particle(s) number 1 \n"
            "0.5\t0 -1 0\t\n");
}

TEST_F(MonitorFiles, WithoutExportWritesNothing) {
  Simulation simulation = LoadScene(MonitoredScene(R"(<Monitor indices="0" showForces="1"/>)"));
  simulation.Run(2);
  EXPECT_TRUE(Files().empty());
}

TEST_F(MonitorFiles, RefusesAnIndexOutOfRange) {
  try {
    (void)LoadScene(MonitoredScene(R"(<Monitor indices="0 3" ExportPositions="1"/>)"), "m.scn");
    FAIL() << "index 3 of a 3-point object was accepted";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_EQ(error.diagnostics()[0].line, 6);
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("index 3 is out of range"));
  }
  EXPECT_TRUE(Files().empty());
}

TEST_F(MonitorFiles, FollowsTheOutputPolicy) {
  // An existing file is kept, refused at the Monitor's line.
  { std::ofstream(folder_ / "keep_x.txt") << "precious"; }
  try {
    (void)LoadScene(MonitoredScene(R"(<Monitor fileName="keep" indices="0" ExportPositions="1"/>)"),
                    "m.scn");
    FAIL() << "an existing file was replaced";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1U);
    EXPECT_THAT(error.diagnostics()[0].Format(),
                ::testing::StartsWith("m.scn:6: Monitor cannot open 'keep_x.txt'"));
    EXPECT_THAT(error.diagnostics()[0].message, HasSubstr("already exists"));
  }
  EXPECT_EQ(Read("keep_x.txt"), "precious");
  // A name leaving the output folder.
  EXPECT_THROW((void)LoadScene(MonitoredScene(
                   R"(<Monitor fileName="../escape" indices="0" ExportPositions="1"/>)")),
               SceneError);
  EXPECT_FALSE(std::filesystem::exists(folder_.parent_path() / "escape_x.txt"));
}

}  // namespace
}  // namespace fluxion
