// The solver base (fluxion/solver.h, core/solver.cpp) through a tiny solver whose DoStep is
// scripted by each test: argument checks, exact time keeping, rollback of rejected steps,
// exceptions turned into failures, the history contract (DoCommit, history_valid,
// InvalidateHistory) and ComputeAcceleration (ImplicitSystem: implicit_system_test.cpp).
#include "fluxion/solver.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/parameters.h"
#include "linear/ldl_linear_solver.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// A system with a given mass matrix (diagonal or not), no forces, and some fixed DOFs.
class FakeSystem final : public MechanicalSystem {
 public:
  FakeSystem(const Eigen::MatrixXd& mass, std::vector<Index> fixed)
      : mass_(mass.sparseView()), fixed_(std::move(fixed)), diagonal_(mass.isDiagonal()) {
    mass_.makeCompressed();
    inverse_ = Vector::Zero(mass.rows());
    for (Index i = 0; i < mass.rows(); ++i)
      if (mass(i, i) > 0 && std::find(fixed_.begin(), fixed_.end(), i) == fixed_.end())
        inverse_[i] = 1.0 / mass(i, i);
  }
  Index num_dofs() const override { return mass_.rows(); }
  const SparseMatrix& mass() const override { return mass_; }
  bool is_mass_diagonal() const override { return diagonal_; }
  const Vector& inverse_mass_diagonal() const override { return inverse_; }
  void ComputeForce(const State& /*state*/, Vector& f) const override { f.setZero(num_dofs()); }
  SparseMatrix CreateMatrix() const override { return mass_ * 0.0; }
  void AssembleStiffness(const State& /*state*/, SparseMatrix& K) const override { K *= 0.0; }
  bool has_damping_matrix() const override { return false; }
  void AssembleDamping(const State& /*state*/, SparseMatrix& B) const override { B *= 0.0; }
  void ProjectResponse(Vector& vector) const override {
    for (const Index i : fixed_) vector[i] = 0.0;
  }
  void ProjectMatrix(SparseMatrix& matrix) const override {
    for (const Index i : fixed_) {
      matrix.prune([&](Index row, Index col, double) { return row != i && col != i; });
      matrix.coeffRef(i, i) = 1.0;
    }
  }
  double KineticEnergy(const State& /*state*/) const override { return 0.0; }
  double PotentialEnergy(const State& /*state*/) const override { return 0.0; }

 private:
  SparseMatrix mass_;
  std::vector<Index> fixed_;
  bool diagonal_;
  Vector inverse_;
};

using StepFunction = std::function<StepResult(const MechanicalSystem&, double, State&)>;
using CommitFunction = std::function<void(double, const State&)>;

class ScriptedSolver final : public Solver {
 public:
  explicit ScriptedSolver(StepFunction step = nullptr, CommitFunction commit = nullptr)
      : step_(std::move(step)), commit_(std::move(commit)) {}
  int initializations = 0;
  int steps = 0;
  int commits = 0;
  std::vector<bool> history_seen;  // history_valid() as each DoStep saw it
  StepResult Acceleration(const MechanicalSystem& system, const Vector& f, Vector& a) {
    return ComputeAcceleration(system, f, a);
  }

 private:
  void DoInitialize(const MechanicalSystem& /*system*/) override { ++initializations; }
  StepResult DoStep(const MechanicalSystem& system, double h, State& state) override {
    ++steps;
    history_seen.push_back(history_valid());
    return step_ ? step_(system, h, state) : StepResult::Ok();
  }
  void DoCommit(const MechanicalSystem& /*system*/, double h, const State& state) override {
    ++commits;
    if (commit_) commit_(h, state);
  }
  StepFunction step_;
  CommitFunction commit_;
};

FakeSystem ThreeDofSystem() {
  return FakeSystem(Eigen::MatrixXd(Eigen::Vector3d(1.0, 3.0, 0.7).asDiagonal()), {0});
}

