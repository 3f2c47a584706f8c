// LinearForceField (SOFA's key-framed load) and SinusoidalForceField (Fazarinc's driving force),
// mechanics/time_dependent_forces.h: forces and potential energies against hand-computed values,
// their loading from scenes (aliases, defaults, broadcasting), the stage-time evaluation (an RK4
// run on a piecewise-linear load is exact), and the bad-input contract of scene-runner.
#include "mechanics/time_dependent_forces.h"

#include <gmock/gmock.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::internal {
namespace {

using fluxion::testing::LoadScene;
using fluxion::testing::QuietTest;

constexpr double kEps = std::numeric_limits<double>::epsilon();

State MakeState(double time, std::vector<double> x) {
  State s;
  s.time = time;
  s.x = Eigen::Map<const Vector>(x.data(), static_cast<Index>(x.size()));
  s.v = Vector::Zero(static_cast<Index>(x.size()));
  return s;
}

Vector Force(const ForceField& field, const State& state) {
  Vector f = Vector::Zero(state.x.size());
  field.AddForce(state, f);
  return f;
}

Vector Values(std::vector<double> values) {
  return Eigen::Map<const Vector>(values.data(), static_cast<Index>(values.size()));
}

// --- KeyFramedForce (LinearForceField) ---------------------------------------------------------
// Vec3d, three points, the force on points 0 and 2 (DOFs 0 and 6); keys
//   T = 1: (1, 2, 3)    T = 2: (3, −2, 7)    T = 4: (1, 1, 1),    multiplier s = 0.5.
// Every value below is exact in binary, so the expectations are exact.
KeyFramedForce Keys() {
  return KeyFramedForce(3, {0, 6}, {1, 2, 4}, {1, 2, 3, 3, -2, 7, 1, 1, 1}, 0.5);
}
const std::vector<double> kPositions = {1, -1, 2, 5, 5, 5, -2, 3, 0.5};

// The force on one point, repeated on points 0 and 2 (point 1 untouched).
Vector OnPointsZeroAndTwo(double fx, double fy, double fz) {
  return Values({fx, fy, fz, 0, 0, 0, fx, fy, fz});
}

TEST(LinearForceField, NoForceBeforeTheFirstKeyTime) {
  EXPECT_EQ(Force(Keys(), MakeState(0.5, kPositions)), Vector::Zero(9));
  EXPECT_EQ(Force(Keys(), MakeState(std::nextafter(1.0, 0.0), kPositions)), Vector::Zero(9));
  EXPECT_EQ(Keys().PotentialEnergy(MakeState(0.5, kPositions)), 0.0);
}

TEST(LinearForceField, AtAKeyTimeIsThatKeysScaledForce) {
  EXPECT_EQ(Force(Keys(), MakeState(1, kPositions)), OnPointsZeroAndTwo(0.5, 1, 1.5));   // first
  EXPECT_EQ(Force(Keys(), MakeState(2, kPositions)), OnPointsZeroAndTwo(1.5, -1, 3.5));  // inner
}

TEST(LinearForceField, InterpolatesLinearlyBetweenKeysAndScales) {
  // t = 1.5: halfway between (1, 2, 3) and (3, −2, 7) → (2, 0, 5), times 0.5.
  EXPECT_EQ(Force(Keys(), MakeState(1.5, kPositions)), OnPointsZeroAndTwo(1, 0, 2.5));
  // t = 3: halfway between (3, −2, 7) and (1, 1, 1) → (2, −0.5, 4), times 0.5.
  EXPECT_EQ(Force(Keys(), MakeState(3, kPositions)), OnPointsZeroAndTwo(1, -0.25, 2));
  // t = 1.25: a quarter of the way: (1, 2, 3) + ¼·(2, −4, 4) = (1.5, 1, 4), times 0.5.
  EXPECT_EQ(Force(Keys(), MakeState(1.25, kPositions)), OnPointsZeroAndTwo(0.75, 0.5, 2));
}

TEST(LinearForceField, HoldsTheLastKeysForceUnscaledFromTheLastKeyTimeOn) {
  // SOFA's branch cT ≥ times.back(): the last key force itself, without the multiplier 0.5.
  EXPECT_EQ(Force(Keys(), MakeState(4, kPositions)), OnPointsZeroAndTwo(1, 1, 1));
  EXPECT_EQ(Force(Keys(), MakeState(1e6, kPositions)), OnPointsZeroAndTwo(1, 1, 1));
  // Just before it, the interpolation tends to s·(1, 1, 1) = (0.5, 0.5, 0.5): SOFA's jump.
  const Vector before = Force(Keys(), MakeState(std::nextafter(4.0, 0.0), kPositions));
  EXPECT_NEAR(before[0], 0.5, 8 * kEps);
  EXPECT_NEAR(before[2], 0.5, 8 * kEps);
}

TEST(LinearForceField, AddsToTheForceAndRepeatsDuplicatePoints) {
  const KeyFramedForce twice(1, {1, 1}, {0, 2}, {2, 6}, 1.0);
  Vector f = Values({10, 10});
  twice.AddForce(MakeState(0.5, {0, 0}), f);  // F = 2 + (6 − 2)·0.25 = 3, added twice on DOF 1
  EXPECT_EQ(f, Values({10, 16}));
}

TEST(LinearForceField, PotentialEnergyIsMinusTheAppliedForceDotPosition) {
  // t = 1.5: F = (1, 0, 2.5) on points 0 (1, −1, 2) and 2 (−2, 3, 0.5):
  //   −[(1 + 0 + 5) + (−2 + 0 + 1.25)] = −5.25.
  EXPECT_EQ(Keys().PotentialEnergy(MakeState(1.5, kPositions)), -5.25);
  // t = 5 (held, unscaled (1, 1, 1)): −[(1 − 1 + 2) + (−2 + 3 + 0.5)] = −3.5.
  EXPECT_EQ(Keys().PotentialEnergy(MakeState(5, kPositions)), -3.5);
}

TEST(LinearForceField, HasNoStiffnessNorDamping) {
  std::vector<MatrixEntry> entries;
  Keys().StiffnessEntries(entries);
  Keys().DampingEntries(entries);
  EXPECT_TRUE(entries.empty());
}

// --- SinusoidalForce ---------------------------------------------------------------------------

TEST(SinusoidalForceField, IsAmplitudeTimesCosineOfOmegaTPlusPhase) {
  // Vec2d, points 0 and 1 with their own amplitudes, ω = 3, φ = 0.5, t = 0.7: cos(2.6).
  const SinusoidalForce field(2, {0, 2}, {1, -2, 0.5, 4}, 3.0, 0.5);
  const State state = MakeState(0.7, {0.3, -1, 2, 0.25});
  const double c = std::cos(3.0 * 0.7 + 0.5);
  const Vector f = Force(field, state);
  const Vector expected = Values({c, -2 * c, 0.5 * c, 4 * c});
  for (Index k = 0; k < 4; ++k) EXPECT_NEAR(f[k], expected[k], 4 * kEps) << k;
  // V = −Σ F·x = −c·(0.3 + 2 + 1 + 1).
  EXPECT_NEAR(field.PotentialEnergy(state), -c * 4.3, 16 * kEps);
  // At ωt + φ = π/2 + 2π the force vanishes (to the rounding of cos near its zero).
  const State zero = MakeState((2.5 * M_PI - 0.5) / 3.0, {0.3, -1, 2, 0.25});
  EXPECT_NEAR(Force(field, zero).norm(), 0.0, 64 * kEps);
}

TEST(SinusoidalForceField, HasNoStiffnessNorDamping) {
  const SinusoidalForce field(1, {0}, {1}, 1.0, 0.0);
  std::vector<MatrixEntry> entries;
  field.StiffnessEntries(entries);
  field.DampingEntries(entries);
  EXPECT_TRUE(entries.empty());
}

// --- From scenes --------------------------------------------------------------------------------

std::string Scene(const std::string& body, const std::string& solver = "EulerExplicitSolver") {
  return R"(<Node name="root" gravity="0 0 0" dt="0.125">
  <)" + solver +
         R"(/>
  <MechanicalObject position="0 0 0  1 0 0  2 0 0"/>
  <UniformMass vertexMass="2"/>
  )" + body +
         "\n</Node>\n";
}

