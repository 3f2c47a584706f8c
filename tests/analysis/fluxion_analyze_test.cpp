// fluxion-analyze as a user runs it: its CSV and JSON formats, exit statuses, --order, --energy,
// --plot, and docs/integrators.md being exactly its --markdown output.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/test_support.h"

namespace fluxion {
namespace {

using nlohmann::json;

std::string Analyze(const std::string& arguments) {
  return std::string(FLUXION_ANALYZE) + " " + arguments;
}

fluxion::testing::CommandResult RunAnalyze(const std::string& arguments) {
  return fluxion::testing::RunCommand(Analyze(arguments));
}

std::string ReadFile(const std::string& path) {
  std::ifstream stream(path);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

// Writes `text` to a file in the test's temporary folder and returns its path.
std::string WriteScene(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

bool SolverAvailable(const std::string& name) {
  const auto result = RunAnalyze("--list-solvers");
  return result.status == 0 && result.out.find(name + "\t") != std::string::npos;
}

std::vector<std::string> Split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, separator);) fields.push_back(field);
  return fields;
}

// A pendulum-like chain: three 0.1 kg beads on stiff springs, held at one end, released
// horizontally under gravity. Large rotations make the forces nonlinear in the positions.
constexpr const char* kChain = R"(<Node name="root" gravity="0 -9.81 0" dt="0.002">
  <EulerExplicitSolver/>
  <MechanicalObject name="beads" template="Vec3d" position="0 0 0  0.1 0 0  0.2 0 0  0.3 0 0"/>
  <UniformMass vertexMass="0.1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 200 0 0.1  1 2 200 0 0.1  2 3 200 0 0.1"/>
</Node>
)";

// The undamped 1-DOF oscillator (ω = 1) at Φ = 0.1, released 0.5 m from rest. The spring's rest
// length (100 m) stays far above the amplitude, even when forward Euler multiplies it by ~150:
// the spring never inverts, so the force stays linear.
constexpr const char* kOscillator = R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject template="Vec1d" position="0 100.5" velocity="0 0"/>
  <DiagonalMass vertexMass="0 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1 0 100"/>
</Node>
)";

TEST(FluxionAnalyze, PhiSweepIsTheDocumentedCsv) {
  const auto result = RunAnalyze("--solver EulerExplicitSolver --param symplectic=0 --phi 0.5:2:4");
  ASSERT_EQ(result.status, 0) << result.err;
  std::istringstream lines(result.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "phi,spectral_radius,psi,frequency_ratio,amplitude_error");
  int rows = 0;
  for (; std::getline(lines, line); ++rows) {
    const std::vector<std::string> fields = Split(line, ',');
    ASSERT_EQ(fields.size(), 5u) << line;
    const double phi = std::stod(fields[0]), r = std::stod(fields[1]), psi = std::stod(fields[2]);
    EXPECT_NEAR(phi, 0.5 + 0.5 * rows, 1e-12);
    EXPECT_NEAR(r * r, 1.0 + phi * phi, 1e-6);  // Hoffmann's Standard Euler
    EXPECT_NEAR(psi, std::atan(phi), 1e-6);
    EXPECT_NEAR(std::stod(fields[3]), psi / phi, 1e-12);
    EXPECT_NEAR(std::stod(fields[4]), r - 1.0, 1e-12);
  }
  EXPECT_EQ(rows, 4);
}

