// Bad input, one test per class: scene-runner exits 2 with exactly one line
// `error: FILE:LINE: what is wrong (what was expected)` (with "did you mean" for misspellings),
// writes no output file, and never crashes. Then robustness: truncated and mutated scenes never
// crash or hang.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Runs scene-runner on `xml` (written to `name` in the test's scratch folder) and checks the
// clean-error contract: exit `status`, nothing on stdout, no output file, and exactly one stderr
// line "error: FILE:LINE: ..." containing each of `words` (line 0: "error: FILE: ..."). `options`
// are further command-line options.
void ExpectCleanError(const ScratchFolder& scratch, const std::string& name, const std::string& xml,
                      int line, const std::vector<std::string>& words, int status = 2,
                      const std::string& options = "") {
  SCOPED_TRACE(name);
  const std::string scene = scratch.Write(name, xml);
  const std::string output = scratch / (name + ".csv");
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 3 -q -o " + ShellQuote(output) + " " + options);
  EXPECT_EQ(result.status, status) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_FALSE(fs::exists(output)) << "a failed run left " << output;
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;
  const std::vector<std::string> lines = Lines(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  const std::string location = line > 0 ? scene + ":" + std::to_string(line) + ": " : scene + ": ";
  EXPECT_THAT(lines[0], StartsWith("error: " + location));
  for (const std::string& word : words) EXPECT_THAT(lines[0], HasSubstr(word));
}

// A valid scene of one moving point, with `body` inserted at line 3 (inside the root node).
std::string PointScene(const std::string& body) {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  )" + body +
         R"(
</Node>
)";
}

TEST(BadInput, MalformedXml) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "mismatched.scn", R"(<Node name="root">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0">
</Node>
)",
                   3, {"malformed XML", "mismatched element"});
  ExpectCleanError(scratch, "unclosed.scn",
                   "<Node name=\"root\">\n  <UniformMass totalMass=\"1/>\n</Node>\n", 2,
                   {"malformed XML"});
  ExpectCleanError(scratch, "truncated.scn", "<Node name=\"root\">\n  <EulerExplicitSolver/>\n", 1,
                   {"malformed XML"});
  ExpectCleanError(scratch, "not_xml.scn", "this is not XML\n", 1, {"malformed XML"});
}

TEST(BadInput, WrongRootElement) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "scene.scn",
                   "<?xml version=\"1.0\"?>\n<Scene name=\"root\">\n</Scene>\n", 2,
                   {"root element is <Scene>", "expected <Node>"});
}

TEST(BadInput, EmptyFile) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "empty.scn", "", 1, {"empty"});
  ExpectCleanError(scratch, "blank.scn", "  \n\n \t\n", 1, {"empty"});
  ExpectCleanError(scratch, "comment.scn", "<?xml version=\"1.0\"?>\n<!-- nothing -->\n", 1,
                   {"no XML element", "<Node>"});
}

TEST(BadInput, UnknownComponent) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "misspelt.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMas totalMass="1"/>)"),
                   4, {"unknown component 'UniformMas'", "did you mean 'UniformMass'"});
  ExpectCleanError(scratch, "unknown.scn", PointScene(R"(<Teapot spout="1"/>)"), 3,
                   {"unknown component 'Teapot'", "--list-components"});
}

// One rule for a component that is not available: an unknown name is a scene error (exit 2),
// with a suggestion only when it is a plausible misspelling; a component of a plugin the scene
// requires but that is not on the path is a plugin problem (exit 3) naming the plugin.
TEST(BadInput, UnknownComponentOfNoKnownPluginIsASceneError) {
  ScratchFolder scratch;
  // "SymplecticEulerSolver" plus a word: another solver, not a misspelling of that one.
  ExpectCleanError(scratch, "damped.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <DampedSymplecticEulerSolver/>)"),
                   4,
                   {"unknown component 'DampedSymplecticEulerSolver' (expected one listed by "
                    "scene-runner --list-components; a plugin's component needs the plugin's "
                    "folder on the search path: --plugin-dir DIR or FLUXION_PLUGIN_PATH)"});
  // SOFA's EulerSolver (removed in SOFA v20.06): not a component of any plugin Fluxion knows.
  ExpectCleanError(scratch, "old.scn", PointScene(R"(<EulerSolver/>)"), 3,
                   {"unknown component 'EulerSolver' (expected one listed by"});
}

