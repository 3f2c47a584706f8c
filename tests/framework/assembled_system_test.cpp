// AssembledSystem (mechanics/assembled_system.h): the common sparsity pattern, stiffness
// assembly into it, projection of fixed DOFs, CombineMatrices, masses and energies, and SOFA's
// one-step externalForce.
#include "mechanics/assembled_system.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "fluxion/errors.h"
#include "fluxion/implicit_system.h"
#include "fluxion/linear_solver.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/spring_force_field.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
using Dense = Eigen::MatrixXd;

// Four 3-D points: 0 fixed, 3 without mass (but held by springs), springs 0–1, 1–2, 2–3, 1–3,
// gravity on the massive points through a ConstantForce.
struct SmallSystem {
  static constexpr Index kDofs = 12;
  const std::vector<double> point_mass = {1.0, 2.0, 0.5, 0.0};
  const std::vector<Spring> springs = {{0, 3, 100.0, 2.0, 1.0},
                                       {3, 6, 50.0, 0.0, 1.2},
                                       {6, 9, 80.0, 1.0, 0.9},
                                       {3, 9, 60.0, 0.0, 1.5}};
  std::unique_ptr<AssembledSystem> system;

  SmallSystem() {
    SystemParts parts;
    parts.num_dofs = kDofs;
    parts.mass = Vector::Zero(kDofs);
    for (Index i = 0; i < kDofs; ++i) parts.mass[i] = point_mass[static_cast<std::size_t>(i / 3)];
    parts.fixed.assign(kDofs, false);
    parts.fixed[0] = parts.fixed[1] = parts.fixed[2] = true;
    parts.force_fields.push_back(std::make_unique<SpringForceField>(3, springs, true));
    parts.force_fields.push_back(std::make_unique<ConstantForce>(
        std::vector<Index>{4, 7}, std::vector<double>{-9.81 * 2.0, -9.81 * 0.5}));
    system = std::make_unique<AssembledSystem>(std::move(parts));
  }

  static State MakeState(double shift) {
    State s;
    s.x.resize(kDofs);
    s.x << 0, 0, 0, 1.0 + shift, 0.2, -0.1, 1.9, 0.9 - shift, 0.3, 0.8, 1.4, 0.2 + shift;
    s.v.resize(kDofs);
    s.v << 0, 0, 0, 0.3, -0.2, 0.1, -0.5, 0.4, 0.2, 0.1, 0.1, -0.3;
    return s;
  }
};

std::set<std::pair<Index, Index>> Pattern(const SparseMatrix& matrix) {
  std::set<std::pair<Index, Index>> entries;
  for (Index col = 0; col < matrix.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(matrix, col); it; ++it) entries.insert({it.row(), col});
  return entries;
}

TEST(AssembledSystem, CommonPatternIsDiagonalPlusSpringBlocks) {
  const SmallSystem small;
  std::set<std::pair<Index, Index>> expected;
  for (Index i = 0; i < SmallSystem::kDofs; ++i) expected.insert({i, i});
  for (const Spring& s : small.springs)
    for (const Index row_point : {s.a, s.b})
      for (const Index col_point : {s.a, s.b})
        for (Index r = 0; r < 3; ++r)
          for (Index c = 0; c < 3; ++c) expected.insert({row_point + r, col_point + c});
  const SparseMatrix pattern = small.system->CreateMatrix();
  EXPECT_TRUE(pattern.isCompressed());
  EXPECT_EQ(Pattern(pattern), expected);
  EXPECT_EQ(Pattern(small.system->mass()), expected);  // M shares the pattern
  EXPECT_EQ(Dense(pattern), Dense::Zero(SmallSystem::kDofs, SmallSystem::kDofs));
}