TEST(FluxionAnalyze, SummaryIsOneJsonObject) {
  const auto result = RunAnalyze("--solver EulerExplicitSolver --param symplectic=0 --summary");
  ASSERT_EQ(result.status, 0) << result.err;
  const json summary = json::parse(result.out);
  ASSERT_TRUE(summary.is_object());
  EXPECT_EQ(summary["solver"], "EulerExplicitSolver");
  EXPECT_EQ(summary["params"], json({{"symplectic", "0"}}));
  EXPECT_EQ(summary["stability_limit"], 0.0);
  // Which order is which: forward Euler's positions are first order (global), one step errs by
  // O(h²) (local: T(Φ) = [1 Φ; −Φ 1] against the rotation, off by Φ²/2), and its root
  // z = 1 + iΦ has e_λ = ln(1 + iΦ)/(iΦ) − 1 ≈ −iΦ/2: k = 1 (Howe, Table 2: Euler, e_I = 1/2).
  EXPECT_EQ(summary["declared_order"], 1);
  EXPECT_NEAR(summary["global_order"].get<double>(), 1.0, 0.1) << result.out;
  EXPECT_NEAR(summary["local_error_order"].get<double>(), 2.0, 0.1) << result.out;
  EXPECT_EQ(summary["root_error_order"], 1);
  EXPECT_FALSE(summary.contains("order"));                              // the ambiguous key is gone
  EXPECT_NEAR(summary["error_coefficient"].get<double>(), 0.5, 0.025);  // Howe, Table 2: Euler
  EXPECT_EQ(summary["measurement"], "transition_matrix");
  EXPECT_EQ(summary["force_evaluations"], 1);
  EXPECT_EQ(summary["linear_solves"], 0);
}

// The declared traits are the instance's (Solver::RefineTraits): forward Euler is not symplectic
// (|z| = √(1 + Φ²) > 1, which the measurement shows too), and VariationalSymplecticSolver's
// explicit variant is symplectic Euler: explicit, order 1, no linear solve per step.
TEST(FluxionAnalyze, DeclaredTraitsFollowTheSolversParameters) {
  const auto forward = RunAnalyze("--solver EulerExplicitSolver --param symplectic=0 --summary");
  ASSERT_EQ(forward.status, 0) << forward.err;
  const json euler = json::parse(forward.out);
  EXPECT_EQ(euler["symplectic"], false);
  EXPECT_EQ(euler["area_preserving"], false);
  const auto semi = RunAnalyze("--solver EulerExplicitSolver --summary");
  ASSERT_EQ(semi.status, 0) << semi.err;
  EXPECT_EQ(json::parse(semi.out)["symplectic"], true);

  const auto variational =
      RunAnalyze("--solver VariationalSymplecticSolver --param explicitIntegration=1 --summary");
  ASSERT_EQ(variational.status, 0) << variational.err;
  const json vs = json::parse(variational.out);
  EXPECT_EQ(vs["declared_order"], 1);
  EXPECT_EQ(vs["explicit"], true);
  EXPECT_EQ(vs["implicit"], false);
  EXPECT_EQ(vs["linear_solves"], 0);
  const auto implicit = RunAnalyze("--solver VariationalSymplecticSolver --summary");
  ASSERT_EQ(implicit.status, 0) << implicit.err;
  EXPECT_EQ(json::parse(implicit.out)["declared_order"], 2);
}

TEST(FluxionAnalyze, EachParamBelongsToThePrecedingSolver) {
  const auto result = RunAnalyze(
      "--summary --solver EulerExplicitSolver --param symplectic=0 --solver EulerExplicitSolver");
  ASSERT_EQ(result.status, 0) << result.err;
  const json summaries = json::parse(result.out);
  ASSERT_TRUE(summaries.is_array());
  ASSERT_EQ(summaries.size(), 2u);
  EXPECT_EQ(summaries[0]["params"], json({{"symplectic", "0"}}));
  EXPECT_EQ(summaries[1]["params"], json::object());
  EXPECT_EQ(summaries[0]["stability_limit"], 0.0);
  EXPECT_NEAR(summaries[1]["stability_limit"].get<double>(), 2.0, 0.01);
}

