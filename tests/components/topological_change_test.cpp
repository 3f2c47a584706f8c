// SOFA's TopologicalChangeProcessor removing triangles of a cloth while it runs (build/
// topology_rebuild.h). The cloth: a 4×4 grid of points, spacing 1 m, point i + 4j at (i, j, 0),
// each cell (i, j) split into (p, p+1, p+5) and (p, p+5, p+4) with p = i + 4j, cells row by row:
// cell (0, 0) is triangles 0 and 1, the last cell (2, 2) triangles 16 and 17. The edges are
// derived from the triangles (side v1-v2, v2-v0, v0-v1 of each, first occurrence): 33 of them,
// the last three (11 15), (15 10), (15 14) first met in triangles 16 and 17.
//
// What SOFA's modifier does, worked by hand (TriangleSetTopologyModifier::removeTrianglesProcess,
// ids sorted descending, the last element moved into each removed slot):
//  - removing 16 17 (the last cell): only point 15 (the corner) and the 3 edges above lose their
//    last triangle; they are the last of their lists, so nothing is renumbered;
//  - removing 0 1 (the first cell): triangle 17 then 16 move into slots 1 then 0; point 0 (the
//    corner) goes and point 15, the last, takes number 0.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "fluxion/trajectory_writer.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class TopologicalChange : public testing::QuietTest {};

constexpr int kSide = 4;  // points per side

std::string GridPoints(int side, int skip_last = 0) {
  std::string text;
  for (int p = 0; p < side * side - skip_last; ++p)
    text += std::to_string(p % side) + " " + std::to_string(p / side) + " 0  ";
  return text;
}

std::string GridTriangles(int side, int skip_last = 0) {
  std::string text;
  const int cells = (side - 1) * (side - 1);
  for (int c = 0; c < cells; ++c) {
    const int p = c % (side - 1) + side * (c / (side - 1));
    const int t[2][3] = {{p, p + 1, p + side + 1}, {p, p + side + 1, p + side}};
    for (int k = 0; k < 2; ++k) {
      if (2 * c + k >= 2 * cells - skip_last) continue;
      for (const int v : t[k]) text += std::to_string(v) + " ";
      text += " ";
    }
  }
  return text;
}

// The cloth with an implicit solver (CG run to round-off: its iterations are deterministic).
std::string Cloth(const std::string& points, const std::string& triangles, const std::string& fixed,
                  const std::string& processor, const std::string& stiffness = "100",
                  const std::string& mass = R"(massDensity="2")") {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>
  <TriangleSetTopologyContainer name="topo" position=")" +
         points + R"(" triangles=")" + triangles + R"("/>
  <TriangleSetTopologyModifier/>
  <MechanicalObject name="dofs"/>
  <DiagonalMass name="mass" )" +
         mass + R"(/>
  <MeshSpringForceField name="springs" stiffness=")" +
         stiffness + R"(" damping="0.5"/>
  <FixedProjectiveConstraint name="fix" indices=")" +
         fixed + R"("/>
  )" + processor +
         R"(
</Node>)";
}

// Removes `triangles` at the first step starting after t = 0.045 (the 6th, from t = 0.05).
std::string RemoveAtSixthStep(const std::string& triangles) {
  return R"(<TopologicalChangeProcessor useDataInputs="1" timeToRemove="0.045" trianglesToRemove=")" +
         triangles + R"("/>)";
}

double TotalMass(const Simulation& simulation) {
  const SparseMatrix mass = simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  double total = 0.0;
  for (int k = 0; k < mass.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(mass, k); it; ++it) total += it.value();
  return total / 3.0;  // the same mass on x, y and z
}

// The springs of a stiffness matrix: its 3×3 blocks off the diagonal with a nonzero entry,
// each spring giving two (k·û·ûᵀ at rest, more when stretched).
int SpringCount(const SparseMatrix& stiffness) {
  std::set<std::pair<Index, Index>> blocks;
  for (int k = 0; k < stiffness.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(stiffness, k); it; ++it)
      if (it.row() / 3 != it.col() / 3 && it.value() != 0.0)
        blocks.insert({it.row() / 3, it.col() / 3});
  return static_cast<int>(blocks.size() / 2);
}