TEST(AssembledSystem, AssemblyNeverChangesThePattern) {
  const SmallSystem small;
  SparseMatrix K = small.system->CreateMatrix();
  const Index nonzeros = K.nonZeros();
  const double* values = K.valuePtr();
  const int* inner = K.innerIndexPtr();
  const int* outer = K.outerIndexPtr();
  const std::set<std::pair<Index, Index>> pattern = Pattern(K);
  for (const double shift : {0.0, 0.3, -0.2}) {
    small.system->AssembleStiffness(SmallSystem::MakeState(shift), K);
    EXPECT_EQ(K.nonZeros(), nonzeros);
    EXPECT_EQ(K.valuePtr(), values);  // filled in place: no reallocation
    EXPECT_EQ(K.innerIndexPtr(), inner);
    EXPECT_EQ(K.outerIndexPtr(), outer);
    EXPECT_TRUE(K.isCompressed());
    EXPECT_EQ(Pattern(K), pattern);
  }
  SparseMatrix B = small.system->CreateMatrix();
  const double* b_values = B.valuePtr();
  small.system->AssembleDamping(SmallSystem::MakeState(0.1), B);
  EXPECT_EQ(B.valuePtr(), b_values);
  EXPECT_EQ(B.nonZeros(), nonzeros);
}

TEST(AssembledSystem, AssemblyOverwritesPreviousValues) {
  const SmallSystem small;
  SparseMatrix once = small.system->CreateMatrix();
  small.system->AssembleStiffness(SmallSystem::MakeState(0.2), once);
  SparseMatrix twice = small.system->CreateMatrix();
  small.system->AssembleStiffness(SmallSystem::MakeState(-0.3), twice);
  small.system->AssembleStiffness(SmallSystem::MakeState(0.2), twice);
  EXPECT_EQ(Dense(once), Dense(twice));  // not accumulated on top of the earlier state
}

TEST(AssembledSystem, StiffnessIsSymmetricAndNonZero) {
  const SmallSystem small;
  SparseMatrix K = small.system->CreateMatrix();
  small.system->AssembleStiffness(SmallSystem::MakeState(0.1), K);
  const Dense dense(K);
  ASSERT_GT(dense.cwiseAbs().maxCoeff(), 10.0);
  // Round-off of the product order in D (spring_force_field_test): ≤ 2ε·|D|, ≤ 3 springs a point.
  EXPECT_LE((dense - dense.transpose()).cwiseAbs().maxCoeff(), 2 * kEpsilon * 3 * 4 * 100.0);
}

TEST(AssembledSystem, RejectsMatricesWithAnotherPattern) {
  const SmallSystem small;
  SparseMatrix identity(SmallSystem::kDofs, SmallSystem::kDofs);
  identity.setIdentity();
  const State state = SmallSystem::MakeState(0.0);
  EXPECT_THROW(small.system->AssembleStiffness(state, identity), UsageError);
  EXPECT_THROW(small.system->AssembleDamping(state, identity), UsageError);
  EXPECT_THROW(small.system->ProjectMatrix(identity), UsageError);
  SparseMatrix A = small.system->CreateMatrix();
  EXPECT_THROW(CombineMatrices(1.0, identity, 0.0, nullptr, 1.0, small.system->mass(), A),
               UsageError);
}

TEST(AssembledSystem, ProjectMatrixClearsFixedRowsAndColumnsWithUnitDiagonal) {
  const SmallSystem small;
  SparseMatrix K = small.system->CreateMatrix();
  small.system->AssembleStiffness(SmallSystem::MakeState(0.1), K);
  const Dense before(K);
  small.system->ProjectMatrix(K);
  const Dense after(K);
  for (Index r = 0; r < SmallSystem::kDofs; ++r)
    for (Index c = 0; c < SmallSystem::kDofs; ++c) {
      const bool fixed_row = r < 3, fixed_col = c < 3;
      if (fixed_row || fixed_col)
        EXPECT_EQ(after(r, c), r == c ? 1.0 : 0.0) << r << "," << c;
      else
        EXPECT_EQ(after(r, c), before(r, c)) << r << "," << c;
    }
  ASSERT_NE(before.block(0, 3, 3, 3), Dense::Zero(3, 3));  // there was coupling to clear
  EXPECT_EQ(small.system->fixed_dofs(), (std::vector<Index>{0, 1, 2}));
}

TEST(AssembledSystem, ProjectResponseZeroesFixedDofsOnly) {
  const SmallSystem small;
  Vector v = Vector::LinSpaced(SmallSystem::kDofs, 1.0, 12.0);
  small.system->ProjectResponse(v);
  for (Index i = 0; i < SmallSystem::kDofs; ++i) EXPECT_EQ(v[i], i < 3 ? 0.0 : i + 1.0);
}

