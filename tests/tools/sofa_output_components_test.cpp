// A SOFA scene that writes results with VTKExporter, WriteState and Monitor, as a SOFA user
// writes it (SOFA's plugin names, visual components), run unmodified by scene-runner: the files
// get SOFA's names and layouts (VTKExporter.cpp writeVTKXML, WriteState.inl, SofaValidation's
// Monitor.inl) and are created only below --output-dir.
//
// The cloth of scenes/cloth_grid.scn, 10 steps of dt = 0.001, its corners 0 and 7 fixed at
// (0, 0, 0) and (1, 0, 0): the Monitor's lines for them are known exactly.
#include <gmock/gmock.h>

#include <filesystem>
#include <set>
#include <tuple>

#include "runner_test_helpers.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;

const char* kSofaScene = R"(<?xml version="1.0"?>
<Node name="root" gravity="0 -9.81 0" dt="0.001">
  <RequiredPlugin name="Sofa.Component.IO.Mesh"/>
  <RequiredPlugin name="Sofa.Component.Playback"/>
  <RequiredPlugin name="SofaValidation"/>
  <VisualStyle displayFlags="showBehaviorModels showForceFields"/>
  <DefaultAnimationLoop/>
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology name="grid" n="8 1 8" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 7"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.5"/>
    <VTKExporter filename="cloth" exportEveryNumberOfSteps="5" edges="1" quads="1"
                 pointsDataFields="dofs.velocity"/>
    <WriteState filename="cloth.state" writeX="1" writeV="1" period="0.005"/>
    <Monitor name="corners" indices="0 7" ExportPositions="1" ExportVelocities="1"
             showPositions="1" PositionsColor="1 1 0 1"/>
  </Node>
</Node>
)";

// Every file below `root`, as paths relative to it.
std::set<std::string> FilesBelow(const std::filesystem::path& root) {
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
    files.insert(entry.path().lexically_relative(root).string());
  return files;
}

TEST(SofaOutputComponents, WriteSofasFilesOnlyBelowTheOutputFolder) {
  const testing::ScratchFolder folder;
  const std::string scene = folder.Write("scene.scn", kSofaScene);
  std::filesystem::create_directory(folder.path() / "out");
  // Run from the scratch folder, so that a file written relative to the working folder (where
  // SOFA would write) would show up next to the scene.
  const testing::CommandResult result = testing::RunCommand(
      "cd " + testing::ShellQuote(folder.path().string()) + " && timeout 120 env -u " +
      "FLUXION_PLUGIN_PATH " + testing::ShellQuote(testing::SceneRunner()) +
      " scene.scn --steps 10 --output-dir out --output run.csv");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(
      FilesBelow(folder.path()),
      (std::set<std::string>{"scene.scn", "run.csv", "out", "out/cloth0.vtu", "out/cloth1.vtu",
                             "out/cloth.state", "out/corners_x.txt", "out/corners_v.txt"}));

  // VTKExporter: SOFA's XML layout, numbered from 0 (after steps 5 and 10).
  EXPECT_THAT(testing::ReadFile(folder / "out/cloth0.vtu"),
              StartsWith("<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" "
                         "byte_order=\"BigEndian\">\n  <UnstructuredGrid>\n    <Piece "
                         "NumberOfPoints=\"64\" NumberOfCells=\"210\">\n"));
  // WriteState: a frame at 0, then every 0.005 s: t = 0, 0.005, 0.01.
  const std::vector<std::string> state =
      testing::Lines(testing::ReadFile(folder / "out/cloth.state"));
  ASSERT_EQ(state.size(), 9U);
  EXPECT_EQ(state[0], "T= 0");
  EXPECT_THAT(state[1], StartsWith("  X= 0 0 0 0.14285714285714285 0 0 "));
  EXPECT_THAT(state[2], StartsWith("  V= 0 0 0 0 0 0 "));
  EXPECT_THAT(state[3], StartsWith("T= 0.005"));
  // Monitor: SOFA's two comment lines, then one line per step for the fixed corners.
  for (const auto& [file, what, corner7] :
       {std::tuple{"out/corners_x.txt", "positions", "1 0 0"},
        std::tuple{"out/corners_v.txt", "velocities", "0 0 0"}}) {
    const std::vector<std::string> lines = testing::Lines(testing::ReadFile(folder / file));
    ASSERT_EQ(lines.size(), 12U) << file;
    EXPECT_EQ(lines[0], std::string("# Gnuplot File : ") + what + " of 2 particle(s) Monitored");
    EXPECT_EQ(lines[1], "# 1st Column : time, others : particle(s) number 0 7 ");
    EXPECT_EQ(lines[2], std::string("0.001\t0 0 0\t") + corner7 + "\t");
    for (std::size_t k = 3; k < lines.size(); ++k)
      EXPECT_THAT(lines[k], ::testing::EndsWith(std::string("\t0 0 0\t") + corner7 + "\t"))
          << file << " line " << k;
  }
}

}  // namespace
}  // namespace fluxion