// After the last cell is removed, the cloth's springs and its run from then on are those of the
// cloth built without that cell and started from the same state: the stiffness matrices at a
// deformed state are equal (same springs, rest lengths and stiffness; 33 − 3 = 30 springs), and
// the trajectories agree to the bit (the same build, the same solver from a fresh start).
TEST_F(TopologicalChange, AfterARemovalTheRunIsThatOfTheReducedCloth) {
  Simulation cut =
      LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12", RemoveAtSixthStep("16 17")));
  EXPECT_EQ(SpringCount(cut.ComponentMatrix("root/springs", ComponentMatrixKind::kStiffness)), 33);
  for (int k = 0; k < 5; ++k) cut.Step();
  ASSERT_EQ(cut.position(0).size(), 16 * 3);
  // The state the change starts from: point 15 goes, no other point moves in the numbering.
  const Vector x = cut.position(0).head(15 * 3);
  const Vector v = cut.velocity(0).head(15 * 3);
  cut.Step();  // the removal, then the step
  ASSERT_EQ(cut.position(0).size(), 15 * 3);

  Simulation reduced = LoadScene(Cloth(GridPoints(kSide, 1), GridTriangles(kSide, 2), "3 12", ""));
  reduced.SetPosition(0, x);
  reduced.SetVelocity(0, v);
  reduced.Step();
  EXPECT_TRUE(cut.position(0) == reduced.position(0));
  EXPECT_TRUE(cut.velocity(0) == reduced.velocity(0));
  const SparseMatrix k_cut = cut.ComponentMatrix("root/springs", ComponentMatrixKind::kStiffness);
  const SparseMatrix k_reduced =
      reduced.ComponentMatrix("root/springs", ComponentMatrixKind::kStiffness);
  EXPECT_EQ(SpringCount(k_cut), 30);
  EXPECT_EQ((k_cut - k_reduced).norm(), 0.0);
  for (int k = 0; k < 30; ++k) {
    cut.Step();
    reduced.Step();
  }
  EXPECT_TRUE(cut.position(0) == reduced.position(0));
  EXPECT_TRUE(cut.velocity(0) == reduced.velocity(0));
  EXPECT_DOUBLE_EQ(cut.sofa_time(), 0.36);
}

// SOFA's DiagonalMass gives each triangle's ρ·A/3 to its vertices and takes it back when the
// triangle goes: ρ = 2 on 9 m² is 18 kg, 16 kg once cell (0, 0) is removed. The corner that took
// number 0 (old point 15) is on both triangles of its cell (their diagonal ends there):
// 2 · (2 · 0.5 / 3) kg.
TEST_F(TopologicalChange, TheMassIsTheDensityTimesTheRemainingArea) {
  Simulation simulation =
      LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12", RemoveAtSixthStep("0 1")));
  // Round-off of a sum of 54 terms of order 1 (the tolerance is a few ulps of 18).
  EXPECT_NEAR(TotalMass(simulation), 18.0, 1e-13);
  for (int k = 0; k < 6; ++k) simulation.Step();
  EXPECT_NEAR(TotalMass(simulation), 16.0, 1e-13);
  const SparseMatrix mass = simulation.ComponentMatrix("root/mass", ComponentMatrixKind::kMass);
  EXPECT_NEAR(mass.coeff(0, 0), 2.0 * (2.0 * 0.5 / 3.0), 1e-15);
}

