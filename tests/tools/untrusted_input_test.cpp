// Untrusted input, end to end (issue 11): one test per break of the promise that a scene or a
// command line cannot write what it should not, destroy an input, hang, or forge error lines.
// Each runs the real scene-runner in a scratch folder and checks the exit status, the one error
// line, and that every file the run must not touch is byte-for-byte what it was.
//
// Item 10's grid part (nx and nz without ny) is in tests/components/regular_grid_topology_test.cpp;
// item 12 (the sanitizer build's install test) is tests/install/out_of_tree_plugin_test.sh.
#include <dlfcn.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

namespace fs = std::filesystem;

constexpr const char* kFall = R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
</Node>
)";

// A variational symplectic run that asks to write its energy to `file`.
std::string EnergyScene(const std::string& file) {
  return R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <VariationalSymplecticSolver saveEnergyInFile="1" file=")" +
         file + R"(" rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 10 0 1"/>
</Node>
)";
}

// --- 1. a scene writes only fresh files below --output-dir --------------------------------------

TEST(UntrustedInput, SceneCannotReplaceAnExistingFile) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("energy.scn", EnergyScene("notes.txt"));
  const std::string notes = scratch.Write("notes.txt", "my notes\n");
  const CommandResult refused = RunSceneRunner(ShellQuote(scene) + " --steps 3 -q --output-dir " +
                                               ShellQuote(scratch.path().string()));
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_THAT(ErrorLines(refused), SizeIs(1)) << refused.err;
  EXPECT_THAT(refused.err, AllOf(HasSubstr("notes.txt"), HasSubstr("--overwrite")));
  EXPECT_EQ(ReadFile(notes), "my notes\n");

  // With --overwrite the user allows it: the file then holds the energy rows.
  const CommandResult allowed =
      RunSceneRunner(ShellQuote(scene) + " --steps 3 -q --overwrite " + "--output-dir " +
                     ShellQuote(scratch.path().string()));
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_NE(ReadFile(notes), "my notes\n");
}

TEST(UntrustedInput, SceneCannotWriteThroughASymbolicLinkOutOfTheOutputFolder) {
  ScratchFolder scratch;
  const std::string outside = scratch.Write("outside/victim.txt", "precious\n");
  fs::create_directories(scratch.path() / "out");
  fs::create_symlink(scratch.path() / "outside", scratch.path() / "out" / "escape");
  fs::create_symlink(outside, scratch.path() / "out" / "link.txt");
  const std::string out = scratch / "out";
  for (const std::string& file :
       std::vector<std::string>{"escape/new.txt", "link.txt", "../outside/new.txt", outside}) {
    const std::string scene = scratch.Write("energy.scn", EnergyScene(file));
    const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 3 -q --overwrite " +
                                                "--output-dir " + ShellQuote(out));
    EXPECT_EQ(result.status, 2) << file << ": " << result.err;
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << file << ": " << result.err;
  }
  EXPECT_EQ(ReadFile(outside), "precious\n");
  EXPECT_FALSE(fs::exists(scratch.path() / "outside" / "new.txt"));
}

TEST(UntrustedInput, SceneCannotWriteOverItself) {
  ScratchFolder scratch;
  const std::string text = EnergyScene("energy.scn");
  const std::string scene = scratch.Write("energy.scn", text);
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 3 -q --overwrite " + "--output-dir " +
                     ShellQuote(scratch.path().string()));
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_EQ(ReadFile(scene), text);
}

TEST(UntrustedInput, SceneWritesItsFileBelowTheOutputFolder) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("energy.scn", EnergyScene("sub/energy.txt"));
  fs::create_directories(scratch.path() / "out" / "sub");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 3 -q --output-dir " +
                                              ShellQuote(scratch / "out"));
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_FALSE(ReadFile(scratch / "out/sub/energy.txt").empty());
  EXPECT_FALSE(fs::exists(scratch.path() / "sub"));
}

// --- 2, 3, 4. outputs never destroy inputs; inputs are checked before the first step -------------