TEST(BadInput, ComponentOfAMissingRequiredPluginIsAPluginProblem) {
  ScratchFolder scratch;
  const std::string scene = scratch.Write("required.scn", R"(<Node name="root" dt="0.01">
  <RequiredPlugin pluginName="damped_symplectic"/>
  <DampedSymplecticEulerSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="1"/>
</Node>
)");
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " --steps 1 -q");
  EXPECT_EQ(result.status, 3) << result.err;
  EXPECT_EQ(result.out, "");
  const std::vector<std::string> lines = Lines(result.err);
  ASSERT_EQ(lines.size(), 2u) << result.err;
  EXPECT_THAT(lines[0], StartsWith("error: " + scene +
                                   ":2: required plugin 'damped_symplectic' was not found"));
  EXPECT_EQ(lines[1], "error: " + scene +
                          ":3: component 'DampedSymplecticEulerSolver' is not available: no "
                          "loaded plugin provides it, and the scene requires plugin "
                          "'damped_symplectic', which is not on the plugin search path; add the "
                          "folder holding it with --plugin-dir DIR or FLUXION_PLUGIN_PATH=DIR");
}

TEST(BadInput, UnknownAttribute) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "misspelt.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass totalMas="1"/>)"),
                   4, {"unknown attribute 'totalMas'", "did you mean 'totalMass'"});
  ExpectCleanError(scratch, "node.scn", "<Node name=\"root\" gravty=\"0 0 0\">\n</Node>\n", 1,
                   {"unknown attribute 'gravty'", "did you mean 'gravity'"});
  ExpectCleanError(scratch, "unknown.scn",
                   PointScene(R"(<MechanicalObject position="0 0 0" colour="red"/>)"), 3,
                   {"unknown attribute 'colour'", "--list-components MechanicalObject"});
}

TEST(BadInput, NonNumbers) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "list.scn", PointScene(R"(<MechanicalObject position="0 abc 0"/>)"), 3,
                   {"'position'", "'abc' is not a number"});
  ExpectCleanError(scratch, "scalar.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="1.2.3"/>)"),
                   4, {"'totalMass'", "'1.2.3' is not a number"});
  ExpectCleanError(scratch, "dt.scn", "<Node name=\"root\" dt=\"fast\">\n</Node>\n", 1,
                   {"'dt'", "'fast' is not a number"});
  ExpectCleanError(scratch, "bool.scn",
                   PointScene(R"(<FixedProjectiveConstraint fixAll="maybe"/>)"), 3,
                   {"'fixAll'", "not a boolean"});
}

TEST(BadInput, NonFiniteAndOutOfRangeNumbers) {
  ScratchFolder scratch;
  for (const std::string value : {"nan", "NaN", "inf", "-inf", "infinity"}) {
    ExpectCleanError(scratch, "list_" + value + ".scn",
                     PointScene("<MechanicalObject position=\"0 " + value + " 0\"/>"), 3,
                     {"'" + value + "' is not a finite number"});
    ExpectCleanError(scratch, "dt_" + value + ".scn",
                     "<Node name=\"root\" dt=\"" + value + "\">\n</Node>\n", 1,
                     {"'dt'", "not a finite number"});
  }
  ExpectCleanError(scratch, "huge.scn", PointScene(R"(<MechanicalObject position="0 1e999 0"/>)"),
                   3, {"'1e999' is out of the range of a double"});
  ExpectCleanError(scratch, "huge_mass.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="-1e999"/>)"),
                   4, {"'totalMass'", "out of the range"});
}

