// Plugin loading: the Host in process, then scene-runner end to end. Covers a bundled
// plugin found, a plugin missing, an ABI mismatch, a duplicate component, drop-ins from
// --plugin-dir and FLUXION_PLUGIN_PATH, a library that is not a plugin, a registration that
// throws, --list-plugins (text and JSON), RequiredPlugin, and that scene-runner links no solver.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/version.h"
#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The folder of one test plugin case (tests/plugins/test_plugins/CMakeLists.txt), under
// $FLUXION_TEST_PLUGINS_ROOT when set.
std::string TestPluginFolder(const std::string& plugin_case) {
  const char* env = std::getenv("FLUXION_TEST_PLUGINS_ROOT");
  const std::string root = env != nullptr && *env != '\0' ? env : FLUXION_TEST_PLUGINS_ROOT;
  return root + "/" + plugin_case;
}

// The library file of one test plugin case.
std::string TestPluginFile(const std::string& plugin_case) {
  const std::string file = plugin_case == "not_a_plugin" ? "fluxion_not_a_plugin.so"
                                                         : "fluxion_test_" + plugin_case + ".so";
  return TestPluginFolder(plugin_case) + "/" + file;
}

// The record of the plugin file `file_name` (e.g. "fluxion_test_drop_in.so"), or nullptr.
const PluginInfo* RecordOf(const Host& host, const std::string& file_name) {
  for (const PluginInfo& record : host.plugins())
    if (fs::path(record.path).filename() == file_name) return &record;
  return nullptr;
}

// Sets an environment variable for the scope of a test and restores it afterwards.
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const std::string& value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// A one-point oscillator integrated by `solver`, with `extra` (e.g. a RequiredPlugin) on line 2
// and the solver on line 3.
std::string OscillatorScene(const std::string& solver, const std::string& extra = "") {
  std::string scene = R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  EXTRA
  <SOLVER/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0.5 0.8"/>
</Node>
)";
  scene.replace(scene.find("EXTRA"), 5, extra);
  scene.replace(scene.find("SOLVER"), 6, solver);
  return scene;
}

// --- In process: Host ----------------------------------------------------------------------------

// A host searching only `directories` (as --plugin-dir folders), or also the default folders
// (bundled, then $FLUXION_PLUGIN_PATH) when `defaults` is set.
Host MakeHost(std::vector<std::filesystem::path> directories, bool defaults = false) {
  HostOptions options;
  options.default_plugin_directories = defaults;
  options.plugin_directories = std::move(directories);
  return Host(options);
}

using PluginLoaderTest = QuietTest;