State ThreeDofState() {
  State s;
  s.time = 0.1;
  s.x = Eigen::Vector3d(1.0, 2.0, 3.0);
  s.v = Eigen::Vector3d(-1.0, 0.5, 0.25);
  return s;
}

void ExpectSameState(const State& actual, const State& expected) {
  EXPECT_EQ(actual.time, expected.time);
  EXPECT_EQ(actual.x, expected.x);
  EXPECT_EQ(actual.v, expected.v);
}

class SolverBase : public fluxion::testing::QuietTest {};

TEST_F(SolverBase, StepAdvancesTimeByExactlyH) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  const double h = 0.01;
  double expected = 0.1;
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(solver.Step(system, h, state).status, StepStatus::kOk);
    expected = expected + h;  // t ← t + h, one rounding per step, as SOFA's loop
    EXPECT_EQ(state.time, expected);
  }
  EXPECT_EQ(solver.steps, 3);
}

TEST_F(SolverBase, DoStepCannotMoveTime) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) {
    s.time = 42.0;
    return StepResult::Ok();
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  ASSERT_TRUE(solver.Step(system, 0.5, state).accepted());
  EXPECT_EQ(state.time, 0.1 + 0.5);
}

TEST_F(SolverBase, DoStepSeesTimeAtStartOfStep) {
  const FakeSystem system = ThreeDofSystem();
  double seen = -1.0, seen_h = -1.0;
  ScriptedSolver solver([&](const MechanicalSystem&, double h, State& s) {
    seen = s.time;
    seen_h = h;
    return StepResult::Ok();
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  ASSERT_TRUE(solver.Step(system, 0.25, state).accepted());
  EXPECT_EQ(seen, 0.1);
  EXPECT_EQ(seen_h, 0.25);
}

TEST_F(SolverBase, RejectsNonPositiveOrNonFiniteStep) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  for (const double h : {0.0, -0.01, -0.0, std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::infinity()}) {
    State state = ThreeDofState();
    EXPECT_THROW((void)solver.Step(system, h, state), UsageError) << "h = " << h;
    ExpectSameState(state, ThreeDofState());
  }
  EXPECT_EQ(solver.steps, 0);
}

TEST_F(SolverBase, StepBeforeInitializeIsUsageError) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver;
  State state = ThreeDofState();
  EXPECT_THROW((void)solver.Step(system, 0.01, state), UsageError);
  EXPECT_EQ(solver.steps, 0);
}

TEST_F(SolverBase, StepWithAnotherSystemOrWrongSizeIsUsageError) {
  const FakeSystem system = ThreeDofSystem(), other = ThreeDofSystem();
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  EXPECT_THROW((void)solver.Step(other, 0.01, state), UsageError);
  state.x.resize(2);
  EXPECT_THROW((void)solver.Step(system, 0.01, state), UsageError);
  state = ThreeDofState();
  state.v.resize(4);
  EXPECT_THROW((void)solver.Step(system, 0.01, state), UsageError);
  EXPECT_EQ(solver.steps, 0);
}

TEST_F(SolverBase, InitializeRunsDoInitializeEachTime) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  solver.Initialize(system, nullptr);
  EXPECT_EQ(solver.initializations, 2);
}

TEST_F(SolverBase, NonFinitePositionIsRejectedAndStateRestored) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) {
    s.x[1] = std::numeric_limits<double>::quiet_NaN();
    s.v *= 2.0;
    return StepResult::Ok();
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  const StepResult result = solver.Step(system, 0.01, state);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_FALSE(result.accepted());
  EXPECT_NE(result.message.find("position of DOF 1"), std::string::npos) << result.message;
  ExpectSameState(state, ThreeDofState());
}