TEST(UntrustedInput, OutputCannotBeTheCompareReference) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  const std::string reference = scratch / "ref.csv";
  ASSERT_EQ(RunSceneRunner(scene + " --steps 5 -q -o " + ShellQuote(reference)).status, 0);
  const std::string before = ReadFile(reference);
  fs::create_hard_link(reference, scratch.path() / "alias.csv");
  for (const std::string& output : {reference, scratch / "alias.csv", scratch / "./ref.csv"}) {
    const CommandResult result = RunSceneRunner(
        scene + " --steps 5 -q --compare " + ShellQuote(reference) + " -o " + ShellQuote(output));
    EXPECT_EQ(result.status, 2) << output << ": " << result.out << result.err;
    EXPECT_THAT(result.out, Not(HasSubstr("MATCH")));
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
    EXPECT_EQ(ReadFile(reference), before) << output;
  }
}

TEST(UntrustedInput, OutputCannotBeTheScene) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("fall.scn", kFall);
  fs::create_symlink(scene, scratch.path() / "link.csv");
  for (const std::string& output : {scene, scratch / "link.csv"}) {
    const CommandResult result =
        RunSceneRunner(ShellQuote(scene) + " --steps 5 -q -o " + ShellQuote(output));
    EXPECT_EQ(result.status, 2) << output << ": " << result.err;
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
    EXPECT_EQ(ReadFile(scene), kFall);
  }
}

TEST(UntrustedInput, MissingReferenceFailsBeforeAnyStepAndKeepsTheOutput) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  const std::string existing = scratch.Write("existing.csv", "kept\n");
  // A million steps would take long: the refusal must come before the first one.
  const auto start = std::chrono::steady_clock::now();
  const CommandResult result =
      RunSceneRunner(scene + " --steps 100000000 -q --compare " +
                     ShellQuote(scratch / "missing.csv") + " -o " + ShellQuote(existing));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(result.err, HasSubstr("missing.csv"));
  EXPECT_LT(seconds, 20.0);
  EXPECT_EQ(ReadFile(existing), "kept\n");
  EXPECT_FALSE(fs::exists(existing + ".partial"));
}

// --- 5. the command line refuses NaN and out-of-range numbers ------------------------------------

TEST(UntrustedInput, CommandLineRefusesNanAndOutOfRangeNumbers) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  for (const char* option :
       {"--dt nan", "--dt -nan", "--dt inf", "--dt 1e400", "--dt -0.01", "--steps -1",
        "--steps 9223372036854775808", "--steps 99999999999999999999", "--every 0"}) {
    const std::string output = scratch / "out.csv";
    const CommandResult result =
        RunSceneRunner(scene + " " + option + " -q -o " + ShellQuote(output));
    EXPECT_EQ(result.status, 2) << option << ": " << result.err;
    EXPECT_THAT(result.err, Not(HasSubstr("internal error"))) << option;
    EXPECT_FALSE(fs::exists(output)) << option;
    EXPECT_FALSE(fs::exists(output + ".partial")) << option;
  }
}

// --- 6. a huge name: a fast refusal, echoed cut
// ---------------------------------------------------

TEST(UntrustedInput, HugeUnknownNameIsRefusedFastAndShownCut) {
  ScratchFolder scratch;
  const std::string name(20 * 1024 * 1024, 'Q');
  const std::string scene = scratch.Write(
      "huge.scn", "<Node name=\"root\">\n  <" + name + " value=\"" + name + "\"/>\n</Node>\n");
  const auto start = std::chrono::steady_clock::now();
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.status, 2) << result.err.substr(0, 300);
  EXPECT_LT(seconds, 20.0);  // was minutes: an edit distance over the whole name
  ASSERT_THAT(ErrorLines(result), SizeIs(1));
  EXPECT_LT(ErrorLines(result)[0].size(), 400u);
  EXPECT_THAT(result.err, Not(HasSubstr("did you mean")));
}

// --- 7. a FIFO or a device as the scene: refused at once
// ------------------------------------------

