// ImplicitSystem (fluxion/implicit_system.h, core/implicit_system.cpp) on a three-DOF system with
// constant M, K and B: A = P[m·M + b·B + k·K]P combined in CombineMatrices' order, the linear
// solver it hands A to, and its products.
#include "fluxion/implicit_system.h"

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/mechanical_system.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

// The matrices are constant: any state will do.
State AnyState() {
  State s;
  s.x = Eigen::Vector3d(1.0, 2.0, 3.0);
  s.v = Eigen::Vector3d(-1.0, 0.5, 0.25);
  return s;
}

// --- ImplicitSystem ---------------------------------------------------------------------------

// A 3×3 matrix with all nine entries stored (zeros included): every matrix of MatrixSystem has
// this one pattern, as MechanicalSystem promises.
SparseMatrix Full(const Eigen::Matrix3d& values) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) entries.emplace_back(i, j, values(i, j));
  SparseMatrix matrix(3, 3);
  matrix.setFromTriplets(entries.begin(), entries.end());
  matrix.makeCompressed();
  return matrix;
}

// A system with given constant M, K and (optionally) B, and fixed DOFs projected in place (values
// zeroed, 1 on the diagonal: the pattern is kept, as the assembled system does).
class MatrixSystem final : public MechanicalSystem {
 public:
  MatrixSystem(const Eigen::Matrix3d& M, const Eigen::Matrix3d& K, const Eigen::Matrix3d* B,
               std::vector<Index> fixed)
      : mass_(Full(M)),
        stiffness_(Full(K)),
        damping_(Full(B != nullptr ? *B : Eigen::Matrix3d(Eigen::Matrix3d::Zero()))),
        has_damping_(B != nullptr),
        fixed_(std::move(fixed)),
        inverse_(Vector::Zero(3)) {}
  Index num_dofs() const override { return 3; }
  const SparseMatrix& mass() const override { return mass_; }
  bool is_mass_diagonal() const override { return false; }
  const Vector& inverse_mass_diagonal() const override { return inverse_; }
  void ComputeForce(const State& /*state*/, Vector& f) const override { f.setZero(3); }
  SparseMatrix CreateMatrix() const override { return Full(Eigen::Matrix3d::Zero()); }
  void AssembleStiffness(const State& /*state*/, SparseMatrix& K) const override { K = stiffness_; }
  bool has_damping_matrix() const override { return has_damping_; }
  void AssembleDamping(const State& /*state*/, SparseMatrix& B) const override { B = damping_; }
  void ProjectResponse(Vector& vector) const override {
    for (const Index i : fixed_) vector[i] = 0.0;
  }
  void ProjectMatrix(SparseMatrix& matrix) const override {
    for (Index col = 0; col < matrix.outerSize(); ++col)
      for (SparseMatrix::InnerIterator it(matrix, col); it; ++it)
        for (const Index i : fixed_)
          if (it.row() == i || it.col() == i) it.valueRef() = it.row() == it.col() ? 1.0 : 0.0;
  }
  double KineticEnergy(const State& /*state*/) const override { return 0.0; }
  double PotentialEnergy(const State& /*state*/) const override { return 0.0; }

 private:
  SparseMatrix mass_, stiffness_, damping_;
  bool has_damping_;
  std::vector<Index> fixed_;
  Vector inverse_;
};

// A linear solver that keeps the matrix it was asked to factorise (dense, for the checks), solves
// with Eigen's LDLᵀ, and reports the outcome a test scripts.
class RecordingLinearSolver final : public LinearSolver {
 public:
  LinearSolveResult factorize_result, solve_result;
  Eigen::MatrixXd factorized;
  int solves = 0;
  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override {
    factorized = Eigen::MatrixXd(A);
    return factorize_result;
  }
  LinearSolveResult Solve(const Vector& b, Vector& x) override {
    ++solves;
    x = factorized.ldlt().solve(b);
    return solve_result;
  }

 private:
  std::string name_ = "RecordingLinearSolver";
};

Eigen::Matrix3d SpdMatrix(double scale) {
  Eigen::Matrix3d matrix;
  matrix << 4.0, 0.5, 0.25, 0.5, 3.0, -0.75, 0.25, -0.75, 2.0;
  return scale * matrix;
}

class ImplicitSystemTest : public fluxion::testing::QuietTest {};