TEST_F(SolverBase, NonFiniteVelocityIsRejectedAndStateRestored) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) {
    s.x *= 3.0;
    s.v[2] = -std::numeric_limits<double>::infinity();
    return StepResult::NotConverged("also not converged");
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  const StepResult result = solver.Step(system, 0.01, state);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("velocity of DOF 2"), std::string::npos) << result.message;
  ExpectSameState(state, ThreeDofState());
}

TEST_F(SolverBase, ExceptionInDoStepBecomesFailure) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) -> StepResult {
    s.x.setConstant(7.0);
    s.time = 3.0;
    throw std::runtime_error("matrix went missing");
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  StepResult result;
  ASSERT_NO_THROW(result = solver.Step(system, 0.01, state));
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("matrix went missing"), std::string::npos) << result.message;
  ExpectSameState(state, ThreeDofState());
}

TEST_F(SolverBase, FailureReturnedByDoStepRestoresState) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) {
    s.x += s.v;
    s.v.setZero();
    return StepResult::Failure("factorisation failed");
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  const StepResult result = solver.Step(system, 0.01, state);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_EQ(result.message, "factorisation failed");
  ExpectSameState(state, ThreeDofState());
  // The solver can step again afterwards.
  ScriptedSolver healthy;
  healthy.Initialize(system, nullptr);
  EXPECT_TRUE(healthy.Step(system, 0.01, state).accepted());
}