// The small system with general point projectors (BuildContext::ProjectPoint): point 1 kept in
// the plane with normal n = (1, 2, 2)/3 (P₁ = I − nnᵀ), point 2 on the line along
// d = (0, 3, 4)/5 (P₂ = ddᵀ). Expected values come from dense Eigen products, independent of the
// system's slot bookkeeping.
struct ProjectedSystem {
  static constexpr Index kDofs = SmallSystem::kDofs;
  Dense P = Dense::Identity(kDofs, kDofs);  // the whole projector, fixed point 0 included
  std::unique_ptr<AssembledSystem> system;

  ProjectedSystem() {
    const SmallSystem small_parts;
    SystemParts parts;
    parts.num_dofs = kDofs;
    parts.mass = Vector::Zero(kDofs);
    for (Index i = 0; i < kDofs; ++i)
      parts.mass[i] = small_parts.point_mass[static_cast<std::size_t>(i / 3)];
    parts.fixed.assign(kDofs, false);
    parts.fixed[0] = parts.fixed[1] = parts.fixed[2] = true;
    parts.force_fields.push_back(std::make_unique<SpringForceField>(3, small_parts.springs, true));
    const Eigen::Vector3d n = Eigen::Vector3d(1, 2, 2) / 3.0, d = Eigen::Vector3d(0, 3, 4) / 5.0;
    const Eigen::Matrix3d plane = Eigen::Matrix3d::Identity() - n * n.transpose();
    const Eigen::Matrix3d line = d * d.transpose();
    for (const auto& [first, block] : {std::pair{Index{3}, plane}, std::pair{Index{6}, line}}) {
      PointProjector projector;
      projector.first_dof = first;
      projector.dimension = 3;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          projector.matrix[static_cast<std::size_t>(r * 3 + c)] = block(r, c);
      parts.projectors.push_back(projector);
      P.block(first, first, 3, 3) = block;
    }
    P.block(0, 0, 3, 3).setZero();
    system = std::make_unique<AssembledSystem>(std::move(parts));
  }
};

// Hands the implicit system's matrix-free operator to the test instead of solving with it.
class OperatorCapture final : public LinearSolver {
 public:
  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix&) override { return {}; }
  bool accepts_operator() const override { return true; }
  LinearSolveResult FactorizeOperator(const LinearOperator& A) override {
    captured = &A;
    return {};
  }
  LinearSolveResult Solve(const Vector&, Vector&) override { return {}; }
  const LinearOperator* captured = nullptr;

 private:
  std::string name_ = "OperatorCapture";
};

