// Scene-level validation of the explicit solvers' parameters: out-of-range values and unknown
// attributes are scene errors at load time, naming the attribute (except those SOFA's solver
// lacks too: warnings, as in SOFA).
#include <string>

#include "explicit_test_scenes.h"
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using fluxion::testing::LoadScene;
using fluxion::testing::SofaSpringScene;

// Loads SOFA's spring scene with `solver` and expects a SceneError whose text names `attribute`.
void ExpectSceneErrorNaming(const std::string& solver, const std::string& attribute) {
  try {
    (void)LoadScene(SofaSpringScene(solver, 100, 10, 0.01));
    ADD_FAILURE() << solver << " was accepted";
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find(attribute), std::string::npos)
        << solver << ": " << error.what();
  }
}

using ExplicitParameters = fluxion::testing::QuietTest;

TEST_F(ExplicitParameters, NegativeRayleighMassIsRejected) {
  ExpectSceneErrorNaming(R"(<CentralDifferenceSolver rayleighMass="-1"/>)", "rayleighMass");
}

TEST_F(ExplicitParameters, UnknownAttributesAreRejected) {
  ExpectSceneErrorNaming(R"(<CentralDifferenceSolver rayleighMas="0.1"/>)", "rayleighMas");
}

TEST_F(ExplicitParameters, AttributesSofasSolverLacksTooAreWarnings) {
  // SOFA's RungeKutta2Solver and RungeKutta4Solver have no rayleighMass nor steps either: SOFA
  // warns and goes on, and so does Fluxion (docs/scene-format.md, "Attributes SOFA does not
  // read").
  ExpectWarnings(2);
  EXPECT_NO_THROW((void)LoadScene(
      SofaSpringScene(R"(<RungeKutta2Solver rayleighMass="0.1"/>)", 100, 10, 0.01)));
  EXPECT_NO_THROW(
      (void)LoadScene(SofaSpringScene(R"(<RungeKutta4Solver steps="4"/>)", 100, 10, 0.01)));
}

TEST_F(ExplicitParameters, DefaultsAreAccepted) {
  EXPECT_NO_THROW((void)LoadScene(SofaSpringScene("<CentralDifferenceSolver/>", 100, 10, 0.01)));
  EXPECT_NO_THROW((void)LoadScene(
      SofaSpringScene(R"(<CentralDifferenceSolver rayleighMass="0"/>)", 100, 10, 0.01)));
  EXPECT_NO_THROW((void)LoadScene(SofaSpringScene("<RungeKutta2Solver/>", 100, 10, 0.01)));
  EXPECT_NO_THROW((void)LoadScene(SofaSpringScene("<RungeKutta4Solver/>", 100, 10, 0.01)));
}

}  // namespace
}  // namespace fluxion
