// Shared helpers for Fluxion's tests: load inline XML scenes with the build tree's plugins, and
// fail a test that logs an unexpected warning or error.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::testing {

/// The build tree's plugin folder (or $FLUXION_TEST_PLUGIN_DIR).
std::string PluginDirectory();

/// A host with the built-in components and every plugin of PluginDirectory() (and no other
/// folder), loaded once.
const Host& TestHost();

/// Builds the simulation of an inline XML scene (throws SceneError/PluginError as the runner
/// would).
Simulation LoadScene(const std::string& xml, const std::string& file_name = "inline.scn");

/// The numbers of the data `link` ("name.data", relative to the root node) of the components
/// written in `body`, read back through a link: `body` goes into a root node (no gravity, an
/// explicit solver) beside a probe node whose Vec1 MechanicalObject takes position="@../link".
/// For engines and topologies, whose outputs have no other way out of a scene.
std::vector<double> DataOutput(const std::string& body, const std::string& link);

/// Expects loading the inline XML scene to fail with a SceneError whose message contains
/// `expected` (a test failure otherwise, naming what was expected).
void ExpectSceneError(const std::string& xml, const std::string& expected);

/// What loading an inline XML scene reports: each problem as SceneDiagnostic::Format() prints it
/// (empty when the scene loads).
std::vector<std::string> LoadErrors(const std::string& xml,
                                    const std::string& file_name = "inline.scn",
                                    const LoadOptions& options = {});

/// The text of the gallery scene scenes/`name` (fails the test if it cannot be read).
std::string GallerySceneText(const std::string& name);

/// Runs a command through /bin/sh, capturing stdout and stderr; returns the exit status.
struct CommandResult {
  int status = -1;
  std::string out;
  std::string err;
};
CommandResult RunCommand(const std::string& command);

/// Path of the scene-runner executable under test.
std::string SceneRunner();

/// Fails the test if a warning or error was logged that the test did not announce with
/// ExpectWarnings(n).
class QuietTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  void ExpectWarnings(int count) { expected_warnings_ = count; }

 private:
  int expected_warnings_ = 0;
};

}  // namespace fluxion::testing
