// VariationalSymplecticSolver: the midpoint rule's accuracy and energy conservation, the Newton
// loop (stop rule, silent non-convergence, the ‖x_n‖ = 0 guard), the Hamiltonian output and its
// CSV file, history and failure handling, parameter validation. SOFA's own cases are in
// sofa_spring_recursion_test.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "implicit_test_scenes.h"

namespace fluxion {
namespace {

using fluxion::testing::CompressedSpringScene;
using fluxion::testing::Exact;
using fluxion::testing::ExpectFailedFactorisationLeavesTheStateUntouched;
using fluxion::testing::Linear;
using fluxion::testing::LoadScene;
using ::testing::HasSubstr;

// Round-off bound for energies summed from terms of magnitude ~30 over 1000 steps.
constexpr double kRelativeTolerance = 1e-12;

class VariationalSymplecticSolverTest : public fluxion::testing::QuietTest {};

double Hamiltonian(const Simulation& simulation) {
  double value = 0.0;
  simulation.solver_nodes()[0].solver->ReadOutputs(&value);
  return value;
}

TEST_F(VariationalSymplecticSolverTest, DeclaresItsTraits) {
  const ComponentInfo* entry =
      fluxion::testing::TestHost().FindComponent("VariationalSymplecticSolver");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->traits.order, 2);
  EXPECT_EQ(entry->traits.flags,
            kImplicitMethod | kSymplecticMethod | kNeedsLinearSolver | kHasHistory);
}

// Undamped oscillator ẍ = −ω²x, x(0) = 1, v(0) = 0, exact x = cos(ωt), default Newton settings.
//
// Tolerance (second order). On a linear force the Newton loop's first iterate is already the exact
// midpoint solution, and the step (x_n, p_n) → (x_{n+1}, p_{n+1}) is the implicit midpoint rule:
// x_{n+1} = x_n + h(p_n + p_{n+1})/2m, p_{n+1} = p_n + h·f((x_n + x_{n+1})/2). On ẍ = −ω²x that
// is a rotation of (ωx, p/m) by Ψ = 2·atan(Φ/2), Φ = ωh, on the exact circle; the phase lags by
// n(Φ − Ψ) ≤ nΦ³/12, so |x_n − cos(ωt_n)| ≤ t_n·ω³·h²/12. Round-off: n·1e-15 (ulps of x ≈ 2).
class VariationalOscillator : public fluxion::testing::QuietTest,
                              public ::testing::WithParamInterface<Linear> {};

TEST_P(VariationalOscillator, FollowsTheCosineWithSecondOrderPhaseError) {
  const double omega = 2.0, h = 0.01;
  Simulation simulation = LoadScene(fluxion::testing::OscillatorScene(
      "<VariationalSymplecticSolver/>", omega, h, 1.0, 0.0, GetParam()));
  for (int n = 1; n <= 1000; ++n) {
    simulation.Step();
    const double t = n * h;
    const double bound = t * std::pow(omega, 3) * h * h / 12 + n * 1e-15;
    ASSERT_NEAR(simulation.position(1)[0] - fluxion::testing::kOscillatorRest, std::cos(omega * t),
                bound)
        << "t = " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(LinearSolvers, VariationalOscillator,
                         ::testing::Values(Linear::kCg, Linear::kLdl),
                         [](const ::testing::TestParamInfo<Linear>& param_info) {
                           return std::string(fluxion::testing::LinearName(param_info.param));
                         });

// A vertical chain (fixed anchor, two unit masses) under gravity: every spring stays along y, so
// the forces are affine in x and the potential is quadratic. The implicit midpoint rule conserves
// such a Hamiltonian H(x, p) = ½pᵀM⁻¹p + U(x) exactly, and the incremental potential
// U ← U − 2·f(midpoint)·r is the exact change of a quadratic U. So H stays equal to
//   H_0 = ½(0.5² + 0.3²) + [−(−10)(−1.2) − (−10)(−2.1)] + ½·100·0.2² + ½·50·0.1² = −30.58
// up to round-off (newtonError = 1e-12 so that the last force is the converged midpoint's).
std::string ChainScene(bool incremental) {
  return std::string(R"(<Node name="root" gravity="0 -10 0" dt="0.01">
  <VariationalSymplecticSolver newtonError="1e-12" useIncrementalPotentialEnergy=")") +
         (incremental ? "1" : "0") + R"("/>
  <CGLinearSolver iterations="3000" tolerance="1e-12" threshold="1e-12"/>
  <MechanicalObject position="0 0 0  0 -1.2 0  0 -2.1 0" velocity="0 0 0  0 0.5 0  0 -0.3 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 100 0 1  1 2 50 0 1"/>
</Node>)";
}

class VariationalHamiltonian : public fluxion::testing::QuietTest,
                               public ::testing::WithParamInterface<bool> {};

TEST_P(VariationalHamiltonian, IsConservedOnLinearSpringsWithGravity) {
  Simulation simulation = LoadScene(ChainScene(GetParam()));
  ASSERT_EQ(simulation.solver_nodes()[0].solver->OutputNames(),
            std::vector<std::string>{"hamiltonian"});
  const double initial = 0.5 * (0.25 + 0.09) - (12.0 + 21.0) + 0.5 * 100 * 0.04 + 0.5 * 50 * 0.01;
  for (int step = 1; step <= 1000; ++step) {
    simulation.Step();
    ASSERT_NEAR(Hamiltonian(simulation), initial, kRelativeTolerance * std::abs(initial))
        << "step " << step;
  }
  // The chain did move: the energy is traded between its forms, not trivially constant.
  EXPECT_GT(simulation.KineticEnergy(), 0.01);
}

INSTANTIATE_TEST_SUITE_P(PotentialEnergy, VariationalHamiltonian, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return std::string(param_info.param ? "Incremental" : "Evaluated");
                         });

TEST_F(VariationalSymplecticSolverTest, ReportsNoHamiltonianWhenNotComputed) {
  for (const char* attributes : {R"(computeHamiltonian="0")", R"(explicitIntegration="1")"}) {
    Simulation simulation = LoadScene(fluxion::testing::SofaSpringScene(
        std::string("<VariationalSymplecticSolver ") + attributes + "/>", 100, 1, 0.01,
        Linear::kCg));
    EXPECT_TRUE(simulation.solver_nodes()[0].solver->OutputNames().empty()) << attributes;
  }
}

// Steps the solver of `simulation` directly (outside Simulation::Step) to read its StepResult.
StepResult StepDirectly(const Simulation& simulation, double h, State& state) {
  const SolverNode& node = simulation.solver_nodes()[0];
  return node.solver->Step(*node.system, h, state);
}

// On SOFA's (linear) spring scene Newton's first solve is exact: the second iteration changes q by
// round-off only, below newtonError·‖x_n‖, and the loop stops after two iterations.
TEST_F(VariationalSymplecticSolverTest, NewtonStopsWhenTheIterateSettles) {
  Simulation simulation = LoadScene(fluxion::testing::SofaSpringScene(
      R"(<VariationalSymplecticSolver newtonError="1e-12"/>)", 100, 1, 0.01, Linear::kLdl));
  State state = simulation.solver_nodes()[0].state;
  const StepResult result = StepDirectly(simulation, 0.01, state);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 2);
}