// BDF-s against the textbook: its principal root is ζ = e^z + z^(s+1)/(s+1) + …, z = λh (error
// constant −β/(s+1), σ(1) = β), so Howe's root error e_λ ≈ −e_I·z^s has order k = s and
// e_I = −1/(s+1). On the undamped oscillator (z = iΦ), Re ln ζ ≈ Re (iΦ)^(s+1)/(s+1): BDF1 damps
// (−Φ²/2), BDF2 is A-stable (stable at every Φ), BDF3 grows (+Φ⁴/4: unstable from Φ → 0). The
// root-error fit's tolerance: 1e-3 for s ≤ 3, as for Euler above relative to its 0.5; BDF4's
// e_λ ∝ Φ⁴ leaves few points above the fit's noise, which biases e_I by a few percent (0.01).
TEST(FluxionAnalyze, BdfRootErrorAndStabilityAreTheTextbooks) {
  for (int s = 1; s <= 4; ++s) {
    const auto result =
        RunAnalyze("--solver BDFOdeSolver --param order=" + std::to_string(s) + " --summary");
    ASSERT_EQ(result.status, 0) << result.err;
    const json summary = json::parse(result.out);
    EXPECT_EQ(summary["root_error_order"], s) << "BDF" << s;
    EXPECT_NEAR(summary["error_coefficient"].get<double>(), -1.0 / (s + 1), s <= 3 ? 1e-3 : 0.01)
        << "BDF" << s;
    if (s <= 2) {
      EXPECT_TRUE(summary["stability_limit"].is_null()) << "BDF" << s << " is A-stable";
    } else if (s == 3) {
      EXPECT_EQ(summary["stability_limit"], 0.0);
    }
  }
}

// Static solvers have no motion to analyse: a clear refusal, exit status 2.
TEST(FluxionAnalyze, StaticSolverIsRefused) {
  const auto result = RunAnalyze("--solver StaticSolver --summary");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("computes static equilibria"), std::string::npos) << result.err;
}

TEST(FluxionAnalyze, UnknownSolverOrParameterExitsWithInvalidInput) {
  auto result = RunAnalyze("--solver NoSuchThing --summary");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("unknown solver 'NoSuchThing'"), std::string::npos) << result.err;

  result = RunAnalyze("--solver EulerExplicitSolverr --phi 1:1:1");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("did you mean 'EulerExplicitSolver'"), std::string::npos) << result.err;

  result = RunAnalyze("--solver EulerExplicitSolver --param symplectik=0 --phi 1:1:1");
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_NE(result.err.find("symplectik"), std::string::npos) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;

  EXPECT_EQ(RunAnalyze("--solver EulerExplicitSolver --param symplectic --phi 1:1:1").status, 2);
  EXPECT_EQ(RunAnalyze("--param symplectic=0 --solver EulerExplicitSolver --phi 1:1:1").status, 2);
  EXPECT_EQ(RunAnalyze("--solver EulerExplicitSolver --phi 2:1:3").status, 2);
  EXPECT_EQ(RunAnalyze("--solver EulerExplicitSolver").status, 2);  // no mode
  EXPECT_EQ(RunAnalyze("--solver EulerExplicitSolver --summary --phi 1:2:2").status,
            2);  // two modes
}

TEST(FluxionAnalyze, OrderOnANonlinearChainIsOneForEuler) {
  const std::string scene = WriteScene("analyze_chain.scn", kChain);
  const auto result = RunAnalyze("--order " + scene);  // the scene's own EulerExplicitSolver
  ASSERT_EQ(result.status, 0) << result.err;
  const json order = json::parse(result.out);
  ASSERT_EQ(order["runs"].size(), 4u);
  EXPECT_NEAR(order["dt"].get<double>(), 0.002, 1e-15);
  EXPECT_NEAR(order["reference_dt"].get<double>(), 0.002 / 1024, 1e-15);
  // Symplectic Euler is first order (Hoffmann, Sachs); ±0.15 is the issue's bound.
  EXPECT_NEAR(order["global_order"].get<double>(), 1.0, 0.15) << result.out;
  EXPECT_EQ(order["pair_orders"].size(), 3u);
  EXPECT_EQ(order["fit_dt"].size(), 2u);
  EXPECT_FALSE(order.contains("order"));

  // The same with the solver replaced from the command line.
  const auto forward =
      RunAnalyze("--solver EulerExplicitSolver --param symplectic=0 --order " + scene);
  ASSERT_EQ(forward.status, 0) << forward.err;
  EXPECT_NEAR(json::parse(forward.out)["global_order"].get<double>(), 1.0, 0.15) << forward.out;
}