// The system force of the first solver node at time t (its state's x and v).
Vector SystemForce(const Simulation& simulation, double time) {
  const SolverNode& node = simulation.solver_nodes().front();
  State state = node.state;
  state.time = time;
  Vector f;
  node.system->ComputeForce(state, f);
  return f;
}

using LinearForceFieldScene = QuietTest;

TEST_F(LinearForceFieldScene, PointsAndItsAliasIndicesSelectThePoints) {
  for (const char* field : {"points", "indices"}) {
    const Simulation simulation =
        LoadScene(Scene(std::string("<LinearForceField ") + field +
                        R"(="2 0" times="0 2" forces="0 0 0  4 -8 2" force="1"/>)"));
    // t = 0.5: a quarter of (4, −8, 2).
    EXPECT_EQ(SystemForce(simulation, 0.5), Values({1, -2, 0.5, 0, 0, 0, 1, -2, 0.5})) << field;
  }
}

TEST_F(LinearForceFieldScene, WithoutPointsAppliesNoForceAndWarns) {
  // SOFA's `points` has no default: no force at all. Fluxion says so.
  ExpectWarnings(1);
  const Simulation simulation =
      LoadScene(Scene(R"(<LinearForceField times="0 1" forces="1 1 1  2 2 2"/>)"));
  EXPECT_EQ(SystemForce(simulation, 0.5), Vector::Zero(9));
}