// Newton missing newtonError within `steps` is silent in SOFA: the step is accepted, status ok,
// with `steps` iterations. A tilted spring is nonlinear, so with newtonError = 0 the loop runs out.
TEST_F(VariationalSymplecticSolverTest, NewtonRunningOutOfStepsIsNotAnError) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.05">
  <VariationalSymplecticSolver newtonError="0" steps="2"/>
  <SparseLDLSolver/>
  <MechanicalObject position="0 2 0  1 1 0"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>)");
  State state = simulation.solver_nodes()[0].state;
  const StepResult result = StepDirectly(simulation, 0.05, state);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 2);
  EXPECT_DOUBLE_EQ(state.time, 0.05);
}

// Every position at the origin: SOFA's err = ‖Δq‖/‖x_n‖ is 0/0 and stops Newton after one
// iteration; Fluxion uses ‖Δq‖. A free falling unit mass: the first iterate moves q by
// r = h²g/4 = 0.025 > newtonError = 0.01, the second by 0 (the force is constant), so two
// iterations; then v_1 = 2r/h = −h·g/2 and y_1 = h·v_1 = −0.05.
TEST_F(VariationalSymplecticSolverTest, ZeroPositionNormUsesTheAbsoluteNewtonError) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.1">
  <VariationalSymplecticSolver/>
  <SparseLDLSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass vertexMass="1"/>
</Node>)");
  State state = simulation.solver_nodes()[0].state;
  const StepResult result = StepDirectly(simulation, 0.1, state);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_EQ(result.iterations, 2);
  EXPECT_NEAR(state.v[1], -0.5, 1e-15);
  EXPECT_NEAR(state.x[1], -0.05, 1e-15);
}