// The step is kept and its status says so; Solver::Step itself logs nothing (a Simulation warns
// once per solver node and summarises the repeats: tests/tools/repeated_warnings_test.cpp).
TEST_F(SolverBase, NotConvergedIsAcceptedWithoutLogging) {
  const FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver([](const MechanicalSystem&, double, State& s) {
    s.x[2] = 5.0;
    return StepResult::NotConverged("Newton stopped after 5 iterations", 5, 0.25);
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  const StepResult result = solver.Step(system, 0.01, state);
  EXPECT_EQ(result.status, StepStatus::kNotConverged);
  EXPECT_TRUE(result.accepted());
  EXPECT_EQ(result.iterations, 5);
  EXPECT_EQ(result.residual, 0.25);
  EXPECT_EQ(state.x[2], 5.0);
  EXPECT_EQ(state.time, 0.1 + 0.01);
}

// DoCommit sees the accepted state, time already advanced, once per accepted step (also a
// NotConverged one), and never a rejected step: a DoStep failure, a non-finite state, an exception.
TEST_F(SolverBase, CommitsEachAcceptedStepWithTheAcceptedState) {
  const FakeSystem system = ThreeDofSystem();
  int calls = 0;
  std::vector<State> committed;
  std::vector<double> committed_h;
  ScriptedSolver solver(
      [&](const MechanicalSystem&, double, State& s) -> StepResult {
        switch (calls++) {
          case 0:
            s.x[1] = 4.0;
            return StepResult::Ok();
          case 1:
            return StepResult::Failure("factorisation failed");
          case 2:
            s.v[2] = std::numeric_limits<double>::quiet_NaN();
            return StepResult::Ok();
          case 3:
            throw std::runtime_error("bug");
          default:
            s.x[2] = 6.0;
            return StepResult::NotConverged("CG stopped");
        }
      },
      [&](double h, const State& s) {
        committed.push_back(s);
        committed_h.push_back(h);
      });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  ASSERT_EQ(solver.Step(system, 0.5, state).status, StepStatus::kOk);
  for (int k = 0; k < 3; ++k) ASSERT_FALSE(solver.Step(system, 0.25, state).accepted());
  ASSERT_EQ(solver.Step(system, 0.125, state).status, StepStatus::kNotConverged);
  ASSERT_EQ(committed.size(), 2u);
  EXPECT_EQ(committed_h, (std::vector<double>{0.5, 0.125}));
  State first = ThreeDofState();
  first.time = 0.1 + 0.5;
  first.x[1] = 4.0;
  ExpectSameState(committed[0], first);
  State second = first;
  second.time = first.time + 0.125;
  second.x[2] = 6.0;
  ExpectSameState(committed[1], second);
  ExpectSameState(state, second);
}

TEST_F(SolverBase, CommitSeesTheTimeOfTheNewState) {
  const FakeSystem system = ThreeDofSystem();
  double committed_time = -1.0;
  ScriptedSolver solver(nullptr, [&](double, const State& s) { committed_time = s.time; });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  ASSERT_TRUE(solver.Step(system, 0.25, state).accepted());
  EXPECT_EQ(committed_time, 0.1 + 0.25);
  EXPECT_EQ(committed_time, state.time);
}

// history_valid(): false until a step is committed, and again after Initialize, InvalidateHistory
// or an exception escaping from the solver; a rejected step (state restored) keeps it.
TEST_F(SolverBase, HistoryIsValidAfterCommittedStepsUntilInvalidated) {
  const FakeSystem system = ThreeDofSystem();
  bool fail = false, raise = false;
  ScriptedSolver solver([&](const MechanicalSystem&, double, State&) -> StepResult {
    if (raise) throw std::runtime_error("bug");
    return fail ? StepResult::Failure("no") : StepResult::Ok();
  });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  auto step = [&](bool failing, bool raising) {
    fail = failing;
    raise = raising;
    return solver.Step(system, 0.01, state).accepted();
  };
  EXPECT_TRUE(step(false, false));  // 0: first step, no history
  EXPECT_TRUE(step(false, false));  // 1: continues
  EXPECT_FALSE(step(true, false));  // 2: continues, rejected
  EXPECT_TRUE(step(false, false));  // 3: still continues: the rejected step changed nothing
  solver.InvalidateHistory();       //    the host set the state
  EXPECT_TRUE(step(false, false));  // 4: starts up
  EXPECT_FALSE(step(false, true));  // 5: continues, throws
  EXPECT_TRUE(step(false, false));  // 6: starts up
  solver.Initialize(system, nullptr);
  EXPECT_TRUE(step(false, false));  // 7: starts up
  EXPECT_EQ(solver.history_seen,
            (std::vector<bool>{false, true, true, true, false, true, false, false}));
}

// An exception from DoCommit is a bug in the solver: the step fails, the state is restored and
// the next step starts up (the history may be half committed).
TEST_F(SolverBase, ExceptionInDoCommitBecomesFailureAndInvalidatesHistory) {
  const FakeSystem system = ThreeDofSystem();
  bool raise = true;
  ScriptedSolver solver(
      [](const MechanicalSystem&, double, State& s) {
        s.x *= 2.0;
        return StepResult::Ok();
      },
      [&](double, const State&) {
        if (raise) throw std::runtime_error("swap went wrong");
      });
  solver.Initialize(system, nullptr);
  State state = ThreeDofState();
  StepResult result;
  ASSERT_NO_THROW(result = solver.Step(system, 0.01, state));
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("swap went wrong"), std::string::npos) << result.message;
  ExpectSameState(state, ThreeDofState());
  raise = false;
  ASSERT_TRUE(solver.Step(system, 0.01, state).accepted());
  EXPECT_EQ(solver.history_seen, (std::vector<bool>{false, false}));
}

// SOFA's accFromF divides the force by the mass (a = f/m), then projectResponse zeroes fixed DOFs.
TEST_F(SolverBase, AccelerationDividesByDiagonalMassAndProjects) {
  const FakeSystem system(Eigen::MatrixXd(Eigen::Vector4d(2.0, 7.0, 0.7, 0.0).asDiagonal()), {0});
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  const Vector f = Eigen::Vector4d(5.0, 0.1, 0.3, 4.0);
  Vector a = Vector::Zero(4);
  ASSERT_TRUE(solver.Acceleration(system, f, a).accepted());
  EXPECT_EQ(a[0], 0.0);                     // fixed
  EXPECT_EQ(a[1], 0.1 / 7.0);               // a division, bit for bit: 0.1·(1/7) is another double
  EXPECT_EQ(a[2], 0.3 / 0.7);               // likewise 0.3·(1/0.7)
  EXPECT_EQ(a[3], 0.0);                     // massless
  ASSERT_NE(0.1 * (1.0 / 7.0), 0.1 / 7.0);  // the checks above tell the two apart
  ASSERT_NE(0.3 * (1.0 / 0.7), 0.3 / 0.7);
}

Eigen::Matrix3d FullMass() {
  Eigen::Matrix3d mass;
  mass << 2.0, 0.5, 0.0, 0.5, 3.0, 0.25, 0.0, 0.25, 1.0;
  return mass;
}

TEST_F(SolverBase, AccelerationWithFullMassNeedsLinearSolver) {
  const FakeSystem system(FullMass(), {});
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  Vector a = Vector::Zero(3);
  const StepResult result = solver.Acceleration(system, Vector::Ones(3), a);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("no linear solver"), std::string::npos) << result.message;
}