TEST(FluxionAnalyze, OrderWithAReplacedSolverThatNeedsALinearSolver) {
  if (!SolverAvailable("NewmarkImplicitSolver"))
    GTEST_SKIP() << "NewmarkImplicitSolver is not on the plugin path";
  const std::string scene = WriteScene("analyze_chain_newmark.scn", kChain);
  // The chain has no linear solver: the analyzer adds a SparseLDLSolver beside the Newmark solver.
  const auto result = RunAnalyze("--solver NewmarkImplicitSolver --order " + scene);
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NEAR(json::parse(result.out)["global_order"].get<double>(), 2.0, 0.15) << result.out;
}

TEST(FluxionAnalyze, EnergyOfSymplecticEulerIsBoundedAndForwardEulerGrows) {
  const std::string scene = WriteScene("analyze_oscillator.scn", kOscillator);
  // 10⁵ steps at Φ = 0.1: symplectic Euler conserves a modified energy, so E oscillates by O(Φ)
  // around a constant (no trend); the means over 10⁴-step windows (≈ 160 periods) agree to far
  // better than the 1e-3 asserted here.
  const auto symplectic = RunAnalyze("--energy " + scene + " --steps 100000");
  ASSERT_EQ(symplectic.status, 0) << symplectic.err;
  const json bounded = json::parse(symplectic.out);
  EXPECT_LT(std::abs(bounded["relative_drift"].get<double>()), 1e-3) << symplectic.out;
  EXPECT_EQ(bounded["drift_measure"], "relative: the relative_ numbers divide by |E0|");
  EXPECT_LT(bounded["relative_oscillation"].get<double>(), 0.1) << symplectic.out;  // O(Φ) = 0.1
  EXPECT_EQ(bounded["steps"], 100000);

  // Forward Euler multiplies E by 1 + Φ² every step: ×(1.01)^1000 ≈ e^10 over 1000 steps.
  const auto forward = RunAnalyze("--solver EulerExplicitSolver --param symplectic=0 --energy " +
                                  scene + " --steps 1000");
  ASSERT_EQ(forward.status, 0) << forward.err;
  const json growing = json::parse(forward.out);
  EXPECT_NEAR(growing["final_energy"].get<double>() / growing["initial_energy"].get<double>(),
              std::pow(1.01, 1000), 1e-6 * std::pow(1.01, 1000));
  EXPECT_GT(growing["relative_drift"].get<double>(), 100.0);
}

// The issue's RK4 case: on the gallery's 1-DOF oscillator (scenes/oscillator_1d.scn, dt = 0.01,
// 100 steps), RK4's errors fall 16-fold per halving down to ~1e-13, where round-off takes over:
// the finest pair's order is about 2 and a fit over all four runs about 3.3. The fit over the runs
// above round-off reports RK4's order, 4.
TEST(FluxionAnalyze, OrderOfRungeKutta4IsFourNotARoundOffPair) {
  if (!SolverAvailable("RungeKutta4Solver"))
    GTEST_SKIP() << "RungeKutta4Solver is not on the plugin path";
  const std::string scene =
      WriteScene("analyze_oscillator_1d.scn", R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" template="Vec1d" position="0 1.5" velocity="0 0"/>
  <DiagonalMass vertexMass="0 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1 0 1"/>
</Node>
)");
  const auto result = RunAnalyze("--solver RungeKutta4Solver --order " + scene);
  ASSERT_EQ(result.status, 0) << result.err;
  const json order = json::parse(result.out);
  EXPECT_NEAR(order["global_order"].get<double>(), 4.0, 0.15) << result.out;
  // The premise: the finest pair is round-off, far from 4, and the fit does not reach it.
  EXPECT_LT(order["pair_orders"].back().get<double>(), 3.0) << result.out;
  EXPECT_GT(order["fit_dt"][1].get<double>(), 0.01 / 8) << result.out;
}