TEST_F(LinearForceFieldScene, WarnsThatTheMultiplierDoesNotScaleTheHeldForce) {
  ExpectWarnings(1);
  const Simulation simulation = LoadScene(
      Scene(R"(<LinearForceField points="1" times="0 1" forces="1 1 1  2 4 6" force="3"/>)"));
  EXPECT_EQ(SystemForce(simulation, 0.5), Values({0, 0, 0, 4.5, 7.5, 10.5, 0, 0, 0}));
  EXPECT_EQ(SystemForce(simulation, 1.5), Values({0, 0, 0, 2, 4, 6, 0, 0, 0}));
}

using SinusoidalForceFieldScene = QuietTest;

TEST_F(SinusoidalForceFieldScene, BroadcastsOneAmplitudeToEveryPoint) {
  const Simulation simulation =
      LoadScene(Scene(R"(<SinusoidalForceField amplitude="1 -2 3" omega="2" phase="0.25"/>)"));
  const double c = std::cos(2 * 0.3 + 0.25);
  const Vector f = SystemForce(simulation, 0.3);
  const Vector expected = Values({c, -2 * c, 3 * c, c, -2 * c, 3 * c, c, -2 * c, 3 * c});
  EXPECT_NEAR((f - expected).lpNorm<Eigen::Infinity>(), 0.0, 4 * kEps);
}

TEST_F(SinusoidalForceFieldScene, TakesOneAmplitudePerIndex) {
  const Simulation simulation = LoadScene(
      Scene(R"(<SinusoidalForceField indices="2 1" amplitude="1 0 0  0 0 5" omega="0"/>)"));
  // ω = 0, φ = 0: a constant force A (cos 0 = 1 exactly).
  EXPECT_EQ(SystemForce(simulation, 7.0), Values({0, 0, 0, 0, 0, 5, 1, 0, 0}));
}