TEST(BadInput, AnIncompletePointIsDroppedWithOneWarningLine) {
  // SOFA reads a vector list point by point and stops at the incomplete one; Fluxion does the
  // same and says so, at the object's line, in the scene errors' voice (a warning, not an error).
  ScratchFolder scratch;
  const std::string scene = scratch.Write(
      "vec3.scn", PointScene(R"(<MechanicalObject template="Vec3d" position="0 0 0 1"/>
  <UniformMass vertexMass="1"/>)"));
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 1 -o " + ShellQuote(scratch / "vec3.csv"));
  EXPECT_EQ(result.status, 0) << result.err;
  const std::vector<std::string> lines = Lines(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  EXPECT_THAT(lines[0], StartsWith("warning: " + scene + ":3: "));
  EXPECT_THAT(lines[0], HasSubstr("'position' has 4 numbers"));
  EXPECT_THAT(lines[0], HasSubstr("Vec3d: 3 per point): the last 1 is ignored, as SOFA reads it"));
}

TEST(BadInput, NonPositiveTimeStep) {
  ScratchFolder scratch;
  for (const std::string dt : {"0", "-0.01", "-0"}) {
    ExpectCleanError(scratch, "dt" + dt + ".scn",
                     "<Node name=\"root\" dt=\"" + dt + "\">\n  <EulerExplicitSolver/>\n</Node>\n",
                     1, {"'dt'", "expected > 0"});
  }
}

TEST(BadInput, NegativeMasses) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "total.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="-1"/>)"),
                   4, {"'totalMass'", "expected >= 0"});
  ExpectCleanError(scratch, "vertex.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="-0.5"/>)"),
                   4, {"'vertexMass'", "expected >= 0"});
  ExpectCleanError(scratch, "diagonal.scn",
                   PointScene(R"(<MechanicalObject position="0 0 0  1 0 0"/>
  <DiagonalMass vertexMass="1 -2"/>)"),
                   4, {"'vertexMass'", "(-2) is out of range", "expected >= 0"});
}

TEST(BadInput, SpringIndexOutOfRange) {
  ScratchFolder scratch;
  const std::string points = R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  )";
  ExpectCleanError(
      scratch, "j.scn", PointScene(points + R"(<SpringForceField spring="0 2 10 0 1"/>)"), 5,
      {"spring 1 index j 2 is out of range", "'root/dofs' has 2 points", "expected 0..1"});
  ExpectCleanError(
      scratch, "huge.scn",
      PointScene(points + R"(<StiffSpringForceField spring="0 1 10 0 1  1e300 0 10 0 1"/>)"), 5,
      {"spring 2 index i 1e+300 is out of range"});
  ExpectCleanError(scratch, "lists.scn",
                   PointScene(points + R"(<SpringForceField indices1="0 1" indices2="1 7"/>)"), 5,
                   {"spring 2 index j 7 is out of range"});
  ExpectCleanError(scratch, "fraction.scn",
                   PointScene(points + R"(<SpringForceField spring="0 0.5 10 0 1"/>)"), 5,
                   {"whole numbers"});
}

TEST(BadInput, FixedConstraintIndexOutOfRange) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "scene.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0 2"/>)"),
                   5, {"<FixedProjectiveConstraint> index 2 is out of range", "expected 0..1"});
  ExpectCleanError(scratch, "alias.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedConstraint indices="99999999999999999999"/>)"),
                   5, {"'indices'", "not a valid index"});
}

TEST(BadInput, ConstantForceFieldIndexOutOfRange) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "scene.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField indices="1 5" forces="1 0 0  0 1 0"/>)"),
                   5, {"<ConstantForceField> index 5 is out of range", "expected 0..1"});
  ExpectCleanError(scratch, "negative.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField indices="-1" force="1 0 0"/>)"),
                   5, {"'indices'", "not a valid index"});
}

TEST(BadInput, LinksThatResolveToNothing) {
  ScratchFolder scratch;
  const std::string two_nodes = R"(<Node name="A">
    <MechanicalObject name="a" position="0 0 0"/>
    <UniformMass vertexMass="1"/>
  </Node>
  <Node name="Empty"/>
  )";
  ExpectCleanError(
      scratch, "node.scn",
      PointScene(two_nodes +
                 R"(<SpringForceField spring="0 0 1 0 1" object1="@A/a" object2="@Nowhere/b"/>)"),
      8, {"link '@Nowhere/b' does not resolve", "no node or object 'Nowhere'"});
  ExpectCleanError(
      scratch, "object.scn",
      PointScene(two_nodes +
                 R"(<SpringForceField spring="0 0 1 0 1" object1="@A/b" object2="@A/a"/>)"),
      8, {"link '@A/b' does not resolve"});
  ExpectCleanError(
      scratch, "no_dofs.scn",
      PointScene(two_nodes +
                 R"(<SpringForceField spring="0 0 1 0 1" object1="@A" object2="@Empty"/>)"),
      8, {"link '@Empty'", "has no MechanicalObject"});
  ExpectCleanError(
      scratch, "above_root.scn",
      PointScene(two_nodes +
                 R"(<SpringForceField spring="0 0 1 0 1" object1="@../A" object2="@A"/>)"),
      8, {"link '@../A' goes above the root node"});
  ExpectCleanError(
      scratch, "not_a_link.scn",
      PointScene(two_nodes + R"(<SpringForceField spring="0 0 1 0 1" object1="A" object2="@A"/>)"),
      8, {"expected a link starting with '@'"});
  ExpectCleanError(
      scratch, "linear_solver.scn",
      "<Node name=\"root\">\n  <EulerExplicitSolver linearSolver=\"@cg\"/>\n  <MechanicalObject/>\n"
      "  <UniformMass vertexMass=\"1\"/>\n</Node>\n",
      2, {"'linearSolver' link '@cg'"});
}