TEST_F(PluginLoaderTest, BundledPluginIsFoundNextToTheFrameworkLibrary) {
  EXPECT_EQ(fs::weakly_canonical(Host::BundledPluginDirectory()),
            fs::weakly_canonical(FLUXION_TEST_PLUGIN_DIR));
  const Host host = MakeHost({}, /*defaults=*/true);
  ASSERT_FALSE(host.plugin_directories().empty());
  EXPECT_EQ(host.plugin_directories().front().second, "bundled");
  const PluginInfo* record = host.FindPlugin("euler_explicit");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(host.FindPlugin("fluxion_euler_explicit"), record);
  EXPECT_EQ(record->abi_version, static_cast<unsigned>(FLUXION_ABI_VERSION));
  EXPECT_FALSE(record->version.empty());
  EXPECT_EQ(record->source, "bundled");
  EXPECT_THAT(record->components, ::testing::Contains("EulerExplicitSolver"));
  const ComponentInfo* entry = host.FindComponent("EulerExplicitSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->origin, record->path);
  EXPECT_EQ(entry->plugin_name, "euler_explicit");
  EXPECT_EQ(entry->spec.kind, ComponentKind::kOdeSolver);
}

TEST_F(PluginLoaderTest, SearchPathIsBundledThenEnvironmentThenPluginDir) {
  ScratchFolder scratch;
  fs::create_directories(scratch.path() / "env1");
  fs::create_directories(scratch.path() / "env2");
  fs::create_directories(scratch.path() / "cli");
  const ScopedEnvironment path("FLUXION_PLUGIN_PATH", scratch / "env1" + ":" + scratch / "env2");
  const Host host = MakeHost({scratch.path() / "cli"}, /*defaults=*/true);
  ASSERT_EQ(host.plugin_directories().size(), 4u);
  EXPECT_EQ(host.plugin_directories()[0].second, "bundled");
  EXPECT_EQ(host.plugin_directories()[1].first, fs::weakly_canonical(scratch.path() / "env1"));
  EXPECT_EQ(host.plugin_directories()[1].second, "FLUXION_PLUGIN_PATH");
  EXPECT_EQ(host.plugin_directories()[2].first, fs::weakly_canonical(scratch.path() / "env2"));
  EXPECT_EQ(host.plugin_directories()[3].first, fs::weakly_canonical(scratch.path() / "cli"));
  EXPECT_EQ(host.plugin_directories()[3].second, "--plugin-dir");
}

TEST_F(PluginLoaderTest, MissingExplicitFolderIsAProblem) {
  const Host host = MakeHost({"/nonexistent/fluxion/plugins"});
  EXPECT_TRUE(host.has_plugin_failures());
  ASSERT_EQ(host.plugin_directory_problems().size(), 1u);
  EXPECT_THAT(host.plugin_directory_problems()[0], HasSubstr("/nonexistent/fluxion/plugins"));
}

TEST_F(PluginLoaderTest, AbiMismatchIsRefusedNamingBothVersions) {
  ExpectWarnings(1);
  const Host host = MakeHost({TestPluginFolder("abi_mismatch")});
  const PluginInfo* record = RecordOf(host, "fluxion_test_abi_mismatch.so");
  ASSERT_NE(record, nullptr);
  EXPECT_FALSE(record->loaded);
  EXPECT_EQ(record->abi_version, 999u);
  EXPECT_THAT(record->error, HasSubstr("ABI version 999"));
  EXPECT_THAT(record->error, HasSubstr("ABI version " + std::to_string(FLUXION_ABI_VERSION)));
  EXPECT_EQ(host.FindComponent("AbiMismatchSolver"), nullptr);
  EXPECT_TRUE(host.has_plugin_failures());
}

TEST_F(PluginLoaderTest, DuplicateComponentIsRefusedNamingBothFiles) {
  ExpectWarnings(1);
  // The build tree's plugins first (as the bundled folder would be), then the duplicate.
  const Host host = MakeHost({PluginDirectory(), TestPluginFolder("duplicate_component")});
  const PluginInfo* original = host.FindPlugin("euler_explicit");
  const PluginInfo* duplicate = RecordOf(host, "fluxion_test_duplicate_component.so");
  ASSERT_NE(original, nullptr);
  ASSERT_NE(duplicate, nullptr);
  EXPECT_FALSE(duplicate->loaded);
  EXPECT_THAT(duplicate->error, HasSubstr("EulerExplicitSolver"));
  EXPECT_THAT(duplicate->error, HasSubstr(original->path));
  // The first registration stays in force.
  ASSERT_NE(host.FindComponent("EulerExplicitSolver"), nullptr);
  EXPECT_EQ(host.FindComponent("EulerExplicitSolver")->origin, original->path);
}

TEST_F(PluginLoaderTest, LibraryWithoutDescriptorIsRefused) {
  ExpectWarnings(1);
  const Host host = MakeHost({TestPluginFolder("not_a_plugin")});
  const PluginInfo* record = RecordOf(host, "fluxion_not_a_plugin.so");
  ASSERT_NE(record, nullptr);
  EXPECT_FALSE(record->loaded);
  EXPECT_THAT(record->error, HasSubstr("not a Fluxion plugin"));
}

TEST_F(PluginLoaderTest, ThrowingRegistrationIsRefusedWithNoComponentKept) {
  ExpectWarnings(1);
  const Host host = MakeHost({TestPluginFolder("throwing_registration")});
  const PluginInfo* record = RecordOf(host, "fluxion_test_throwing_registration.so");
  ASSERT_NE(record, nullptr);
  EXPECT_FALSE(record->loaded);
  EXPECT_THAT(record->error, HasSubstr("registration failed on purpose"));
  EXPECT_EQ(host.FindComponent("ThrowingSolver"), nullptr);
}

TEST_F(PluginLoaderTest, BadFilesDoNotStopTheOthersFromLoading) {
  ExpectWarnings(3);
  ScratchFolder scratch;
  for (const char* plugin_case :
       {"not_a_plugin", "abi_mismatch", "throwing_registration", "drop_in"})
    fs::copy_file(TestPluginFile(plugin_case),
                  scratch.path() / fs::path(TestPluginFile(plugin_case)).filename());
  const Host host = MakeHost({scratch.path()});
  EXPECT_EQ(host.plugins().size(), 4u);
  ASSERT_NE(host.FindPlugin("test_drop_in"), nullptr);
  EXPECT_NE(host.FindComponent("DropInSolver"), nullptr);
}

TEST_F(PluginLoaderTest, DropInFromPluginPathEnvironment) {
  ScratchFolder scratch;
  fs::create_directories(scratch.path() / "empty");
  const ScopedEnvironment path("FLUXION_PLUGIN_PATH",
                               scratch / "empty" + ":" + TestPluginFolder("drop_in"));
  const Host host = MakeHost({}, /*defaults=*/true);
  const PluginInfo* record = host.FindPlugin("test_drop_in");
  ASSERT_NE(record, nullptr);
  EXPECT_EQ(record->source, "FLUXION_PLUGIN_PATH");
  EXPECT_EQ(record->version, "2.3.4");
  EXPECT_NE(host.FindComponent("DropInSolver"), nullptr);
}

// --- End to end: scene-runner -------------------------------------------------------------------

TEST(PluginLoadingEndToEnd, BundledPluginRunsAScene) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 5 -q");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(Lines(result.out).size(), 7u);  // header + steps 0..5
}

