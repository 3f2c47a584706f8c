// SOFA's rule on attributes no field reads (build/read_pass.cpp, registry/sofa_fields.*): one
// SOFA's own component does not have either (checked in SOFA's source, e.g. UniformMass.inl has
// no `maxIter`) is a warning and the scene runs; one SOFA's component has and Fluxion's does not
// (UniformMass's `indices`) is still an error, as is any unknown attribute of a component whose
// SOFA attribute list the generator could not make complete (MechanicalObject's).
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>

#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string Scene(const std::string& mass, const std::string& object = "") {
  return R"(<Node name="root" dt="0.1" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0" )" +
         object + R"(/>
  <UniformMass vertexMass="2" )" +
         mass + R"(/>
</Node>)";
}

class SofaAttributeRule : public testing::QuietTest {};

TEST_F(SofaAttributeRule, AnAttributeSofaLacksTooIsAWarning) {
  ExpectWarnings(1);
  EXPECT_THAT(testing::LoadErrors(Scene(R"(maxIter="25")")), IsEmpty());
}

TEST_F(SofaAttributeRule, TheWarningIsOneLineAtTheAttribute) {
  const std::filesystem::path file =
      std::filesystem::path(::testing::TempDir()) / "sofa_attribute_rule.scn";
  std::ofstream(file) << Scene(R"(maxIter="25")");
  const testing::CommandResult result =
      testing::RunCommand(testing::SceneRunner() + " " + file.string() + " --steps 1 -o /dev/null");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("warning: " + file.string() +
                                    ":4: attribute 'maxIter' ignored: UniformMass has no such "
                                    "field, in SOFA either"));
}

TEST_F(SofaAttributeRule, AnAttributeSofaHasAndFluxionLacksIsAnError) {
  EXPECT_THAT(testing::LoadErrors(Scene(R"(indices="0")")),
              ElementsAre(HasSubstr("unknown attribute 'indices' for UniformMass")));
  // A plausible misspelling of a field: the error with its "did you mean" (SOFA would warn and
  // leave vertexMass unset).
  EXPECT_THAT(testing::LoadErrors(Scene(R"(vertexMas="1")")),
              ::testing::Contains(HasSubstr("unknown attribute 'vertexMas' for UniformMass (did "
                                            "you mean 'vertexMass'?)")));
  // SOFA renamed `mass` (the hint says to what): an error, not a warning.
  EXPECT_THAT(testing::LoadErrors(Scene(R"(mass="1")")),
              ElementsAre(HasSubstr("unknown attribute 'mass' for UniformMass")));
}

TEST_F(SofaAttributeRule, AComponentWithoutACompleteSofaListKeepsTheError) {
  EXPECT_THAT(testing::LoadErrors(Scene("", R"(maxIter="25")")),
              ElementsAre(HasSubstr("unknown attribute 'maxIter' for MechanicalObject")));
}

}  // namespace
}  // namespace fluxion