// The mass is inverted by the scene's linear solver, which an implicit solver may also use for its
// own matrix between two accelerations: the mass must be factorised again, not assumed current.
TEST_F(SolverBase, AccelerationWithFullMassSurvivesOtherFactorisations) {
  const FakeSystem system(FullMass(), {});
  internal::LdlLinearSolver ldl(ParseParameters(internal::LdlLinearSolver::Spec(), {}));
  ScriptedSolver solver;
  solver.Initialize(system, &ldl);
  const Vector f = Eigen::Vector3d(1.0, -2.0, 0.5);
  const Vector expected = FullMass().ldlt().solve(Eigen::Vector3d(f));
  // Well-conditioned 3×3: a few ulps.
  const double tolerance = 1e-15 * expected.norm() * 10;
  Vector a = Vector::Zero(3);
  ASSERT_TRUE(solver.Acceleration(system, f, a).accepted());
  EXPECT_LE((a - expected).norm(), tolerance);
  // An implicit method factorises A = 2·M with the same linear solver ...
  SparseMatrix other = system.mass() * 2.0;
  ASSERT_TRUE(ldl.Factorize(other).ok);
  // ... and the next acceleration must still be M⁻¹f.
  ASSERT_TRUE(solver.Acceleration(system, f, a).accepted());
  EXPECT_LE((a - expected).norm(), tolerance) << a.transpose() << " vs " << expected.transpose();
}

// FollowRemovedBlocks, by hand: 12 entries in blocks of 3; removing block 3 moves the last block
// (9, 10, 11) into it, then removing block 0 moves the last block at that moment (6, 7, 8).
TEST_F(SolverBase, RemovedBlocksTakeTheLastBlockInTurn) {
  Vector values(12);
  for (Index i = 0; i < 12; ++i) values[i] = static_cast<double>(i);
  const std::vector<Index> removed = {3, 0};
  FollowRemovedBlocks({.block_size = 3, .removed_blocks = removed}, values);
  Vector expected(6);
  expected << 6.0, 7.0, 8.0, 9.0, 10.0, 11.0;
  EXPECT_EQ(values, expected);
  // The last block removed is dropped, nothing moves.
  const std::vector<Index> last = {3};
  FollowRemovedBlocks({.block_size = 3, .removed_blocks = last}, values);
  EXPECT_EQ(values, Vector(expected.head(3)));
  // An empty vector stays empty; a block past the end is a usage error.
  Vector empty;
  FollowRemovedBlocks({.block_size = 3, .removed_blocks = last}, empty);
  EXPECT_EQ(empty.size(), 0);
  const std::vector<Index> outside = {2};
  EXPECT_THROW(FollowRemovedBlocks({.block_size = 3, .removed_blocks = outside}, values),
               UsageError);
}