// #27 item 9: --order said nothing for minutes (each run, the reference 128 times the finest's
// steps) and gave a bare `null` when no order could be fitted. RK4 on a constant force integrates
// x = x₀ + v₀t + F t²/2m exactly (a quadratic in t is within its order): its errors are the
// reference's round-off over 102400 steps, 1.4e-10 at every dt (it used to report an order of
// −0.003 for them); on the gallery's SOFA force ramp they stay within 10 times the round-off
// estimate (a bare null before). The report says why there is no order, as --energy's
// drift_measure says why a drift is absolute. Progress goes to stderr, one line as each of the 5
// runs starts (--quiet: none); --text is for people.
TEST(FluxionAnalyze, OrderReportsProgressAndWhyThereIsNoOrder) {
  if (!SolverAvailable("RungeKutta4Solver"))
    GTEST_SKIP() << "RungeKutta4Solver is not on the plugin path";
  const std::string scene =
      WriteScene("analyze_constant_force.scn", R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject name="point" template="Vec3d" position="0 0 0" velocity="1 0 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField forces="1 2 0"/>
</Node>
)");
  const auto result = RunAnalyze("--solver RungeKutta4Solver --order " + scene);
  ASSERT_EQ(result.status, 0) << result.err;
  const json order = json::parse(result.out);
  EXPECT_TRUE(order["global_order"].is_null()) << result.out;
  EXPECT_EQ(order["order_measure"].get<std::string>().rfind("none: the errors do not fall", 0), 0u)
      << result.out;
  const auto ramp =
      RunAnalyze("--solver RungeKutta4Solver -q --order " + std::string(FLUXION_TEST_SOURCE_DIR) +
                 "/scenes/sofa_linear_force_ramp.scn");
  ASSERT_EQ(ramp.status, 0) << ramp.err;
  const json ramp_order = json::parse(ramp.out);
  EXPECT_TRUE(ramp_order["global_order"].is_null()) << ramp.out;
  EXPECT_EQ(ramp_order["order_measure"].get<std::string>().rfind("none: every run's error", 0), 0u)
      << ramp.out;
  for (int run = 1; run <= 5; ++run)
    EXPECT_NE(result.err.find("progress: --order: run " + std::to_string(run) + " of 5"),
              std::string::npos)
        << result.err;
  EXPECT_NE(result.err.find("run 1 of 5 (the reference), dt = 9.765625e-05: 102400 steps"),
            std::string::npos)
      << result.err;

  const auto quiet = RunAnalyze("--solver RungeKutta4Solver --order " + scene + " --quiet");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const auto text = RunAnalyze("--solver RungeKutta4Solver --order " + scene + " --text -q");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("global order: none: the errors do not fall with dt"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("max error"), std::string::npos) << text.out;
}

// --text with an order: the table of the runs and the fitted order (RK4 on the oscillator, as in
// OrderOfRungeKutta4IsFourNotARoundOffPair: 4 ± 0.15), and the JSON's order_measure says which
// runs the fit used.
TEST(FluxionAnalyze, OrderTextShowsTheRunsAndTheFittedOrder) {
  if (!SolverAvailable("RungeKutta4Solver"))
    GTEST_SKIP() << "RungeKutta4Solver is not on the plugin path";
  const std::string scene = WriteScene("analyze_text_oscillator.scn", kOscillator);
  const auto text = RunAnalyze("--solver RungeKutta4Solver --order " + scene + " --text -q");
  ASSERT_EQ(text.status, 0) << text.err;
  const std::size_t at = text.out.find("global order: ");
  ASSERT_NE(at, std::string::npos) << text.out;
  EXPECT_NEAR(std::stod(text.out.substr(at + 14)), 4.0, 0.15) << text.out;
  EXPECT_NE(text.out.find("(fitted over the runs dt = "), std::string::npos) << text.out;
  const auto energy = RunAnalyze("--energy " + scene + " --text --steps 10");
  ASSERT_EQ(energy.status, 0) << energy.err;
  EXPECT_NE(energy.out.find("10 steps of dt = 0.1 s"), std::string::npos) << energy.out;
  EXPECT_NE(energy.out.find("total energy: initial 0.125 J"), std::string::npos) << energy.out;
}