// Given a total mass, SOFA's DiagonalMass takes its density at init (18 kg on 9 m²: 2 kg/m²) and
// keeps it: the same 16 kg after the cut, not the 18 kg a fresh build would spread again.
TEST_F(TopologicalChange, AGivenTotalMassKeepsItsInitialDensity) {
  Simulation simulation = LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12",
                                          RemoveAtSixthStep("0 1"), "100", R"(totalMass="18")"));
  EXPECT_NEAR(TotalMass(simulation), 18.0, 1e-13);
  for (int k = 0; k < 6; ++k) simulation.Step();
  EXPECT_NEAR(TotalMass(simulation), 16.0, 1e-13);
}

// A fixed point keeps being held after a lower-numbered point is removed, under its new number:
// old point 15 (the corner at (3, 3)) becomes point 0 (SOFA: the moved last point is renamed in
// the index list), point 5 keeps its number; a free point falls.
TEST_F(TopologicalChange, FixedIndicesFollowTheRenumbering) {
  Simulation simulation =
      LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "15 5", RemoveAtSixthStep("0 1")));
  for (int k = 0; k < 60; ++k) simulation.Step();
  const auto x = simulation.position(0);
  ASSERT_EQ(x.size(), 15 * 3);
  EXPECT_EQ(x[0], 3.0);
  EXPECT_EQ(x[1], 3.0);
  EXPECT_EQ(x[15], 1.0);
  EXPECT_EQ(x[16], 1.0);
  EXPECT_LT(x[14 * 3 + 1], 3.0 - 1e-3);  // point 14, (2, 3) at the start, is free
}

// A fixed point that is removed leaves the list (SOFA erases it), the others stay held.
TEST_F(TopologicalChange, ARemovedFixedPointLeavesTheList) {
  Simulation simulation = LoadScene(
      Cloth(GridPoints(kSide), GridTriangles(kSide), "0 15 12", RemoveAtSixthStep("0 1")));
  for (int k = 0; k < 30; ++k) simulation.Step();
  const auto x = simulation.position(0);
  EXPECT_EQ(x[0], 3.0);  // old 15
  EXPECT_EQ(x[1], 3.0);
  EXPECT_EQ(x[12 * 3], 0.0);  // point 12 at (0, 3) keeps its number
  EXPECT_EQ(x[12 * 3 + 1], 3.0);
}

// The file form: SOFA reads "T= 0.05" as due at the step whose start time is within one
// epsilon of 0.05 (0.01 added five times is 0.05 + 7e-18); the removal happens there, not before.
TEST_F(TopologicalChange, AProcessFileRemovesAtItsTimes) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topological_change_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\n  REMOVE= 2\n16 17\nT= 0.1\nREMOVE= 1\n0\n";
  Simulation simulation =
      LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12",
                      R"(<TopologicalChangeProcessor filename="process.txt"/>)"),
                (folder / "cloth.scn").string());
  for (int k = 0; k < 5; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).size(), 16 * 3);
  simulation.Step();
  EXPECT_EQ(simulation.position(0).size(), 15 * 3);
  for (int k = 0; k < 4; ++k) simulation.Step();
  EXPECT_EQ(simulation.position(0).size(), 15 * 3);
  EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 16u);
  simulation.Step();  // t = 0.1: triangle 0 (0 1 5) goes; point 0 keeps triangle 1
  EXPECT_EQ(simulation.position(0).size(), 15 * 3);
  EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 15u);
  std::filesystem::remove_all(folder);
}

// A bad process file is one error at its line, before the run.
TEST_F(TopologicalChange, ABadProcessFileIsAnErrorAtItsLine) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "fluxion_topological_change_bad";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "process.txt") << "T= 0.05\nREMOVE= 2\n16 x\n";
  try {
    LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12",
                    R"(<TopologicalChangeProcessor filename="process.txt"/>)"),
              (folder / "cloth.scn").string());
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("process.txt:3: 'x' is not an element index"));
  }
  std::filesystem::remove_all(folder);
}

// A component that does not follow changes yet is refused at build, not left with stale indices.
TEST_F(TopologicalChange, AComponentThatDoesNotFollowIsRefused) {
  testing::ExpectSceneError(
      Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12",
            R"(<ConstantForceField indices="5" forces="0 1 0"/>)" + RemoveAtSixthStep("0 1")),
      "<ConstantForceField> in node 'root' does not follow topological changes yet");
}