// A solver that follows changes itself: it records them and is not initialised again.
class FollowingSolver final : public Solver {
 public:
  int initializations = 0;
  int follows = 0;
  StepResult Acceleration(const MechanicalSystem& system, const Vector& f, Vector& a) {
    return ComputeAcceleration(system, f, a);
  }
  bool HistoryValid() const { return history_valid(); }

 private:
  void DoInitialize(const MechanicalSystem& /*system*/) override { ++initializations; }
  void DoFollowSystemChange(const MechanicalSystem& /*system*/,
                            const SystemChange& /*change*/) override {
    ++follows;
  }
  StepResult DoStep(const MechanicalSystem& /*system*/, double /*h*/, State& /*s*/) override {
    return StepResult::Ok();
  }
};

// Masses (2, 7, 0.7, 5) with DOF 0 fixed; DOF 1 removed (the last, of mass 5, takes its place)
// and DOF 2's mass set to 0.9: the base's acceleration divides by (2, 5, 0.9), bit for bit, the
// history is discarded, and a solver that follows changes is not initialised again.
TEST_F(SolverBase, FollowsASystemChangedInPlace) {
  FakeSystem system(Eigen::MatrixXd(Eigen::Vector4d(2.0, 7.0, 0.7, 5.0).asDiagonal()), {0});
  FollowingSolver solver;
  solver.Initialize(system, nullptr);
  State s;
  s.x = Vector::Zero(4);
  s.v = Vector::Zero(4);
  ASSERT_TRUE(solver.Step(system, 0.1, s).accepted());
  ASSERT_TRUE(solver.HistoryValid());
  system = FakeSystem(Eigen::MatrixXd(Eigen::Vector3d(2.0, 5.0, 0.9).asDiagonal()), {0});
  const std::vector<Index> removed = {1}, mass_dofs = {2};
  const std::vector<double> masses = {0.9};
  solver.FollowSystemChange(
      system,
      {.block_size = 1, .removed_blocks = removed, .mass_dofs = mass_dofs, .masses = masses});
  EXPECT_EQ(solver.initializations, 1);
  EXPECT_EQ(solver.follows, 1);
  EXPECT_FALSE(solver.HistoryValid());
  Vector a = Vector::Zero(3);
  ASSERT_TRUE(solver.Acceleration(system, Eigen::Vector3d(1.0, 0.1, 0.3), a).accepted());
  EXPECT_EQ(a[0], 0.0);
  EXPECT_EQ(a[1], 0.1 / 5.0);
  EXPECT_EQ(a[2], 0.3 / 0.9);
  // The state backup has the new size: a step of the smaller state is taken.
  s.x = Vector::Zero(3);
  s.v = Vector::Zero(3);
  EXPECT_TRUE(solver.Step(system, 0.1, s).accepted());
}

// A solver that does not follow changes is initialised again (always right); a change whose
// removals do not give the system's size, or another system, is a usage error.
TEST_F(SolverBase, ASolverThatDoesNotFollowChangesIsInitialisedAgain) {
  FakeSystem system = ThreeDofSystem();
  ScriptedSolver solver;
  solver.Initialize(system, nullptr);
  system = FakeSystem(Eigen::MatrixXd(Eigen::Vector2d(1.0, 3.0).asDiagonal()), {0});
  const std::vector<Index> removed = {2};
  solver.FollowSystemChange(system, {.block_size = 1, .removed_blocks = removed});
  EXPECT_EQ(solver.initializations, 2);
  const FakeSystem other = ThreeDofSystem();
  EXPECT_THROW(solver.FollowSystemChange(other, {}), UsageError);
  system = FakeSystem(Eigen::MatrixXd(Eigen::Vector3d(1.0, 3.0, 1.0).asDiagonal()), {0});
  EXPECT_THROW(solver.FollowSystemChange(system, {.block_size = 1, .removed_blocks = removed}),
               UsageError);
}

}  // namespace
}  // namespace fluxion