// --- Stage times: RK4 on m·a = F(t) with a piecewise-linear F is exact
// ----------------------------- For a force of time only, RK4's velocity update is Simpson's rule
// on F/m (exact for cubics) and its position update x_{n+1} = x_n + h·v_n + (h²/6)·(a(t_n) +
// 2·a(t_n + h/2)) is exact for quadratic a. A linear ramp between key times that fall on step
// boundaries is therefore integrated exactly, provided each stage sees F at its own time; with
// SOFA's context time (F(t_n) at every stage) the velocity would be a left Riemann sum, in error by
// ~h·ΔF/(2m) per segment. Keys (Vec2d, m = 2): nothing before T = 0.5, then 0 → (4, −2) at 1.5 →
// (1, 3) at 2.5, held.
TEST(LinearForceFieldStages, RungeKutta4IsExactOnAPiecewiseLinearLoad) {
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.125">
  <RungeKutta4Solver/>
  <MechanicalObject template="Vec2d" position="1 -1" velocity="0.5 0.25"/>
  <UniformMass vertexMass="2"/>
  <LinearForceField points="0" times="0.5 1.5 2.5" forces="0 0  4 -2  1 3"/>
</Node>)");
  const double mass = 2.0;
  const double forces[3][2] = {{0, 0}, {4, -2}, {1, 3}};
  // The exact motion: on each segment [T_k, T_{k+1}) the acceleration a_k + b_k·τ is integrated in
  // closed form: v = v_k + a_k·τ + b_k·τ²/2, x = x_k + v_k·τ + a_k·τ²/2 + b_k·τ³/6.
  const auto exact = [&](double t, int axis, double& x, double& v) {
    x = axis == 0 ? 1.0 : -1.0;
    v = axis == 0 ? 0.5 : 0.25;
    const double bounds[4] = {0.0, 0.5, 1.5, 2.5};
    const double accel[4] = {0.0, forces[0][axis] / mass, forces[1][axis] / mass,
                             forces[2][axis] / mass};
    const double slope[4] = {0.0, (forces[1][axis] - forces[0][axis]) / mass,
                             (forces[2][axis] - forces[1][axis]) / mass, 0.0};
    for (int k = 0; k < 4; ++k) {
      const double end = k < 3 ? std::min(t, bounds[k + 1]) : t;
      if (end <= bounds[k]) break;
      const double tau = end - bounds[k];
      x += v * tau + accel[k] * tau * tau / 2 + slope[k] * tau * tau * tau / 6;
      v += accel[k] * tau + slope[k] * tau * tau / 2;
    }
  };
  // 32 steps of 0.125 (binary-exact, so key times are step boundaries) to t = 4. Rounding: each
  // step adds a few ulps of the state (|x|, |v| ≤ 10 here), and the exact map propagates errors
  // without growth (x += h·v: at most n·h times the velocity error): 16·(n + 1)·eps·10.
  for (int n = 1; n <= 32; ++n) {
    simulation.Step();
    const double t = n * 0.125;
    for (int axis = 0; axis < 2; ++axis) {
      double x = 0, v = 0;
      exact(t, axis, x, v);
      const double rounding = 16.0 * (n + 1) * kEps * 10.0;
      ASSERT_NEAR(simulation.position(0)[axis], x, rounding) << "n = " << n << ", axis " << axis;
      ASSERT_NEAR(simulation.velocity(0)[axis], v, rounding) << "n = " << n << ", axis " << axis;
    }
  }
}