// A = P[m·M + b·B + k·K]P, entry by entry in CombineMatrices' order (the implicit solvers' results
// depend on it to the last bit), with the fixed DOF's row and column cleared and 1 on its
// diagonal; then y = A⁻¹r.
TEST_F(ImplicitSystemTest, CombinesProjectsFactorisesAndSolves) {
  const Eigen::Matrix3d M = SpdMatrix(1.0), K = SpdMatrix(0.3), B = SpdMatrix(0.7);
  const MatrixSystem system(M, K, &B, {0});
  RecordingLinearSolver linear;
  ImplicitSystem implicit;
  implicit.Initialize(system, &linear);
  const State state = AnyState();
  implicit.AssembleStiffness(state);
  implicit.AssembleDamping(state);
  EXPECT_EQ(Eigen::MatrixXd(implicit.stiffness()), Eigen::MatrixXd(K));
  EXPECT_EQ(Eigen::MatrixXd(implicit.damping()), Eigen::MatrixXd(B));

  const double m = 1.1, b = 0.3, k = 0.07;
  ASSERT_EQ(implicit.Factorize(m, b, k).status, StepStatus::kOk);
  Eigen::Matrix3d expected;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      expected(i, j) =
          i == 0 || j == 0 ? (i == j ? 1.0 : 0.0) : m * M(i, j) + b * B(i, j) + k * K(i, j);
  EXPECT_EQ(linear.factorized, Eigen::MatrixXd(expected));

  const Vector rhs = Eigen::Vector3d(0.0, 1.0, -2.0);
  Vector y = Vector::Zero(3);
  ASSERT_EQ(implicit.Solve(rhs, y).status, StepStatus::kOk);
  // Well-conditioned 3×3: a few ulps.
  EXPECT_LE((expected * y - rhs).norm(), 1e-14) << y.transpose();
}

// b = 0 leaves B out (CombineMatrices' two-term branch), and so does a system without damping
// matrices, whatever b; such a system has no B at all.
TEST_F(ImplicitSystemTest, LeavesBOutWhenBIsZeroOrAbsent) {
  const Eigen::Matrix3d M = SpdMatrix(1.0), K = SpdMatrix(0.3), B = SpdMatrix(0.7);
  const State state = AnyState();
  const double m = 1.1, k = 0.07;
  Eigen::Matrix3d expected;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) expected(i, j) = m * M(i, j) + k * K(i, j);

  const MatrixSystem damped(M, K, &B, {});
  RecordingLinearSolver linear;
  ImplicitSystem implicit;
  implicit.Initialize(damped, &linear);
  implicit.AssembleStiffness(state);
  implicit.AssembleDamping(state);
  ASSERT_TRUE(implicit.Factorize(m, 0.0, k).accepted());
  EXPECT_EQ(linear.factorized, Eigen::MatrixXd(expected));

  const MatrixSystem undamped(M, K, nullptr, {});
  implicit.Initialize(undamped, &linear);
  EXPECT_EQ(implicit.damping().rows(), 0);
  implicit.AssembleStiffness(state);
  implicit.AssembleDamping(state);  // nothing to assemble
  ASSERT_TRUE(implicit.Factorize(m, 0.3, k).accepted());
  EXPECT_EQ(linear.factorized, Eigen::MatrixXd(expected));
}

// The linear solver's outcome becomes the StepResult a solver passes on, with its message.
TEST_F(ImplicitSystemTest, TurnsLinearSolverOutcomesIntoStepResults) {
  const MatrixSystem system(SpdMatrix(1.0), SpdMatrix(0.3), nullptr, {});
  RecordingLinearSolver linear;
  ImplicitSystem implicit;
  implicit.Initialize(system, &linear);
  implicit.AssembleStiffness(AnyState());
  const Vector rhs = Vector::Ones(3);
  Vector y = Vector::Zero(3);

  linear.factorize_result = {.ok = false, .message = "not positive definite (pivot 2)"};
  StepResult result = implicit.Factorize(1.0, 0.0, 1.0);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  // The linear solver's message first, then which matrix and what makes it lose definiteness
  // (ImplicitSystem knows what the matrix is; the linear solver does not). The remedies depend on
  // the solver and the scene: scene-runner measures them (tools/scene_runner/failure_advice.h).
  EXPECT_EQ(result.message.rfind("not positive definite (pivot 2): ", 0), 0u) << result.message;
  EXPECT_NE(result.message.find("m·M + b·B + k·K has lost positive definiteness to compressed "
                                "springs"),
            std::string::npos)
      << result.message;

  linear.factorize_result = {};
  ASSERT_TRUE(implicit.Factorize(1.0, 0.0, 1.0).accepted());
  linear.solve_result = {.ok = false, .message = "non-finite solution"};
  result = implicit.Solve(rhs, y);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_EQ(result.message, "non-finite solution");

  linear.solve_result = {.converged = false, .iterations = 25, .message = "CG did not converge"};
  result = implicit.Solve(rhs, y);
  EXPECT_EQ(result.status, StepStatus::kNotConverged);
  EXPECT_EQ(result.message, "CG did not converge");
  EXPECT_EQ(result.iterations, 0);  // Newton iterations are the solver's to count

  linear.solve_result = {};
  result = implicit.Solve(rhs, y);
  EXPECT_EQ(result.status, StepStatus::kOk);
  EXPECT_TRUE(result.message.empty());
  EXPECT_EQ(linear.solves, 3);
}

TEST_F(ImplicitSystemTest, FailsWithoutLinearSolver) {
  const MatrixSystem system(SpdMatrix(1.0), SpdMatrix(0.3), nullptr, {});
  ImplicitSystem implicit;
  implicit.Initialize(system, nullptr);
  implicit.AssembleStiffness(AnyState());
  const StepResult result = implicit.Factorize(1.0, 0.0, 1.0);
  EXPECT_EQ(result.status, StepStatus::kNumericalFailure);
  EXPECT_NE(result.message.find("linear solver"), std::string::npos) << result.message;
}

}  // namespace
}  // namespace fluxion