// CG's operator (ImplicitSystem, matrix-free) is the matrix ProjectMatrix assembles,
// P·(m·M + k·K)·P + (I − P): for an input P leaves as it is (fixed and projected points at 0, the
// path that skips copying P·x) and for any input, in an order that makes each path follow the
// other. Round-off: products of entries ≤ ~200, ≤ 1e-12 relative.
TEST(AssembledSystem, MatrixFreeImplicitOperatorIsTheProjectedMatrix) {
  const ProjectedSystem projected;
  const AssembledSystem& system = *projected.system;
  const State state = SmallSystem::MakeState(0.1);
  OperatorCapture capture;
  ImplicitSystem implicit;
  implicit.Initialize(system, &capture);
  implicit.AssembleStiffness(state);
  ASSERT_EQ(implicit.Factorize(1.3, 0.0, 0.02).status, StepStatus::kOk);
  ASSERT_NE(capture.captured, nullptr);

  SparseMatrix K = system.CreateMatrix(), A = system.CreateMatrix();
  system.AssembleStiffness(state, K);
  CombineMatrices(1.3, system.mass(), 0.0, nullptr, 0.02, K, A);
  system.ProjectMatrix(A);
  Vector any(ProjectedSystem::kDofs);
  for (Index i = 0; i < any.size(); ++i) any[i] = 0.3 + 0.17 * static_cast<double>((i * 5) % 7);
  Vector unchanged_by_p = any;
  unchanged_by_p.head(9).setZero();  // the fixed point and the two projected points
  Vector check = unchanged_by_p;
  system.ProjectResponse(check);
  ASSERT_EQ(check, unchanged_by_p);
  for (const Vector* x : {&unchanged_by_p, &any, &unchanged_by_p, &any}) {
    Vector y;
    capture.captured->Apply(*x, y);
    const Vector expected = A * *x;
    EXPECT_LE((y - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
  }
}

// ProjectMatrix with projectors: A ← P·A·P + (I − P), then the fixed rows and columns cleared
// with 1 on the diagonal. Round-off: two 3-term products of entries ≤ ~200: ≤ 1e-12.
TEST(AssembledSystem, ProjectMatrixWithPointProjectorsIsPAPPlusIdentityOnTheRest) {
  const ProjectedSystem projected;
  SparseMatrix K = projected.system->CreateMatrix(), A = projected.system->CreateMatrix();
  projected.system->AssembleStiffness(SmallSystem::MakeState(0.1), K);
  CombineMatrices(1.0, projected.system->mass(), 0.0, nullptr, 0.01, K, A);
  const Dense before(A);
  projected.system->ProjectMatrix(A);
  const Dense I = Dense::Identity(ProjectedSystem::kDofs, ProjectedSystem::kDofs);
  Dense expected = projected.P * before * projected.P + (I - projected.P);
  EXPECT_LE((Dense(A) - expected).cwiseAbs().maxCoeff(), 1e-12);
  // Not a comparison of zeros: the projected coupling of points 1 and 2 (y rows) is there.
  EXPECT_GT(std::abs(expected(4, 7)), 1e-3);
}

TEST(AssembledSystem, ProjectResponseAppliesPointProjectors) {
  const ProjectedSystem projected;
  Vector v = Vector::LinSpaced(ProjectedSystem::kDofs, 1.0, 12.0);
  const Vector expected = projected.P * v;
  projected.system->ProjectResponse(v);
  EXPECT_LE((v - expected).cwiseAbs().maxCoeff(), 1e-14);
  // In the plane: n·v₁ = 0; on the line: v₂ ∥ d.
  EXPECT_NEAR(v[3] + 2 * v[4] + 2 * v[5], 0.0, 1e-13);
  EXPECT_NEAR(v[6], 0.0, 1e-15);
  EXPECT_NEAR(4 * v[7] - 3 * v[8], 0.0, 1e-13);
}

TEST(AssembledSystem, CombineMatricesIsEntryWiseSum) {
  const SmallSystem small;
  const State state = SmallSystem::MakeState(0.15);
  SparseMatrix K = small.system->CreateMatrix(), B = small.system->CreateMatrix();
  small.system->AssembleStiffness(state, K);
  small.system->AssembleDamping(state, B);
  ASSERT_TRUE(small.system->has_damping_matrix());
  const SparseMatrix& M = small.system->mass();
  const double m = 1.25, b = -0.3, k = 0.01;
  SparseMatrix A = small.system->CreateMatrix();
  const double* values = A.valuePtr();
  CombineMatrices(m, M, b, &B, k, K, A);
  EXPECT_EQ(A.valuePtr(), values);
  // Each entry is m·M + b·B + k·K: three products and two sums, ≤ 3ε of the sum of magnitudes.
  const auto round_off = [&](double b_factor) {
    return Dense(3 * kEpsilon *
                 (std::abs(m) * Dense(M).cwiseAbs() + std::abs(b_factor) * Dense(B).cwiseAbs() +
                  std::abs(k) * Dense(K).cwiseAbs()));
  };
  const SparseMatrix expected = m * M + b * B + k * K;  // Eigen's sparse arithmetic
  EXPECT_TRUE(((Dense(A) - Dense(expected)).cwiseAbs().array() <= round_off(b).array()).all());
  // Without B.
  CombineMatrices(m, M, 0.0, nullptr, k, K, A);
  const SparseMatrix expected_mk = m * M + k * K;
  EXPECT_TRUE(((Dense(A) - Dense(expected_mk)).cwiseAbs().array() <= round_off(0.0).array()).all());
  ASSERT_GT(Dense(A).cwiseAbs().maxCoeff(), 1.0);
}

TEST(AssembledSystem, MassMatrixIsDiagonalOfPointMasses) {
  const SmallSystem small;
  const Dense M(small.system->mass());
  Dense expected = Dense::Zero(SmallSystem::kDofs, SmallSystem::kDofs);
  for (Index i = 0; i < SmallSystem::kDofs; ++i)
    expected(i, i) = small.point_mass[static_cast<std::size_t>(i / 3)];
  EXPECT_EQ(M, expected);
  EXPECT_TRUE(small.system->is_mass_diagonal());
  // 1/m, with 0 for the fixed point and the massless one.
  const Vector& inverse = small.system->inverse_mass_diagonal();
  for (Index i = 0; i < SmallSystem::kDofs; ++i) {
    const double mass = small.point_mass[static_cast<std::size_t>(i / 3)];
    EXPECT_EQ(inverse[i], (i < 3 || mass == 0.0) ? 0.0 : 1.0 / mass) << i;
  }
}

TEST(AssembledSystem, KineticEnergyIsHalfVMV) {
  const SmallSystem small;
  const State state = SmallSystem::MakeState(0.0);
  double expected = 0.0;
  for (Index i = 0; i < SmallSystem::kDofs; ++i)
    expected += 0.5 * small.point_mass[static_cast<std::size_t>(i / 3)] * state.v[i] * state.v[i];
  EXPECT_NEAR(small.system->KineticEnergy(state), expected, 4 * kEpsilon * expected);
}

TEST(AssembledSystem, ExplicitUseNeverBuildsTheMatrixLayout) {
  // What an explicit solver on lumped masses asks for — forces, the mass diagonal and its
  // inverse, projection of vectors, energies — needs no sparse pattern; the first matrix builds
  // it, once.
  const SmallSystem small;
  const State state = SmallSystem::MakeState(0.1);
  Vector f;
  small.system->ComputeForce(state, f);
  small.system->ProjectResponse(f);
  const Vector diagonal = small.system->mass_diagonal();
  for (Index i = 0; i < SmallSystem::kDofs; ++i)
    EXPECT_EQ(diagonal[i], small.point_mass[static_cast<std::size_t>(i / 3)]) << i;
  EXPECT_TRUE(small.system->is_mass_diagonal());
  EXPECT_TRUE(small.system->has_damping_matrix());  // exact dashpot Jacobians were asked for
  (void)small.system->inverse_mass_diagonal();
  (void)small.system->KineticEnergy(state);
  (void)small.system->PotentialEnergy(state);
  EXPECT_FALSE(small.system->has_matrix_layout());
  const SparseMatrix K = small.system->CreateMatrix();
  EXPECT_TRUE(small.system->has_matrix_layout());
  EXPECT_EQ(&small.system->mass(), &small.system->mass());  // built once, kept
  EXPECT_EQ(K.nonZeros(), small.system->mass().nonZeros());
}

TEST(AssembledSystem, ForceIsSumOfFieldsUnprojected) {
  const SmallSystem small;
  const State state = SmallSystem::MakeState(0.1);
  Vector f = Vector::Constant(SmallSystem::kDofs, 123.0);  // overwritten, not accumulated
  small.system->ComputeForce(state, f);
  Vector expected = Vector::Zero(SmallSystem::kDofs);
  for (const Spring& s : small.springs) {
    const Eigen::Vector3d u = state.x.segment<3>(s.b) - state.x.segment<3>(s.a);
    const double d = u.norm();
    const double rate = (u / d).dot(state.v.segment<3>(s.b) - state.v.segment<3>(s.a));
    const Eigen::Vector3d force = (s.stiffness * (d - s.rest_length) + s.damping * rate) * u / d;
    expected.segment<3>(s.a) += force;
    expected.segment<3>(s.b) -= force;
  }
  expected[4] += -9.81 * 2.0;
  expected[7] += -9.81 * 0.5;
  ASSERT_NE(f.head<3>(), Eigen::Vector3d::Zero());  // the fixed point's force is not projected
  EXPECT_LE((f - expected).cwiseAbs().maxCoeff(), 1e-12);  // ~10 ulps of forces of size ~100
}

// --- Energies and external forces through scenes ----------------------------------------------

class AssembledScene : public fluxion::testing::QuietTest {
 protected:
  static double Potential(const std::string& xml) {
    const Simulation simulation = fluxion::testing::LoadScene(xml);
    const SolverNode& node = simulation.solver_nodes()[0];
    return node.system->PotentialEnergy(node.state);
  }
};

// Three points of mass 2 at (0,0,0), (3,4,0), (1,2,3): a spring 0–1 (d = 5) of rest length 4 and
// ks = 10 stores ½·10·1² = 5; gravity (0,−10,0) stores −Σ m·g·x = 20·(0 + 4 + 2) = 120; the force
// (1,−2,0.5) on point 2 stores −F·x = −(1 − 4 + 1.5) = 1.5.
std::string EnergyScene(const char* gravity, bool spring, bool constant) {
  return std::string(R"(<Node name="root" gravity=")") + gravity + R"(" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="body">
    <MechanicalObject name="dofs" position="0 0 0  3 4 0  1 2 3" velocity="1 0 0  0 2 0  0 0 -3"/>
    <UniformMass vertexMass="2"/>
)" +
         (spring ? R"(    <SpringForceField spring="0 1 10 0 4"/>
)"
                 : "") +
         (constant ? R"(    <ConstantForceField indices="2" forces="1 -2 0.5"/>
)"
                   : "") +
         R"(  </Node>
</Node>)";
}