// A scene starting at rest has E₀ = 0 (the issue: a relative drift of −1.4e+28). One unit mass
// at the origin, at rest, pushed by a constant force F = 1 N with no gravity, under symplectic
// Euler with h = 0.1: v_n = n·h·F, x_n = h²·F·n(n+1)/2, and E_n = ½v_n² − F·x_n = −n·h²F²/2
// = −0.005·n J exactly. Over 99 steps (100 energies, tenths of 10): drift = mean of the last
// tenth − mean of the first = −0.005·90 = −0.45 J, final change −0.005·99 = −0.495 J.
TEST(FluxionAnalyze, EnergyOfASceneStartingAtRestIsAbsolute) {
  const std::string scene =
      WriteScene("analyze_at_rest.scn", R"(<Node name="root" gravity="0 0 0" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject name="point" template="Vec3d" position="0 0 0"/>
  <UniformMass vertexMass="1"/>
  <ConstantForceField forces="1 0 0"/>
</Node>
)");
  const auto result = RunAnalyze("--energy " + scene + " --steps 99");
  ASSERT_EQ(result.status, 0) << result.err;
  const json energy = json::parse(result.out);
  EXPECT_EQ(energy["initial_energy"].get<double>(), 0.0);
  EXPECT_NEAR(energy["drift"].get<double>(), -0.45, 1e-12) << result.out;
  EXPECT_NEAR(energy["final_change"].get<double>(), -0.495, 1e-12) << result.out;
  EXPECT_TRUE(energy["energy_scale"].is_null()) << result.out;
  EXPECT_TRUE(energy["relative_drift"].is_null()) << result.out;
  EXPECT_TRUE(energy["relative_oscillation"].is_null()) << result.out;
  EXPECT_TRUE(energy["relative_final_change"].is_null()) << result.out;
  EXPECT_EQ(energy["drift_measure"],
            "absolute: E0 is 0 (a scene starting at rest), so there is no energy scale; drift, "
            "oscillation and final_change are in J, the relative_ numbers null");
}

TEST(FluxionAnalyze, PlotWritesAnSvgWithBothSolvers) {
  if (fluxion::testing::RunCommand("command -v gnuplot").status != 0)
    GTEST_SKIP()
        << "gnuplot is not installed (Debian package gnuplot-nox): --plot cannot be tested";
  const std::string file = ::testing::TempDir() + "analyze_plot.svg";
  std::remove(file.c_str());
  const auto result =
      RunAnalyze("--plot " + file +
                 " --phi 0.05:3:60 --solver EulerExplicitSolver --solver EulerExplicitSolver"
                 " --param symplectic=0");
  ASSERT_EQ(result.status, 0) << result.err;
  const std::string svg = ReadFile(file);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("EulerExplicitSolver symplectic=0"), std::string::npos);
  EXPECT_NE(svg.find("spectral radius r"), std::string::npos);
  EXPECT_NE(svg.find("r = 1: stability limit"), std::string::npos);

  EXPECT_EQ(
      RunAnalyze("--plot " + ::testing::TempDir() + "plot.pdf --solver EulerExplicitSolver").status,
      2);
}

TEST(IntegratorsDoc, TableIsTheAnalyzerOutput) {
  const std::string doc = ReadFile(std::string(FLUXION_TEST_SOURCE_DIR) + "/docs/integrators.md");
  // The variants: forward Euler, and BDF of orders 2 to 6.
  const std::string command =
      "--all --solver EulerExplicitSolver --param symplectic=0 --solver BDFOdeSolver --param "
      "order=2 --solver BDFOdeSolver --param order=3 --solver BDFOdeSolver --param order=4 "
      "--solver BDFOdeSolver --param order=5 --solver BDFOdeSolver --param order=6 --markdown";
  const std::string begin = "<!-- BEGIN GENERATED: fluxion-analyze " + command + " -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const auto start = doc.find(begin);
  ASSERT_NE(start, std::string::npos) << "docs/integrators.md has no generated table";
  const auto stop = doc.find(end, start);
  ASSERT_NE(stop, std::string::npos);
  const std::string documented = doc.substr(start + begin.size(), stop - start - begin.size());
  // Only the bundled plugins: the environment's extra plugin folders do not belong in the docs.
  const auto result =
      fluxion::testing::RunCommand("env -u FLUXION_PLUGIN_PATH " + Analyze(command));
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(documented, result.out)
      << "docs/integrators.md is stale: regenerate it with the command at its top";
}

}  // namespace
}  // namespace fluxion