// A cut in the middle of an implicit run: a 10 × 10-cell cloth (1 m cells, 200 kg, springs of
// 10⁴ N per unit strain) hanging from its top corners, half of its 6th row of cells removed at
// t = 0.5. The implicit solver goes on: everything stays finite; no point falls further than
// its spring path from a fixed corner allows (at most 20 m: 5 along the top edge, then 15 down
// and around the cut; the weight strains the springs far less than 1%: above 10 − 20·1.01); and
// the Rayleigh damping calms the swing the cut starts (kinetic energy below half its peak).
TEST_F(TopologicalChange, ACutInTheMiddleOfAnImplicitRunStaysStable) {
  constexpr int side = 11;
  std::string cut;
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 2; ++k) cut += std::to_string(2 * (i + 10 * 5) + k) + " ";
  Simulation simulation = LoadScene(Cloth(
      GridPoints(side), GridTriangles(side),
      std::to_string(side * side - side) + " " + std::to_string(side * side - 1),
      R"(<TopologicalChangeProcessor useDataInputs="1" timeToRemove="0.495" trianglesToRemove=")" +
          cut + R"("/>)",
      "10000"));
  for (int k = 0; k < 50; ++k) simulation.Step();
  const Index before = simulation.position(0).size();
  double peak_energy = 0.0;
  for (int k = 0; k < 400; ++k) {
    simulation.Step();
    peak_energy = std::max(peak_energy, simulation.KineticEnergy());
  }
  EXPECT_EQ(simulation.position(0).size(), before);  // a cut through the middle frees no point
  const auto x = simulation.position(0);
  EXPECT_TRUE(x.allFinite());
  EXPECT_EQ(simulation.model().objects[0].topology->triangles.size(), 190u);
  EXPECT_GT(x.minCoeff(), 10.0 - 20.0 * 1.01);
  EXPECT_LT(simulation.KineticEnergy(), 0.5 * peak_energy);
}

// Steps without a due change cost what they cost without a processor: no copy of the state, no
// allocation (the conformance rule for steady-state steps).
TEST_F(TopologicalChange, StepsWithoutAChangeAllocateNothingMore) {
  if (!conformance::CountsAllocations()) GTEST_SKIP() << "allocations are not counted here";
  const auto allocations = [](Simulation& simulation) {
    for (int k = 0; k < 3; ++k) simulation.Step();  // warm-up
    const long before = conformance::AllocationCount();
    for (int k = 0; k < 10; ++k) simulation.Step();
    return conformance::AllocationCount() - before;
  };
  Simulation plain = LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12", ""));
  Simulation waiting = LoadScene(Cloth(
      GridPoints(kSide), GridTriangles(kSide), "3 12",
      R"(<TopologicalChangeProcessor useDataInputs="1" timeToRemove="10" trianglesToRemove="0"/>)"));
  EXPECT_EQ(allocations(waiting), allocations(plain));
}

// A CSV trajectory keeps its columns: it stops at the change with a message, rows kept.
TEST_F(TopologicalChange, ACsvTrajectoryStopsWhenThePointsChange) {
  Simulation simulation =
      LoadScene(Cloth(GridPoints(kSide), GridTriangles(kSide), "3 12", RemoveAtSixthStep("16 17")));
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  const std::unique_ptr<TrajectoryWriter> writer = MakeCsvTrajectoryWriter(stream);
  writer->Begin(simulation);
  for (int k = 0; k < 6; ++k) {
    writer->Record(simulation);
    simulation.Step();
  }
  EXPECT_TRUE(writer->ok());
  writer->Record(simulation);
  EXPECT_FALSE(writer->ok());
  EXPECT_THAT(writer->error(), HasSubstr("'root/dofs' has 15 points from step 6"));
  std::fclose(stream);
}

}  // namespace
}  // namespace fluxion
