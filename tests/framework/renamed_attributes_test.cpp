// Attributes SOFA renamed (issue 27, item 13): an old scene's `UniformMass mass="1"` is still an
// error, but one that names the attribute SOFA renamed it to (framework/src/core/
// renamed_attributes.cpp, read from SOFA's own parse() warnings and pull requests). Each case
// also checks, in the registry, that the suggested name is a field of the component named, so a
// hint can never send the user to an attribute Fluxion would reject in turn.
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;

// A falling point whose second line is `components` (the mass, or the solvers).
std::vector<std::string> Errors(const std::string& components) {
  return testing::LoadErrors(R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  )" + components + R"(
  <MechanicalObject position="0 0 0"/>
</Node>
)",
                             "old.scn");
}

// The same with an implicit solver before the mass on line 2.
std::vector<std::string> MassErrors(const std::string& mass) {
  return Errors("<EulerImplicitSolver/> <SparseLDLSolver/> " + mass);
}

// True when `component` registers a field (or alias) called `field`.
bool HasField(const std::string& component, const std::string& field) {
  const ComponentInfo* entry = testing::TestHost().FindComponent(component);
  return entry != nullptr && entry->spec.FindField(field) != nullptr;
}

TEST(RenamedAttributes, MassesNameTheirNewAttributes) {
  EXPECT_THAT(MassErrors(R"(<UniformMass mass="1"/>)"),
              ElementsAre("old.scn:2: unknown attribute 'mass' for UniformMass (SOFA renamed it "
                          "'vertexMass' (v18.06, PR #637))"));
  EXPECT_THAT(MassErrors(R"(<UniformMass totalmass="1"/>)"),
              ElementsAre("old.scn:2: unknown attribute 'totalmass' for UniformMass (SOFA "
                          "renamed it 'totalMass' (v18.06, PR #637))"));
  EXPECT_THAT(MassErrors(R"(<DiagonalMass mass="1"/>)"),
              ElementsAre("old.scn:2: unknown attribute 'mass' for DiagonalMass (SOFA renamed "
                          "it 'vertexMass' (v18.06, PR #637))"));
  EXPECT_TRUE(HasField("UniformMass", "vertexMass"));
  EXPECT_TRUE(HasField("UniformMass", "totalMass"));
  EXPECT_TRUE(HasField("DiagonalMass", "vertexMass"));
  // The new names load.
  EXPECT_THAT(MassErrors(R"(<UniformMass vertexMass="1"/>)"), ElementsAre());
}

TEST(RenamedAttributes, SolversNameTheirNewAttributeOrItsNewComponent) {
  // StaticSolver's Newton settings went to NewtonRaphsonSolver; the old help's |R|/|R0| is
  // the new relativeInitialStoppingThreshold.
  EXPECT_THAT(
      Errors(R"(<StaticSolver newton_iterations="5" relative_residual_tolerance_threshold="1e-3"/>
  <SparseLDLSolver/> <UniformMass vertexMass="1"/>)"),
      ElementsAre("old.scn:2: unknown attribute 'newton_iterations' for StaticSolver (SOFA moved "
                  "it to NewtonRaphsonSolver: write maxNbIterationsNewton=\"…\" on a "
                  "<NewtonRaphsonSolver> in the same node (v25.06, PR #5382))",
                  "old.scn:2: unknown attribute 'relative_residual_tolerance_threshold' for "
                  "StaticSolver (SOFA moved it to NewtonRaphsonSolver: write "
                  "relativeInitialStoppingThreshold=\"…\" on a <NewtonRaphsonSolver> in the same "
                  "node (v25.06, PR #5382))"));
  // A setting SOFA dropped without a successor.
  EXPECT_THAT(Errors(R"(<StaticSolver should_diverge_when_residual_is_growing="1"/>
  <SparseLDLSolver/> <UniformMass vertexMass="1"/>)"),
              ElementsAre("old.scn:2: unknown attribute 'should_diverge_when_residual_is_growing' "
                          "for StaticSolver (SOFA no longer uses it: remove it (v25.06, PR "
                          "#5382))"));
  // The new names load.
  EXPECT_THAT(Errors(R"(<StaticSolver/> <NewtonRaphsonSolver maxNbIterationsNewton="5"
      relativeInitialStoppingThreshold="1e-3"/> <SparseLDLSolver/> <UniformMass vertexMass="1"/>)"),
              ElementsAre());
  EXPECT_TRUE(HasField("NewtonRaphsonSolver", "maxNbIterationsNewton"));
  EXPECT_TRUE(HasField("NewtonRaphsonSolver", "relativeInitialStoppingThreshold"));
  EXPECT_TRUE(HasField("NewtonRaphsonSolver", "absoluteEstimateDifferenceThreshold"));
  EXPECT_TRUE(HasField("NewtonRaphsonSolver", "relativeEstimateDifferenceThreshold"));
  EXPECT_TRUE(HasField("NewtonRaphsonSolver", "absoluteResidualStoppingThreshold"));
}

TEST(RenamedAttributes, AnAttributeSofaNeverHadKeepsTheUsualHint) {
  // Not in the table: the closest known name, as before.
  EXPECT_THAT(MassErrors(R"(<UniformMass vertexMas="1"/>)"),
              ElementsAre("old.scn:2: unknown attribute 'vertexMas' for UniformMass (did you "
                          "mean 'vertexMass'?)"));
}

}  // namespace
}  // namespace fluxion