TEST(UntrustedInput, FifoAndDevicesAreRefusedWithoutBlocking) {
  ScratchFolder scratch;
  const std::string fifo = scratch / "scene.scn";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& scene : {fifo, std::string("/dev/zero")}) {
    const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
    EXPECT_EQ(result.status, 2) << scene << ": " << result.err;  // 124 would be the timeout
    EXPECT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
    EXPECT_THAT(result.err, HasSubstr("regular file"));
  }
}

// --- 8. one error, one line; no control bytes reach the terminal ---------------------------------

TEST(UntrustedInput, NewlinesAndEscapesInValuesCannotForgeLines) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("forge.scn", R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="x&#10;error: /etc/passwd:1: forged&#x1b;[2J"/>
</Node>
)");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0],
              AllOf(HasSubstr("forge.scn:4:"), HasSubstr("\\n"), HasSubstr("\\x1b")));
  EXPECT_EQ(result.err.find('\x1b'), std::string::npos);
  EXPECT_THAT(Lines(result.err), SizeIs(1));
}

TEST(UntrustedInput, NamesThatWouldBreakTheOutputAreRefused) {
  // The fuzzer's first finding (tests/fuzz/crashes/numerical_error_node_name.scn): a node name
  // holding a newline and an escape sequence reached the numerical-failure message raw — and the
  // CSV header, which it split. Node and object names now may not hold control characters or ','.
  ScratchFolder scratch;
  for (const std::string& name :
       {std::string("r&#10;oot&#x1b;[31m"), std::string("a,b"), std::string("tab&#9;")}) {
    const std::string scene = scratch.Write("names.scn", R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <Node name=")" + name + R"(">
    <MechanicalObject position="0 0 0"/>
    <UniformMass vertexMass="1"/>
  </Node>
  <MechanicalObject name=")" + name + R"(" position="0 0 0"/>
  <UniformMass vertexMass="1"/>
</Node>
)");
    const std::string output = scratch / "out.csv";
    const CommandResult result =
        RunSceneRunner(ShellQuote(scene) + " --steps 5 -q -o " + ShellQuote(output));
    EXPECT_EQ(result.status, 2) << result.err;
    ASSERT_THAT(Lines(result.err), SizeIs(2)) << result.err;  // the node and the object
    // The root's components are read before its children.
    EXPECT_THAT(Lines(result.err)[0], HasSubstr("names.scn:7: object name '"));
    EXPECT_THAT(Lines(result.err)[1], HasSubstr("names.scn:3: node name '"));
    EXPECT_EQ(result.err.find('\x1b'), std::string::npos);
    EXPECT_FALSE(fs::exists(output));
    EXPECT_FALSE(fs::exists(output + ".partial"));
  }
}

TEST(UntrustedInput, NumericalFailureNamesTheSolversLine) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("diverge.scn", R"(<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1e308"/>
</Node>
)");
  const std::string output = scratch / "out.csv";
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 5 -q -o " + ShellQuote(output));
  EXPECT_EQ(result.status, 4) << result.err;
  ASSERT_THAT(Lines(result.err), SizeIs(1)) << result.err;
  EXPECT_THAT(result.err, HasSubstr("diverge.scn:2: numerical failure at step 1 (t = 0.01): "
                                    "EulerExplicitSolver in node 'root'"));
  EXPECT_THAT(Lines(ReadFile(output + ".partial")), SizeIs(2));  // header + step 0
}

// --- 9. two runs writing one output: the second is refused ---------------------------------------

TEST(UntrustedInput, SecondRunOnTheSameOutputIsRefused) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  const std::string output = scratch / "out.csv";
  // The first run, here, holds the lock scene-runner takes on OUT.partial.
  const std::string partial = output + ".partial";
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "rows\n", 5), 5);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const CommandResult second = RunSceneRunner(scene + " --steps 5 -q -o " + ShellQuote(output));
  EXPECT_EQ(second.status, 2) << second.err;
  EXPECT_THAT(ErrorLines(second), SizeIs(1));
  EXPECT_THAT(second.err, HasSubstr("another run is writing this output"));
  EXPECT_EQ(ReadFile(partial), "rows\n");  // the first run's rows are untouched
  EXPECT_FALSE(fs::exists(output));
  ::close(fd);

  // Without the lock, the same command succeeds (the refusal was the lock, nothing else).
  const CommandResult alone = RunSceneRunner(scene + " --steps 5 -q -o " + ShellQuote(output));
  EXPECT_EQ(alone.status, 0) << alone.err;
  EXPECT_THAT(Lines(ReadFile(output)), SizeIs(7));  // header + steps 0..5
}