// Energies of a few terms of size ≤ 120: exact to a few ulps.
constexpr double kEnergyRoundOff = 1e-13;

TEST_F(AssembledScene, PotentialEnergyOfSpring) {
  EXPECT_NEAR(Potential(EnergyScene("0 0 0", true, false)), 5.0, kEnergyRoundOff);
}

TEST_F(AssembledScene, PotentialEnergyOfGravity) {
  EXPECT_NEAR(Potential(EnergyScene("0 -10 0", false, false)), 120.0, kEnergyRoundOff);
  // Gravity along x: −Σ m·g·x = −2·3·(0 + 3 + 1) = −24.
  EXPECT_NEAR(Potential(EnergyScene("3 0 0", false, false)), -24.0, kEnergyRoundOff);
}

TEST_F(AssembledScene, PotentialEnergyOfConstantForce) {
  EXPECT_NEAR(Potential(EnergyScene("0 0 0", false, true)), 1.5, kEnergyRoundOff);
}

TEST_F(AssembledScene, PotentialEnergyAddsAllTerms) {
  EXPECT_NEAR(Potential(EnergyScene("0 -10 0", true, true)), 126.5, kEnergyRoundOff);
}

TEST_F(AssembledScene, KineticEnergyOfScene) {
  const Simulation simulation = fluxion::testing::LoadScene(EnergyScene("0 0 0", false, false));
  // ½·2·(1 + 4 + 9) = 14.
  EXPECT_NEAR(simulation.KineticEnergy(), 14.0, kEnergyRoundOff);
}