TEST(BadInput, TwoSolversInOneNode) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "scene.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <EulerExplicitSolver symplectic="0"/>)"),
                   5,
                   {"a second ODE solver <EulerExplicitSolver> in node 'root'",
                    "at most one per node", "line 2"});
}

TEST(BadInput, MovingPointWithZeroMass) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "uniform.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0"/>
  <UniformMass vertexMass="0"/>)"),
                   3, {"point 0 of 'root/dofs' has no mass and is not fixed"});
  ExpectCleanError(scratch, "diagonal.scn",
                   PointScene(R"(<MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <DiagonalMass vertexMass="1 0"/>)"),
                   3, {"point 1 of 'root/dofs' has no mass"});
  // No mass component at all: SOFA leaves the object where it is (nothing accelerates it), and so
  // does Fluxion, with a warning.
  const std::string no_mass = scratch.Write(
      "no_mass.scn", PointScene(R"(<MechanicalObject name="dofs" position="0 0 0"/>)"));
  const CommandResult unmoved =
      RunSceneRunner(ShellQuote(no_mass) + " --steps 2 -o " + ShellQuote(scratch / "no_mass.csv"));
  EXPECT_EQ(unmoved.status, 0) << unmoved.err;
  EXPECT_THAT(unmoved.err, HasSubstr("'root/dofs' has no mass: it does not move"));
  EXPECT_EQ(Lines(ReadFile(scratch / "no_mass.csv")).back(), "2,0.02,0,0,0,0,0,0")
      << ReadFile(scratch / "no_mass.csv");
  // A massless point in no element of its node's topology and touched by nothing (SOFA's
  // SubsetTopology example) is held still where it was loaded, with one warning line; the
  // triangle's points fall.
  const std::string stray = scratch.Write(
      "stray.scn", PointScene(R"(<TriangleSetTopologyContainer position="0 0 0  1 0 0  0 1 0  5 5 5"
      triangles="0 1 2"/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass massDensity="1"/>)"));
  const CommandResult held =
      RunSceneRunner(ShellQuote(stray) + " --steps 2 -o " + ShellQuote(scratch / "stray.csv"));
  EXPECT_EQ(held.status, 0) << held.err;
  EXPECT_EQ(Lines(held.err),
            std::vector<std::string>{"warning: " + stray +
                                     ":5: 1 point of 'root/dofs' has no mass and no element: "
                                     "held still (as SOFA's implicit solvers leave them)"})
      << held.err;
  // The row: step, time, the 4 positions, the 4 velocities. Point 3 stays at (5, 5, 5) at rest;
  // the triangle falls freely: y = −g·h²·(1 + 2) after two symplectic Euler steps, v = −2·g·h.
  const std::string last = Lines(ReadFile(scratch / "stray.csv")).back();
  std::vector<double> row;
  for (std::size_t at = 0; at <= last.size();) {
    const std::size_t comma = std::min(last.find(',', at), last.size());
    row.push_back(std::stod(last.substr(at, comma - at)));
    at = comma + 1;
  }
  ASSERT_EQ(row.size(), 2u + 24u) << last;
  EXPECT_EQ(std::vector<double>(row.begin() + 11, row.begin() + 14),
            (std::vector<double>{5, 5, 5}));
  EXPECT_EQ(std::vector<double>(row.begin() + 23, row.end()), (std::vector<double>{0, 0, 0}));
  EXPECT_NEAR(row[3], -9.81 * 0.01 * 0.01 * 3, 1e-15) << last;
  EXPECT_NEAR(row[15], -2 * 9.81 * 0.01, 1e-15) << last;
  // A fixed point needs no mass.
  const std::string fixed =
      scratch.Write("fixed.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <FixedProjectiveConstraint indices="0"/>)"));
  EXPECT_EQ(RunSceneRunner(ShellQuote(fixed) + " -q --steps 2").status, 0);
}