// --- 10. documents with two roots ----------------------------------------------------------------

TEST(UntrustedInput, DocumentWithTwoRootsIsRefused) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("two.scn", std::string(kFall) + kFall);
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_THAT(ErrorLines(result), SizeIs(1)) << result.err;
  EXPECT_THAT(ErrorLines(result)[0], HasSubstr("two.scn:6:"));
}

// --- 11. plugins: checked before any of their code runs; writable folders ------------------------

// A library without Fluxion's descriptor whose static constructor writes the file named by
// FLUXION_TEST_MARKER (tests/tools/no_descriptor_library.cpp).
const std::string kNoDescriptorLibrary = FLUXION_TEST_NO_DESCRIPTOR_LIBRARY;

TEST(UntrustedInput, LibraryWithoutDescriptorIsRefusedBeforeItsCodeRuns) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  fs::create_directories(scratch.path() / "plugins");
  fs::permissions(scratch.path() / "plugins", fs::perms(0755));
  fs::copy_file(kNoDescriptorLibrary, scratch.path() / "plugins" / "fluxion_evil.so");
  const std::string marker = scratch / "constructor-ran";
  const CommandResult result =
      RunSceneRunner(scene + " --steps 1 -q --plugin-dir " + ShellQuote(scratch / "plugins"),
                     "FLUXION_TEST_MARKER=" + ShellQuote(marker));
  EXPECT_EQ(result.status, 3) << result.err;  // a plugin problem
  EXPECT_THAT(result.err, HasSubstr("not a Fluxion plugin"));
  EXPECT_FALSE(fs::exists(marker)) << "the library's constructor ran";

  // The marker works: loading the library runs its constructor.
  ASSERT_EQ(::setenv("FLUXION_TEST_MARKER", marker.c_str(), 1), 0);
  void* handle = ::dlopen(kNoDescriptorLibrary.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr);
  EXPECT_TRUE(fs::exists(marker));
  ::dlclose(handle);
  ::unsetenv("FLUXION_TEST_MARKER");
}

TEST(UntrustedInput, PluginFolderWritableByEveryoneIsWarnedAboutAndRefusedWhenStrict) {
  ScratchFolder scratch;
  const std::string scene = ShellQuote(scratch.Write("fall.scn", kFall));
  const fs::path folder = scratch.path() / "shared";
  fs::create_directories(folder);
  fs::copy_file(kNoDescriptorLibrary, folder / "fluxion_other.so");
  fs::permissions(folder, fs::perms(0777));
  const std::string dir = " --plugin-dir " + ShellQuote(folder.string());

  // (Not -q: the lenient run's complaint is a warning.)
  const CommandResult lenient = RunSceneRunner(scene + " --steps 1" + dir);
  EXPECT_THAT(lenient.err, HasSubstr("is writable by every user"));
  EXPECT_THAT(lenient.err, HasSubstr("chmod o-w"));

  const CommandResult strict = RunSceneRunner(scene + " --steps 1 -q --strict-plugins" + dir);
  EXPECT_EQ(strict.status, 3) << strict.err;
  EXPECT_THAT(strict.err, AllOf(HasSubstr("is writable by every user"),
                                HasSubstr("run without --strict-plugins")));

  fs::permissions(folder, fs::perms(0755));
  const CommandResult owner_only = RunSceneRunner(scene + " --steps 1 -q --strict-plugins" + dir);
  EXPECT_THAT(owner_only.err, Not(HasSubstr("writable by every user")));
}

}  // namespace
}  // namespace fluxion::testing
