// The paper solvers' parameters: bad values are scene errors at load time, with a message that
// names the field; the declared traits are what the papers (and the plugins' derivations) give.
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "oscillator.h"

namespace fluxion {
namespace {

using papers::OscillatorScene;
using papers::SolverUnderTest;

// Loads `element` in the oscillator scene and expects a SceneError mentioning `field`.
void ExpectSceneError(const std::string& element, bool linear_solver, const std::string& field) {
  try {
    testing::LoadScene(OscillatorScene({element, linear_solver}, 0.1, 1.0, 0.0));
    ADD_FAILURE() << element << " loaded";
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what()).find(field), std::string::npos)
        << element << ": " << error.what();
  }
}

class PaperSolverParameters : public testing::QuietTest {};

TEST_F(PaperSolverParameters, RejectsAnUnknownVelocityEstimate) {
  ExpectSceneError(R"(<ModifiedEulerSolver velocityEstimate="leapfrog"/>)", false,
                   "velocityEstimate");
}

TEST_F(PaperSolverParameters, AcceptsEveryTable1Estimate) {
  for (const std::string estimate : {"euler", "ab2", "trapezoidal", "predictor"})
    EXPECT_NO_THROW(testing::LoadScene(OscillatorScene(
        {R"(<ModifiedEulerSolver velocityEstimate=")" + estimate + R"("/>)"}, 0.1, 1.0, 0.0)))
        << estimate;
}

TEST_F(PaperSolverParameters, RejectsNegativeRayleighDamping) {
  struct Solver {
    std::string name;
    bool linear_solver;
  };
  for (const Solver& s :
       {Solver{"StandardHeunSolver", false}, Solver{"FalseHeunSolver", false},
        Solver{"SemiFalseHeunSolver", false}, Solver{"MidpointSolver", false},
        Solver{"AdamsBashforth2Solver", false}, Solver{"ModifiedEulerSolver", false},
        Solver{"TrapezoidalSolver", true}}) {
    ExpectSceneError("<" + s.name + R"( rayleighMass="-0.1"/>)", s.linear_solver, "rayleighMass");
    ExpectSceneError("<" + s.name + R"( rayleighStiffness="-1e-3"/>)", s.linear_solver,
                     "rayleighStiffness");
    EXPECT_NO_THROW(testing::LoadScene(OscillatorScene(
        {"<" + s.name + R"( rayleighMass="0.1" rayleighStiffness="0.01"/>)", s.linear_solver}, 0.1,
        1.0, 0.0)))
        << s.name;
  }
}

TEST_F(PaperSolverParameters, RayleighDampingIsTheForceMinusRmMvMinusRkKv) {
  // On the unit oscillator M = K = 1, so rayleighMass = c and rayleighStiffness = c must both act
  // exactly as a drag f = −c·v (UniformVelocityDampingForceField, B = c·I): same trajectory to
  // round-off, for one-step methods and for those with history (ModifiedEuler's trapezoidal
  // estimate takes c from diag(rM·M + rK·K) or from B).
  constexpr double kC = 0.3, kH = 0.2;
  struct Solver {
    std::string name;
    bool linear_solver;
  };
  for (const Solver& s :
       {Solver{"StandardHeunSolver", false}, Solver{"FalseHeunSolver", false},
        Solver{"SemiFalseHeunSolver", false}, Solver{"MidpointSolver", false},
        Solver{"AdamsBashforth2Solver", false}, Solver{"ModifiedEulerSolver", false},
        Solver{R"(ModifiedEulerSolver velocityEstimate="trapezoidal")", false},
        Solver{R"(ModifiedEulerSolver velocityEstimate="ab2")", false},
        Solver{"TrapezoidalSolver", true}}) {
    const std::vector<double> drag =
        papers::PositionRun({"<" + s.name + "/>", s.linear_solver}, kH, 40, kC);
    for (const std::string field : {"rayleighMass", "rayleighStiffness"}) {
      const std::vector<double> rayleigh = papers::PositionRun(
          {"<" + s.name + " " + field + "=\"" + papers::Real(kC) + "\"/>", s.linear_solver}, kH,
          40);
      for (std::size_t n = 0; n < drag.size(); ++n)
        ASSERT_NEAR(rayleigh[n], drag[n], 1e-13) << s.name << " " << field << " step " << n;
    }
  }
}