// Must-show 3, literally: in a copy of the build's bin/ and lib/ trees, deleting the plugin makes
// the scene fail with exit 3 and a clear message; copying it into another folder and pointing
// --plugin-dir there makes it work again, with the same trajectory.
TEST(PluginLoadingEndToEnd, DeletedPluginFailsAndWorksAgainFromPluginDir) {
  ScratchFolder scratch;
  const fs::path build_bin = fs::path(SceneRunner()).parent_path();
  const fs::path build_lib = build_bin.parent_path() / "lib";
  const fs::path prefix = scratch.path() / "prefix";
  fs::create_directories(prefix);
  fs::copy(build_bin, prefix / "bin",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::copy(build_lib, prefix / "lib",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const std::string runner = (prefix / "bin" / fs::path(SceneRunner()).filename()).string();
  const fs::path plugin = prefix / "lib" / "fluxion" / "plugins" / "fluxion_euler_explicit.so";
  ASSERT_TRUE(fs::exists(plugin));
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));

  // The copy is self-contained: its bundled folder is the copy's, not the build tree's.
  const CommandResult listing = RunSceneRunner("--list-plugins", "", runner);
  ASSERT_EQ(listing.status, 0) << listing.err;
  EXPECT_THAT(listing.out, HasSubstr(plugin.string()));
  const CommandResult before = RunSceneRunner(ShellQuote(scene) + " --steps 20 -q", "", runner);
  ASSERT_EQ(before.status, 0) << before.err;

  fs::create_directories(scratch.path() / "elsewhere");
  fs::copy_file(plugin, scratch.path() / "elsewhere" / plugin.filename());
  fs::remove(plugin);
  const CommandResult missing = RunSceneRunner(ShellQuote(scene) + " --steps 20 -q", "", runner);
  EXPECT_EQ(missing.status, 3) << missing.err;
  EXPECT_EQ(missing.out, "");
  ASSERT_EQ(Lines(missing.err).size(), 1u) << missing.err;
  EXPECT_THAT(missing.err, HasSubstr("EulerExplicitSolver"));
  EXPECT_THAT(missing.err, HasSubstr("fluxion_euler_explicit.so"));
  EXPECT_THAT(missing.err, HasSubstr(scene + ":3:"));

  const CommandResult after = RunSceneRunner(
      ShellQuote(scene) + " --steps 20 -q --plugin-dir " + ShellQuote(scratch / "elsewhere"), "",
      runner);
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(after.out, before.out);
}