// saveEnergyInFile: SOFA's header, then one line per step "t_n,kinetic,potential,H" where t_n is
// the start time of the step and H is the reported output.
TEST_F(VariationalSymplecticSolverTest, WritesTheEnergyFile) {
  const std::string file = "fluxion_variational_symplectic_energy_test.csv";
  std::remove(file.c_str());
  std::vector<double> reported;
  {
    Simulation simulation =
        LoadScene(
            fluxion::testing::SofaSpringScene(R"(<VariationalSymplecticSolver newtonError="1e-12"
            saveEnergyInFile="1" file=")" + file + R"("/>)",
                                              100, 1, 0.01, Linear::kCg));
    for (int step = 0; step < 3; ++step) {
      simulation.Step();
      reported.push_back(Hamiltonian(simulation));
    }
  }
  std::ifstream in(file);
  ASSERT_TRUE(in.good()) << file << " was not written";
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "time,kinetic energy,potential energy, hamiltonian energy");
  for (int step = 0; step < 3; ++step) {
    ASSERT_TRUE(std::getline(in, line)) << "missing line " << step;
    std::istringstream fields(line);
    double time = 0, kinetic = 0, potential = 0, total = 0;
    char comma = 0;
    fields >> time >> comma >> kinetic >> comma >> potential >> comma >> total;
    ASSERT_FALSE(fields.fail()) << line;
    EXPECT_NEAR(time, 0.01 * step, 1e-15);
    EXPECT_GE(kinetic, 0.0);
    EXPECT_EQ(total, reported[step]);  // written with 17 digits: round-trips exactly
    EXPECT_NEAR(kinetic + potential, total, 1e-14 * std::abs(total));
  }
  EXPECT_FALSE(std::getline(in, line)) << "extra line: " << line;
  in.close();
  std::remove(file.c_str());
}

TEST_F(VariationalSymplecticSolverTest, ReportsAnEnergyFileThatCannotBeOpened) {
  const std::string text = fluxion::testing::SceneErrorText(fluxion::testing::SofaSpringScene(
      R"(<VariationalSymplecticSolver saveEnergyInFile="1" file="no_such_folder/energy.csv"/>)",
      100, 1, 0.01, Linear::kCg));
  EXPECT_THAT(text, HasSubstr("cannot open"));
}

// A compressed spring makes the system matrix indefinite at h = 1 (implicit_test_scenes.h).
TEST_F(VariationalSymplecticSolverTest, FailedFactorisationLeavesTheStateUntouched) {
  ExpectFailedFactorisationLeavesTheStateUntouched("<VariationalSymplecticSolver/>",
                                                   "positive definite");
}

// The momentum is committed by accepted steps only: good, rejected, good gives the same state as
// good, good.
TEST_F(VariationalSymplecticSolverTest, RejectedStepKeepsTheMomentum) {
  Simulation interrupted = LoadScene(CompressedSpringScene("<VariationalSymplecticSolver/>"));
  Simulation reference = LoadScene(CompressedSpringScene("<VariationalSymplecticSolver/>"));
  State sa = interrupted.solver_nodes()[0].state, sb = reference.solver_nodes()[0].state;
  ASSERT_TRUE(StepDirectly(interrupted, 1e-3, sa).accepted());
  ASSERT_FALSE(StepDirectly(interrupted, 1.0, sa).accepted());
  ASSERT_TRUE(StepDirectly(interrupted, 1e-3, sa).accepted());
  ASSERT_TRUE(StepDirectly(reference, 1e-3, sb).accepted());
  ASSERT_TRUE(StepDirectly(reference, 1e-3, sb).accepted());
  EXPECT_EQ(sa.x, sb.x);
  EXPECT_EQ(sa.v, sb.v);
}

// SOFA warns about `verbose` ("has no use in this component"); Fluxion accepts it silently, like
// every component's bookkeeping attributes.
TEST_F(VariationalSymplecticSolverTest, AcceptsVerboseSilently) {
  (void)LoadScene(fluxion::testing::SofaSpringScene(R"(<VariationalSymplecticSolver verbose="1"/>)",
                                                    100, 1, 0.01, Linear::kCg));
}

TEST_F(VariationalSymplecticSolverTest, RejectsInvalidParameters) {
  const struct {
    const char* attributes;
    const char* expected;
  } cases[] = {{R"(steps="0")", "steps"},
               {R"(steps="1.5")", "steps"},
               {R"(newtonError="-0.01")", "newtonError"},
               {R"(rayleighStiffness="-1")", "rayleighStiffness"},
               {R"(rayleighMass="-1")", "rayleighMass"},
               {R"(saveEnergyInFile="1" file="../x.csv")", "'..'"},
               {R"(file="data/../../x.csv")", "'..'"},
               {R"(saveEnergyInFile="1" file="/tmp/x.csv")", "absolute path"},
               {R"(saveEnergyInFile="1")", "needs a file name"},
               // A misspelling of `steps` (SOFA's `newtonSteps` is the C++ member: the attribute
               // SOFA lacks too would be a warning).
               {R"(stpes="4")", "did you mean 'steps'"}};
  for (const auto& c : cases) {
    const std::string text = fluxion::testing::SceneErrorText(fluxion::testing::SofaSpringScene(
        std::string("<VariationalSymplecticSolver ") + c.attributes + "/>", 100, 1, 0.01,
        Linear::kCg));
    EXPECT_THAT(text, HasSubstr(c.expected)) << c.attributes;
  }
}

}  // namespace
}  // namespace fluxion