// scenes/sofa_linear_force_ramp.scn: m = 2 kg, F_y = 8 N·(t − 1) on [1, 2], 8 N·(3 − t) on [2, 3],
// 0 before and after (the last key, 0, held). Integrating a = F/m twice from rest at the origin:
//   [1, 2]: v = 2(t − 1)²,               y = (2/3)(t − 1)³
//   [2, 3]: v = 2 + 4u − 2u², u = t − 2,  y = 2/3 + 2u + 2u² − (2/3)u³
//   t ≥ 3:  v = 4,                        y = 4 + 4(t − 3)
// RK4 is exact on it (see above); dt = 1/16 puts the keys on step boundaries exactly.
TEST(LinearForceFieldStages, RampSceneFollowsItsClosedForm) {
  std::ifstream in(std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/sofa_linear_force_ramp.scn");
  ASSERT_TRUE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  Simulation simulation = LoadScene(text.str(), "sofa_linear_force_ramp.scn");
  const auto exact = [](double t, double& y, double& v) {
    if (t <= 1) {
      y = v = 0;
    } else if (t <= 2) {
      v = 2 * (t - 1) * (t - 1);
      y = 2.0 / 3.0 * std::pow(t - 1, 3);
    } else if (t <= 3) {
      const double u = t - 2;
      v = 2 + 4 * u - 2 * u * u;
      y = 2.0 / 3.0 + 2 * u + 2 * u * u - 2.0 / 3.0 * u * u * u;
    } else {
      v = 4;
      y = 4 + 4 * (t - 3);
    }
  };
  // Rounding as above, with |y| ≤ 12 over the run.
  for (int n = 1; n <= 5 * 16; ++n) {
    simulation.Step();
    double y = 0, v = 0;
    exact(n / 16.0, y, v);
    ASSERT_NEAR(simulation.position(0)[1], y, 16.0 * (n + 1) * kEps * 12) << "n = " << n;
    ASSERT_NEAR(simulation.velocity(0)[1], v, 16.0 * (n + 1) * kEps * 12) << "n = " << n;
    ASSERT_EQ(simulation.position(0)[0], 0.0);
    ASSERT_EQ(simulation.position(0)[2], 0.0);
  }
}

// --- Bad input through scene-runner: one `error: FILE:LINE:` line, exit status 2 ---------------

using fluxion::testing::RunSceneRunner;
using fluxion::testing::ScratchFolder;
using fluxion::testing::ShellQuote;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Writes `body` as line 5 of a scene with a three-point Vec3d object and runs scene-runner.
void ExpectSceneError(const std::string& name, const std::string& body,
                      const std::vector<std::string>& words) {
  SCOPED_TRACE(name);
  ScratchFolder scratch;
  const std::string scene = scratch.Write(name, R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0  2 0 0"/>
  <UniformMass vertexMass="1"/>
  )" + body + "\n</Node>\n");
  const auto result =
      RunSceneRunner(ShellQuote(scene) + " --steps 2 -q -o " + ShellQuote(scratch / "out.csv"));
  EXPECT_EQ(result.status, 2) << result.err;
  const std::vector<std::string> lines = fluxion::testing::Lines(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  EXPECT_THAT(lines[0], StartsWith("error: " + scene + ":5: "));
  for (const std::string& word : words) EXPECT_THAT(lines[0], HasSubstr(word));
}

TEST(TimeDependentBadInput, KeyTimesNotIncreasing) {
  ExpectSceneError("decreasing.scn",
                   R"(<LinearForceField points="0" times="0 2 1" forces="0 0 0  1 1 1  2 2 2"/>)",
                   {"LinearForceField 'times' is not strictly increasing", "1 follows 2"});
  ExpectSceneError("repeated.scn",
                   R"(<LinearForceField points="0" times="0 1 1" forces="0 0 0  1 1 1  2 2 2"/>)",
                   {"not strictly increasing", "1 follows 1"});
}

TEST(TimeDependentBadInput, ForcesNotOnePerKeyTime) {
  ExpectSceneError("count.scn", R"(<LinearForceField points="0" times="0 1" forces="0 0 0  1 1"/>)",
                   {"LinearForceField 'forces' has 5 numbers", "expected 6", "per key time"});
}

TEST(TimeDependentBadInput, PointOutOfRange) {
  ExpectSceneError("range.scn", R"(<LinearForceField points="0 3" times="0" forces="1 1 1"/>)",
                   {"<LinearForceField> point 3 is out of range", "expected 0..2"});
  ExpectSceneError("range_sine.scn",
                   R"(<SinusoidalForceField indices="5" amplitude="1 0 0" omega="1"/>)",
                   {"<SinusoidalForceField> point 5 is out of range"});
}

TEST(TimeDependentBadInput, AmplitudeNotOneOrOnePerIndex) {
  ExpectSceneError("amplitude.scn",
                   R"(<SinusoidalForceField indices="0 1" amplitude="1 0 0  1 0" omega="1"/>)",
                   {"SinusoidalForceField 'amplitude' has 5 numbers", "expected 3 or 6"});
}

TEST(TimeDependentBadInput, SinusoidWithoutOmegaOrWithANegativeOne) {
  ExpectSceneError("no_omega.scn", R"(<SinusoidalForceField amplitude="1 0 0"/>)",
                   {"SinusoidalForceField needs 'amplitude' and 'omega'"});
  ExpectSceneError("negative_omega.scn", R"(<SinusoidalForceField amplitude="1 0 0" omega="-1"/>)",
                   {"omega"});
}

}  // namespace
}  // namespace fluxion::internal