TEST(BadInput, GridTooLargeToAllocate) {
  ScratchFolder scratch;
  ExpectCleanError(scratch, "grid.scn",
                   PointScene(R"(<RegularGridTopology n="100000 100000 100000"/>
  <MechanicalObject/>
  <UniformMass totalMass="1"/>)"),
                   3, {"RegularGridTopology of 1e+15 points is too large"});
  ExpectCleanError(scratch, "legacy.scn",
                   PointScene(R"(<RegularGridTopology nx="1e300" ny="2" nz="2"/>
  <MechanicalObject/>
  <UniformMass totalMass="1"/>)"),
                   3, {"too large"});
  ExpectCleanError(scratch, "size.scn", PointScene(R"(<MechanicalObject size="100000000000"/>
  <UniformMass totalMass="1"/>)"),
                   3, {"'size' is 100000000000"});
}

// A cloth of n × n points (RegularGridTopology n×1×n) as in the benchmarks, with `solver` at
// line 2 and the springs at line 6.
std::string ClothScene(int n, const std::string& solver) {
  const std::string size = std::to_string(n);
  return R"(<Node name="root" dt="1e-4" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <RegularGridTopology n=")" +
         size + " 1 " + size + R"(" min="0 0 0" max="1 0 1"/>
  <MechanicalObject/>
  <UniformMass totalMass="1"/>
  <MeshSpringForceField linesStiffness="100" linesDamping="0.1"/>
  <FixedProjectiveConstraint indices="0 )" +
         std::to_string(n - 1) + R"("/>
</Node>
)";
}

TEST(BadInput, SceneLargerThanTheMemoryLimitIsRefusedBeforeAllocating) {
  ScratchFolder scratch;
  const std::string kExplicit = "<EulerExplicitSolver/>";
  // The builder charges 480 bytes per point: 100 × 100 points are 4.6 MiB, over 4 MiB (of which
  // the scene's 1 node, 6 components and 10 attributes take 21 kB: 8694 points are left).
  ExpectCleanError(scratch, "points.scn", ClothScene(100, kExplicit), 3,
                   {"RegularGridTopology of 10000 points is too large",
                    "expected at most 8694 points in the whole scene, for a memory budget of "
                    "4.00 MiB: the memory limit given, --memory-limit"},
                   2, "--memory-limit 4M");
  // 64 × 64 points (1.9 MiB) fit in 3 MiB, not with their springs at 160 bytes each: the
  // triangulated grid has 63·64 + 64·63 lines and 63² diagonals, 12033 springs (1.8 MiB).
  ExpectCleanError(scratch, "springs.scn", ClothScene(64, kExplicit), 6,
                   {"<MeshSpringForceField> brings the scene to 12033 springs",
                    "expected at most 3.00 MiB: the memory limit given, --memory-limit"},
                   2, "--memory-limit 3M");
  // The same cloth fits in 8 MiB with an explicit solver, and with an implicit one on CG (its
  // products use one tangent block per spring, no pattern); with a direct solver the implicit
  // one assembles matrices of 36 entries per spring plus the diagonal (445,476 entries, 76 bytes
  // each: 32 MiB).
  const std::string fits = scratch.Write("fits.scn", ClothScene(64, kExplicit));
  EXPECT_EQ(
      RunSceneRunner(ShellQuote(fits) + " --steps 1 -q -o /dev/null --memory-limit 8M").status, 0);
  const std::string fits_cg = scratch.Write(
      "fits_cg.scn", ClothScene(64, R"(<EulerImplicitSolver/><CGLinearSolver iterations="25"/>)"));
  EXPECT_EQ(
      RunSceneRunner(ShellQuote(fits_cg) + " --steps 1 -q -o /dev/null --memory-limit 8M").status,
      0);
  ExpectCleanError(scratch, "pattern.scn",
                   ClothScene(64, R"(<EulerImplicitSolver/><SparseLDLSolver/>)"), 2,
                   {"EulerImplicitSolver assembles matrices of about 445476 entries",
                    "expected at most 8.00 MiB: the memory limit given, --memory-limit"},
                   2, "--memory-limit 8M");
  // A size that is none.
  const CommandResult bad = RunSceneRunner(ShellQuote(fits) + " -q --memory-limit 12Q");
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, StartsWith("error: --memory-limit: '12Q' is not a memory size"));
}