TEST(PluginLoadingEndToEnd, AbiMismatchExits3NamingTheFileAndBothVersions) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q --plugin-dir " +
                                              ShellQuote(TestPluginFolder("abi_mismatch")));
  EXPECT_EQ(result.status, 3);
  EXPECT_EQ(result.out, "");
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("error: "));
  EXPECT_THAT(result.err, HasSubstr(TestPluginFile("abi_mismatch")));
  EXPECT_THAT(result.err, HasSubstr("ABI version 999"));
  EXPECT_THAT(result.err, HasSubstr("ABI version " + std::to_string(FLUXION_ABI_VERSION)));
}

TEST(PluginLoadingEndToEnd, DuplicateComponentExits3NamingBothFiles) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q --plugin-dir " +
                                              ShellQuote(TestPluginFolder("duplicate_component")));
  EXPECT_EQ(result.status, 3);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("EulerExplicitSolver"));
  EXPECT_THAT(result.err, HasSubstr(TestPluginFile("duplicate_component")));
  EXPECT_THAT(result.err, HasSubstr("fluxion_euler_explicit.so"));
}

TEST(PluginLoadingEndToEnd, DropInFromPluginDirWorksWithNoRebuild) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("DropInSolver"));
  // Without the plugin, and nothing in the scene naming it: an unknown component (exit 2), whose
  // message says how to add the plugin's folder.
  const CommandResult without = RunSceneRunner(ShellQuote(scene) + " -q --steps 10");
  EXPECT_EQ(without.status, 2) << without.err;
  EXPECT_THAT(without.err, HasSubstr("unknown component 'DropInSolver'"));
  EXPECT_THAT(without.err, HasSubstr("--plugin-dir DIR or FLUXION_PLUGIN_PATH"));

  fs::create_directories(scratch.path() / "dropins");
  fs::copy_file(TestPluginFile("drop_in"), scratch.path() / "dropins" / "fluxion_test_drop_in.so");
  const CommandResult with = RunSceneRunner(ShellQuote(scene) + " -q --steps 10 --plugin-dir " +
                                            ShellQuote(scratch / "dropins"));
  EXPECT_EQ(with.status, 0) << with.err;
  // The drop-in is semi-implicit Euler, the same method as EulerExplicitSolver's default.
  const std::string reference =
      scratch.Write("reference.scn", OscillatorScene("EulerExplicitSolver"));
  const CommandResult expected = RunSceneRunner(ShellQuote(reference) + " -q --steps 10");
  ASSERT_EQ(expected.status, 0) << expected.err;
  EXPECT_EQ(with.out, expected.out);
}

TEST(PluginLoadingEndToEnd, DropInFromColonSeparatedPluginPath) {
  ScratchFolder scratch;
  fs::create_directories(scratch.path() / "empty");
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("DropInSolver"));
  const std::string path = scratch / "empty" + ":" + TestPluginFolder("drop_in");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q --steps 10",
                                              "FLUXION_PLUGIN_PATH=" + ShellQuote(path));
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(Lines(result.out).size(), 12u);
  const CommandResult listing =
      RunSceneRunner("--list-plugins", "FLUXION_PLUGIN_PATH=" + ShellQuote(path));
  EXPECT_THAT(listing.out, HasSubstr("(FLUXION_PLUGIN_PATH)"));
  EXPECT_THAT(listing.out, HasSubstr(TestPluginFile("drop_in")));
}

