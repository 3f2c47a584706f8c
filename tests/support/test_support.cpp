#include "support/test_support.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "fluxion/errors.h"
#include "fluxion/log.h"

namespace fluxion::testing {

std::string PluginDirectory() {
  if (const char* env = std::getenv("FLUXION_TEST_PLUGIN_DIR"); env != nullptr && *env != '\0')
    return env;
  return FLUXION_TEST_PLUGIN_DIR;
}

const Host& TestHost() {
  // Never destroyed: simulations and solvers made in tests may outlive any scope.
  static const Host* host = [] {
    HostOptions options;
    options.default_plugin_directories = false;
    options.plugin_directories = {PluginDirectory()};
    return new Host(options);
  }();
  return *host;
}

Simulation LoadScene(const std::string& xml, const std::string& file_name) {
  return TestHost().LoadString(xml, file_name);
}

std::vector<double> DataOutput(const std::string& body, const std::string& link) {
  const Simulation simulation = LoadScene(R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + body + R"(
  <Node name="probe">
    <MechanicalObject template="Vec1" position="@../)" +
                                          link + R"("/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)");
  const Vector& x = simulation.objects().back().position;
  return {x.data(), x.data() + x.size()};
}

void ExpectSceneError(const std::string& xml, const std::string& expected) {
  try {
    LoadScene(xml);
    ADD_FAILURE() << "no error for: " << expected;
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos)
        << "expected the message to contain: " << expected << "\n  got: " << error.what();
  }
}

std::vector<std::string> LoadErrors(const std::string& xml, const std::string& file_name,
                                    const LoadOptions& options) {
  try {
    TestHost().LoadString(xml, file_name, options);
  } catch (const SceneError& error) {
    std::vector<std::string> messages;
    for (const SceneDiagnostic& diagnostic : error.diagnostics())
      messages.push_back(diagnostic.Format());
    return messages;
  }
  return {};
}

std::string GallerySceneText(const std::string& name) {
  const std::string path = std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  const std::string err_file =
      ::testing::TempDir() + "fluxion_stderr_" + std::to_string(::getpid());
  std::FILE* pipe = ::popen((command + " 2>" + err_file).c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t read = 0;
  while ((read = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.out.append(buffer.data(), read);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::ostringstream text;
  text << err.rdbuf();
  result.err = text.str();
  std::remove(err_file.c_str());
  return result;
}

std::string SceneRunner() { return FLUXION_SCENE_RUNNER; }

void QuietTest::SetUp() { ResetWarningCount(); }

void QuietTest::TearDown() {
  EXPECT_EQ(WarningCount(), expected_warnings_) << "unexpected warning or error log lines";
}

}  // namespace fluxion::testing