TEST_F(PaperSolverParameters, SymplecticSolversHaveNoRayleighFields) {
  for (const std::string name : {"SymplecticEulerSolver", "VelocityVerletSolver",
                                 "PositionVerletSolver", "ForestRuthSolver"})
    ExpectSceneError("<" + name + R"( rayleighMass="0.1"/>)", false, "rayleighMass");
}

TEST_F(PaperSolverParameters, TrapezoidalNewtonSettingsAndLinearSolver) {
  ExpectSceneError(R"(<TrapezoidalSolver newtonTolerance="0"/>)", true, "newtonTolerance");
  ExpectSceneError(R"(<TrapezoidalSolver newtonIterations="0"/>)", true, "newtonIterations");
  ExpectSceneError("<TrapezoidalSolver/>", false, "linear solver");
}

TEST_F(PaperSolverParameters, TrapezoidalNewtonNotConvergingIsAWarningNotAFailure) {
  // A swinging spring pendulum is nonlinear: one Newton iteration cannot meet 1e-12, so the step
  // is kept with status "not converged" (logged once as a warning by the solver base); with the
  // default 10 iterations it converges silently.
  const std::string scene = R"(<Node name="root" gravity="0 -10 0" dt="0.05">
  <TrapezoidalSolver newtonIterations="ITERATIONS" newtonTolerance="1e-12"/>
  <SparseLDLSolver/>
  <Node name="pendulum">
    <MechanicalObject template="Vec2d" position="0 0  1 0"/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 100 0 1"/>
  </Node>
</Node>)";
  auto with_iterations = [&](const std::string& count) {
    std::string xml = scene;
    xml.replace(xml.find("ITERATIONS"), 10, count);
    return xml;
  };
  Simulation converging = testing::LoadScene(with_iterations("10"));
  converging.Step();
  Simulation limited = testing::LoadScene(with_iterations("1"));
  ExpectWarnings(1);
  limited.Step();
  EXPECT_EQ(limited.step_count(), 1);
  // The kept iterate is the first Newton step: close to the converged state, not equal.
  const double difference = (limited.position(0) - converging.position(0)).cwiseAbs().maxCoeff();
  EXPECT_GT(difference, 0.0);
  EXPECT_LT(difference, 1e-2);
}

TEST_F(PaperSolverParameters, DeclaredTraits) {
  struct Row {
    std::string name;
    int order;
    unsigned flags;
    int force_evaluations, linear_solves;
  };
  const unsigned ex = kExplicitMethod, sy = kSymplecticMethod, hi = kHasHistory;
  for (const Row& row :
       {Row{"SymplecticEulerSolver", 1, ex | sy, 1, 0}, Row{"StandardHeunSolver", 2, ex, 2, 0},
        Row{"FalseHeunSolver", 1, ex, 2, 0}, Row{"SemiFalseHeunSolver", 2, ex, 2, 0},
        Row{"MidpointSolver", 2, ex, 2, 0}, Row{"VelocityVerletSolver", 2, ex | sy, 2, 0},
        Row{"PositionVerletSolver", 2, ex | sy, 1, 0}, Row{"ForestRuthSolver", 4, ex | sy, 3, 0},
        Row{"TrapezoidalSolver", 2, kImplicitMethod | kNeedsLinearSolver, 1, 1},
        Row{"ModifiedEulerSolver", 2, ex | sy | hi, 1, 0},
        Row{"AdamsBashforth2Solver", 2, ex | hi, 1, 0}}) {
    const ComponentInfo* entry = testing::TestHost().FindComponent(row.name);
    ASSERT_NE(entry, nullptr) << row.name;
    EXPECT_EQ(entry->traits.order, row.order) << row.name;
    EXPECT_EQ(entry->traits.flags, row.flags) << row.name;
    EXPECT_EQ(entry->traits.force_evaluations, row.force_evaluations) << row.name;
    EXPECT_EQ(entry->traits.linear_solves, row.linear_solves) << row.name;
  }
}

}  // namespace
}  // namespace fluxion