TEST(PluginLoadingEndToEnd, LibraryWithoutDescriptorIsRefusedWithAReason) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));
  const std::string dir = " --plugin-dir " + ShellQuote(TestPluginFolder("not_a_plugin"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q" + dir);
  EXPECT_EQ(result.status, 3);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr(TestPluginFile("not_a_plugin")));
  EXPECT_THAT(result.err, HasSubstr("not a Fluxion plugin"));
  // The refusal is an error unless the user chooses to run without that file.
  const CommandResult ignored =
      RunSceneRunner(ShellQuote(scene) + " -q --steps 3 --ignore-plugin-errors" + dir);
  EXPECT_EQ(ignored.status, 0) << ignored.err;
}

TEST(PluginLoadingEndToEnd, ThrowingRegistrationExits3WithItsMessage) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver"));
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " -q --plugin-dir " +
                     ShellQuote(TestPluginFolder("throwing_registration")));
  EXPECT_EQ(result.status, 3);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr(TestPluginFile("throwing_registration")));
  EXPECT_THAT(result.err, HasSubstr("registration failed on purpose"));
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;
}

TEST(PluginLoadingEndToEnd, ListPluginsShowsNameVersionAbiPathAndComponents) {
  const CommandResult result =
      RunSceneRunner("--list-plugins --plugin-dir " + ShellQuote(TestPluginFolder("drop_in")));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("plugin ABI " + std::to_string(FLUXION_ABI_VERSION)));
  EXPECT_THAT(result.out, HasSubstr("euler_explicit"));
  EXPECT_THAT(result.out, HasSubstr("EulerExplicitSolver"));
  EXPECT_THAT(result.out, HasSubstr("(bundled)"));
  EXPECT_THAT(result.out,
              HasSubstr("test_drop_in 2.3.4  ABI " + std::to_string(FLUXION_ABI_VERSION)));
  EXPECT_THAT(result.out, HasSubstr(TestPluginFile("drop_in")));
  EXPECT_THAT(result.out, HasSubstr("DropInSolver"));
  EXPECT_THAT(result.out, HasSubstr("(--plugin-dir)"));
}

TEST(PluginLoadingEndToEnd, ListPluginsJsonShowsLoadedAndRefusedPlugins) {
  const CommandResult result = RunSceneRunner(
      "--list-plugins --json --plugin-dir " + ShellQuote(TestPluginFolder("drop_in")) +
      " --plugin-dir " + ShellQuote(TestPluginFolder("abi_mismatch")) + " --plugin-dir " +
      ShellQuote(TestPluginFolder("not_a_plugin")));
  ASSERT_EQ(result.status, 0) << result.err;
  const nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document.at("abi_version"), FLUXION_ABI_VERSION);
  EXPECT_EQ(document.at("fluxion_version"), FLUXION_VERSION_STRING);
  ASSERT_GE(document.at("search_path").size(), 4u);
  std::map<std::string, nlohmann::json> by_file;
  for (const nlohmann::json& plugin : document.at("plugins"))
    by_file[fs::path(plugin.at("path").get<std::string>()).filename().string()] = plugin;

  const nlohmann::json& bundled = by_file["fluxion_euler_explicit.so"];
  ASSERT_TRUE(bundled.is_object());
  EXPECT_EQ(bundled.at("name"), "euler_explicit");
  EXPECT_EQ(bundled.at("loaded"), true);
  EXPECT_EQ(bundled.at("abi_version"), FLUXION_ABI_VERSION);
  EXPECT_EQ(bundled.at("source"), "bundled");
  EXPECT_THAT(bundled.at("components").get<std::vector<std::string>>(),
              ::testing::Contains("EulerExplicitSolver"));

  const nlohmann::json& drop_in = by_file["fluxion_test_drop_in.so"];
  ASSERT_TRUE(drop_in.is_object());
  EXPECT_EQ(drop_in.at("name"), "test_drop_in");
  EXPECT_EQ(drop_in.at("version"), "2.3.4");
  EXPECT_EQ(drop_in.at("path"), TestPluginFile("drop_in"));
  EXPECT_EQ(drop_in.at("source"), "--plugin-dir");
  EXPECT_EQ(drop_in.at("loaded"), true);
  EXPECT_EQ(drop_in.at("components"), nlohmann::json::array({"DropInSolver"}));

  const nlohmann::json& abi = by_file["fluxion_test_abi_mismatch.so"];
  ASSERT_TRUE(abi.is_object());
  EXPECT_EQ(abi.at("loaded"), false);
  EXPECT_EQ(abi.at("abi_version"), 999);
  EXPECT_THAT(abi.at("error").get<std::string>(), HasSubstr("ABI version 999"));
  EXPECT_EQ(abi.at("components"), nlohmann::json::array());

  const nlohmann::json& not_plugin = by_file["fluxion_not_a_plugin.so"];
  ASSERT_TRUE(not_plugin.is_object());
  EXPECT_EQ(not_plugin.at("loaded"), false);
  EXPECT_THAT(not_plugin.at("error").get<std::string>(), HasSubstr("not a Fluxion plugin"));
}