TEST(BadInput, LargeClothsAreNotCapped) {
  // 512 × 512 points (784,385 springs: 511·512 + 512·511 lines, 511² diagonals), and 600 × 600
  // points with 1,077,601 springs, above the former fixed cap of a million springs: the memory
  // estimate decides now, and both fit this machine.
  ScratchFolder scratch;
  for (const int n : {512, 600}) {
    const std::string scene = scratch.Write("cloth" + std::to_string(n) + ".scn",
                                            ClothScene(n, "<EulerExplicitSolver/>"));
    const CommandResult result =
        RunSceneRunner(ShellQuote(scene) + " --steps 1 --no-stability-check -q -o /dev/null");
    EXPECT_EQ(result.status, 0) << n << ": " << result.err;
  }
}

TEST(BadInput, MissingSceneFile) {
  ScratchFolder scratch;
  const std::string scene = scratch / "does_not_exist.scn";
  const CommandResult result = RunSceneRunner(ShellQuote(scene) + " -q");
  EXPECT_EQ(result.status, 2);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, StartsWith("error: " + scene + ": "));
  EXPECT_THAT(result.err, HasSubstr("does not exist"));
}

// A scene file the process may not open, for two reasons: its permissions (as root, which reads
// any file, the run is started without the capabilities that let it: setpriv drops
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from its bounding set), and a path through a regular
// file (ENOTDIR, whoever runs it).
TEST(BadInput, UnreadableSceneFile) {
  ScratchFolder scratch;
  const std::string scene =
      scratch.Write("locked.scn", PointScene(R"(<MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>)"));
  fs::permissions(scene, fs::perms::none);
  const std::string as_unprivileged =
      ::geteuid() == 0 ? "setpriv --bounding-set=-dac_override,-dac_read_search " : "";
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " -q", "", SceneRunner(), as_unprivileged);
  fs::permissions(scene, fs::perms::owner_all);
  EXPECT_EQ(result.status, 2) << result.err;
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, StartsWith("error: " + scene + ": "));
  EXPECT_THAT(result.err, HasSubstr("cannot be opened"));

  const std::string through_a_file = scene + "/scene.scn";
  const CommandResult nested = RunSceneRunner(ShellQuote(through_a_file) + " -q");
  EXPECT_EQ(nested.status, 2) << nested.err;
  ASSERT_EQ(Lines(nested.err).size(), 1u) << nested.err;
  EXPECT_THAT(nested.err, StartsWith("error: " + through_a_file + ": "));
  EXPECT_THAT(nested.err, HasSubstr("cannot be opened"));
}

TEST(BadInput, DirectoryGivenAsScene) {
  ScratchFolder scratch;
  const CommandResult result = RunSceneRunner(ShellQuote(scratch.path().string()) + " -q");
  EXPECT_EQ(result.status, 2);
  ASSERT_EQ(Lines(result.err).size(), 1u) << result.err;
  EXPECT_THAT(result.err, StartsWith("error: " + scratch.path().string() + ": "));
  EXPECT_THAT(result.err, HasSubstr("is a directory"));
}

// --- Robustness ---------------------------------------------------------------------------------

// A valid scene using most components: the seed of the truncation and mutation tests.
constexpr const char* kRichScene = R"(<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <RequiredPlugin pluginName="Sofa.Component.ODESolver.Forward"/>
  <DefaultAnimationLoop/>
  <VisualStyle displayFlags="showBehavior"/>
  <EulerExplicitSolver symplectic="1"/>
  <CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
  <Node name="fixed">
    <MechanicalObject name="anchor" template="Vec3d" position="0 2 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="bob">
    <MechanicalObject name="dofs" template="Vec3d" position="0 1 0  1 1 0" velocity="0 0 0  0.1 0 0"/>
    <UniformMass totalMass="2"/>
    <ConstantForceField indices="1" forces="0.5 0 0"/>
  </Node>
  <SpringForceField spring="0 0 100 0.5 1" object1="@fixed/anchor" object2="@bob/dofs"/>
  <Node name="cloth">
    <RegularGridTopology n="3 3 1" min="0 0 0" max="1 1 0"/>
    <MechanicalObject name="grid"/>
    <DiagonalMass vertexMass="1 1 1 1 1 1 1 1 1"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.5"/>
    <FixedProjectiveConstraint indices="6 8"/>
  </Node>
  <Node name="line">
    <MechanicalObject template="Vec2d" position="0 0  1 0"/>
    <UniformMass vertexMass="1"/>
    <StiffSpringForceField spring="0 1 10 0 1"/>
  </Node>
