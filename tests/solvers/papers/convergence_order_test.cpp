// Observed order of convergence of every paper solver on a nonlinear scene: a chain of three
// point masses on stiff springs hanging from a fixed point, released horizontally under gravity
// (a swinging, stretching pendulum chain: geometric springs make the forces nonlinear in x).
//
// Method: run to T = 0.4 s at h, h/2, h/4, h/8 and at h/256; the error at each h is the largest
// position difference at T from the h/256 run of the SAME solver (so no other solver's error
// enters); the order is the least-squares slope of log(error) against log(h). Using the same
// solver as reference biases the slope by at most (h/8)/(h/256) → (1 − 2^{−5p})-type factors,
// below 0.02 for p ≥ 1; the brief's tolerance is ±0.15. Expected orders: Hoffmann's Eulers and
// False Heun 1 (the latter derived in its plugin), the second-order methods 2, Forest–Ruth 4
// (Sachs). The coarsest h keeps ω_max·h ≲ 0.5 (ω_max ≈ 25 rad/s) so all runs are stable and
// asymptotic; Forest–Ruth starts coarser so that its error at h/8 stays far above round-off.
#include <cmath>
#include <string>
#include <vector>

#include "oscillator.h"

namespace fluxion {
namespace {

using papers::Real;
using papers::SolverUnderTest;

constexpr double kEndTime = 0.4;
constexpr double kOrderTolerance = 0.15;

std::string ChainScene(const SolverUnderTest& solver, double h) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + Real(h) + R"(">
  )" + solver.element +
         (solver.linear_solver ? "\n  <SparseLDLSolver/>" : "") + R"(
  <Node name="chain">
    <MechanicalObject name="dofs" template="Vec2d" position="0 0  1 0  2 0  3 0"/>
    <DiagonalMass vertexMass="1 1 1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 150 0 1  1 2 150 0 1  2 3 150 0 1"/>
  </Node>
</Node>)";
}

// Positions of the chain at kEndTime, stepped with h.
Vector PositionsAtEnd(const SolverUnderTest& solver, double h) {
  Simulation simulation = testing::LoadScene(ChainScene(solver, h));
  const long steps = std::lround(kEndTime / h);
  for (long n = 0; n < steps; ++n) simulation.Step();
  // The fixed point is projected out of every increment: it must not have moved.
  EXPECT_EQ(simulation.position(0).head(2).cwiseAbs().maxCoeff(), 0.0) << solver.element;
  return simulation.position(0);
}

double ObservedOrder(const SolverUnderTest& solver, double coarsest_h) {
  const Vector reference = PositionsAtEnd(solver, coarsest_h / 256);
  double sum_x = 0, sum_y = 0, sum_xx = 0, sum_xy = 0;
  const int count = 4;
  for (int i = 0; i < count; ++i) {
    const double h = coarsest_h / (1 << i);
    const double error = (PositionsAtEnd(solver, h) - reference).cwiseAbs().maxCoeff();
    const double x = std::log(h), y = std::log(error);
    sum_x += x, sum_y += y, sum_xx += x * x, sum_xy += x * y;
  }
  return (count * sum_xy - sum_x * sum_y) / (count * sum_xx - sum_x * sum_x);
}

struct OrderCase {
  SolverUnderTest solver;
  int order;
  double coarsest_h;
};
void PrintTo(const OrderCase& c, std::ostream* out) { *out << c.solver.element; }

class PapersOrder : public testing::QuietTest, public ::testing::WithParamInterface<OrderCase> {};

TEST_P(PapersOrder, MatchesThePapers) {
  const OrderCase& c = GetParam();
  EXPECT_NEAR(ObservedOrder(c.solver, c.coarsest_h), c.order, kOrderTolerance) << c.solver.element;
}

INSTANTIATE_TEST_SUITE_P(
    Solvers, PapersOrder,
    ::testing::Values(
        OrderCase{{"<SymplecticEulerSolver/>"}, 1, 0.005},
        OrderCase{{R"(<EulerExplicitSolver symplectic="0"/>)"}, 1, 0.005},
        OrderCase{{"<FalseHeunSolver/>"}, 1, 0.005}, OrderCase{{"<StandardHeunSolver/>"}, 2, 0.01},
        OrderCase{{"<SemiFalseHeunSolver/>"}, 2, 0.01}, OrderCase{{"<MidpointSolver/>"}, 2, 0.01},
        OrderCase{{"<VelocityVerletSolver/>"}, 2, 0.01},
        OrderCase{{"<PositionVerletSolver/>"}, 2, 0.01},
        OrderCase{{"<TrapezoidalSolver/>", true}, 2, 0.01},
        OrderCase{{"<ModifiedEulerSolver/>"}, 2, 0.01},
        OrderCase{{R"(<ModifiedEulerSolver velocityEstimate="trapezoidal"/>)"}, 2, 0.01},
        OrderCase{{"<AdamsBashforth2Solver/>"}, 2, 0.01},
        OrderCase{{"<ForestRuthSolver/>"}, 4, 0.02}),
    [](const ::testing::TestParamInfo<OrderCase>& case_info) {
      return papers::TestName(case_info.param.solver);
    });

}  // namespace
}  // namespace fluxion