TEST(PluginLoadingEndToEnd, RequiredPluginWithAPathIsRefused) {
  ScratchFolder scratch;
  for (const std::string name : {"../x", "/tmp/x", "a/b", "..", "a\\b"}) {
    const std::string scene = scratch.Write(
        "scene.scn",
        OscillatorScene("EulerExplicitSolver", "<RequiredPlugin name=\"" + name + "\"/>"));
    const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q");
    EXPECT_EQ(result.status, 2) << name;
    ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
    EXPECT_THAT(result.err, HasSubstr(scene + ":2: RequiredPlugin '" + name + "' is a path"));
  }
}

TEST(PluginLoadingEndToEnd, RequiredPluginMissingExits3) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write(
      "scene.scn",
      OscillatorScene("EulerExplicitSolver", R"(<RequiredPlugin pluginName="no_such_plugin"/>)"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q");
  EXPECT_EQ(result.status, 3);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr(scene + ":2: required plugin 'no_such_plugin' was not found"));
}

TEST(PluginLoadingEndToEnd, RequiredPluginAcceptsSofaModulesAndFluxionPlugins) {
  ScratchFolder scratch;
  for (const std::string required :
       {R"(<RequiredPlugin pluginName="Sofa.Component.ODESolver.Forward"/>)",
        R"(<RequiredPlugin name="Sofa.Component.Mass Sofa.Component.StateContainer"/>)",
        R"(<RequiredPlugin pluginName="euler_explicit"/>)",
        R"(<RequiredPlugin name="fluxion_euler_explicit"/>)"}) {
    const std::string scene =
        scratch.Write("scene.scn", OscillatorScene("EulerExplicitSolver", required));
    const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q --steps 2");
    EXPECT_EQ(result.status, 0) << required << "\n" << result.err;
  }
  const std::string scene = scratch.Write(
      "drop_in.scn",
      OscillatorScene("DropInSolver", R"(<RequiredPlugin pluginName="test_drop_in"/>)"));
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q --steps 2 --plugin-dir " +
                                              ShellQuote(TestPluginFolder("drop_in")));
  EXPECT_EQ(result.status, 0) << result.err;
}

// Must-show 3: the executable links no solver; solvers only come from plugin files at run time.
TEST(PluginLoadingEndToEnd, SceneRunnerLinksNoSolverLibrary) {
  const CommandResult ldd = RunCommand("ldd " + ShellQuote(SceneRunner()));
  ASSERT_EQ(ldd.status, 0) << ldd.err;
  EXPECT_THAT(ldd.out, HasSubstr("libfluxion"));
  EXPECT_THAT(ldd.out, ::testing::Not(HasSubstr("fluxion_")));
  for (const fs::directory_entry& entry : fs::directory_iterator(PluginDirectory()))
    EXPECT_THAT(ldd.out, ::testing::Not(HasSubstr(entry.path().filename().string())));
  const CommandResult framework = RunCommand(
      "ldd " +
      ShellQuote((fs::path(SceneRunner()).parent_path().parent_path() / "lib" / "libfluxion.so")
                     .string()));
  ASSERT_EQ(framework.status, 0) << framework.err;
  EXPECT_THAT(framework.out, ::testing::Not(HasSubstr("fluxion_")));
}

}  // namespace
}  // namespace fluxion::testing