</Node>
)";

// Runs a (possibly broken) scene and checks it ended cleanly: status 0, 2, 3 or 4, no sign of a
// crash, only "error:" lines on stderr, and an output file only when rows could be written.
void ExpectCleanEnd(const ScratchFolder& scratch, const std::string& text,
                    const std::string& what) {
  SCOPED_TRACE(what);
  const std::string scene = scratch.Write("scene.scn", text);
  const std::string output = scratch / "out.csv";
  fs::remove(output);
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 20 -q -o " + ShellQuote(output));
  EXPECT_THAT(result.status, ::testing::AnyOf(0, 2, 3, 4)) << result.err;
  EXPECT_FALSE(LooksLikeCrash(result.err)) << result.err;
  for (const std::string& line : Lines(result.err)) EXPECT_THAT(line, StartsWith("error: "));
  if (result.status == 0 || result.status == 4) {
    const std::string csv = ReadFile(output);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.back(), '\n');
  } else {
    EXPECT_FALSE(fs::exists(output));
    EXPECT_FALSE(result.err.empty());
  }
}

// The loads and the plugin force field, for the same truncation and mutation runs.
constexpr const char* kLoadsScene = R"(<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 0 0">
  <RequiredPlugin pluginName="nbody_gravity"/>
  <RungeKutta4Solver/>
  <Node name="bodies">
    <MechanicalObject template="Vec2d" position="0 0  1 0  0 1" velocity="0 0  0 1  -1 0"/>
    <DiagonalMass vertexMass="10 0.1 0.1"/>
    <NBodyGravityForceField G="1" softening="0.01" exponent="2"/>
    <LinearForceField points="1 2" times="0 0.05 0.1" forces="0 0  1 -1  0 0" force="2"/>
    <SinusoidalForceField indices="0" amplitude="0.5 0" omega="6.28" phase="0.1"/>
  </Node>
</Node>
)";

// `text` whole, cut at `cuts` evenly spaced bytes, and with `mutations` single bytes replaced by
// bytes that make interesting damage (structure, digits, signs, exponents, letters, NUL, 0xFF),
// from a fixed seed: the same runs every time. Each must end cleanly.
void ExpectCleanEndsOfDamagedScene(const std::string& text, int cuts, int mutations,
                                   unsigned seed) {
  ScratchFolder scratch;
  ExpectCleanEnd(scratch, text, "the whole scene");
  for (int k = 0; k < cuts; ++k) {
    const std::size_t cut =
        text.size() * static_cast<std::size_t>(k) / static_cast<std::size_t>(cuts);
    ExpectCleanEnd(scratch, text.substr(0, cut), "truncated at byte " + std::to_string(cut));
  }
  const std::string replacements = std::string("<>/=\"' .-+e9087x@\n") + '\0' + '\xff';
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> position(0, text.size() - 1);
  std::uniform_int_distribution<std::size_t> byte(0, replacements.size() - 1);
  for (int k = 0; k < mutations; ++k) {
    std::string mutated = text;
    const std::size_t at = position(random);
    mutated[at] = replacements[byte(random)];
    ExpectCleanEnd(scratch, mutated,
                   "mutation " + std::to_string(k) + ": byte " + std::to_string(at) + " -> " +
                       std::to_string(static_cast<unsigned char>(mutated[at])));
  }
}

TEST(BadInput, TruncatedScenesEndCleanly) { ExpectCleanEndsOfDamagedScene(kRichScene, 40, 0, 0); }

TEST(BadInput, MutatedScenesEndCleanly) {
  ExpectCleanEndsOfDamagedScene(kRichScene, 0, 200, 20240611);
}

TEST(BadInput, TruncatedAndMutatedLoadScenesEndCleanly) {
  ExpectCleanEndsOfDamagedScene(kLoadsScene, 20, 100, 20261122);
}

}  // namespace
}  // namespace fluxion::testing