// A free point of mass 2 pushed by externalForce (4, 0, 0) under gravity (0, −10, 0), h = 0.1,
// symplectic Euler: the external force acts during the first step only (SOFA clears it).
//   step 1: a = (2, −10, 0), v = (0.2, −1, 0),  x = (0.02, −0.1, 0)
//   step 2: a = (0, −10, 0), v = (0.2, −2, 0),  x = (0.04, −0.3, 0)
TEST_F(AssembledScene, ExternalForceActsDuringFirstStepOnly) {
  Simulation simulation = fluxion::testing::LoadScene(R"(
<Node name="root" gravity="0 -10 0" dt="0.1">
  <EulerExplicitSolver/>
  <Node name="ball">
    <MechanicalObject name="dofs" position="0 0 0" externalForce="4 0 0"/>
    <UniformMass totalMass="2"/>
  </Node>
</Node>)");
  // A handful of operations on numbers ≤ 2: a few ulps.
  constexpr double kRoundOff = 1e-15;
  simulation.Step();
  EXPECT_NEAR(simulation.velocity(0)[0], 0.2, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[1], -1.0, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[0], 0.02, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[1], -0.1, kRoundOff);
  simulation.Step();
  EXPECT_NEAR(simulation.velocity(0)[0], 0.2, kRoundOff);
  EXPECT_NEAR(simulation.velocity(0)[1], -2.0, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[0], 0.04, kRoundOff);
  EXPECT_NEAR(simulation.position(0)[1], -0.3, kRoundOff);
}

}  // namespace
}  // namespace fluxion::internal
