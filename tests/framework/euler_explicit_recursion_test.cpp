// EulerExplicitSolver against hand-written recursions of seed 004 §2.1 (and SOFA's test suite,
// sofa-notes §2.1): the fixed point + mass + spring scene, y compared before every step.
#include <cmath>

#include <vector>

#include "fluxion/mechanical_system.h"
#include "fluxion/solver.h"
#include "fluxion/text.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

std::string SpringScene(double k, double m, double h, const char* solver_attributes) {
  return R"(<Node name="root" gravity="0 -10 0" dt=")" + std::to_string(h) + R"(">
  <EulerExplicitSolver )" +
         solver_attributes + R"(/>
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" template="Vec3d" position="0 2 0" velocity="0 0 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" template="Vec3d" position="0 1 0" velocity="0 0 0"/>
    <UniformMass totalMass=")" +
         std::to_string(m) + R"("/>
  </Node>
  <SpringForceField spring="0 0 )" +
         std::to_string(k) +
         R"( 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>)";
}

// Relative tolerance: our force is −k·(d − L0)·û summed in another order than the recursion's
// −k·(y − z0) − m·g, so the two agree to a few ulps per step; 1e-12 relative leaves margin for
// the ~2/h steps of accumulation (SOFA itself asserts ~5e-16 absolute).
constexpr double kRelativeTolerance = 1e-12;

struct Case {
  double k, m, h;
};
void PrintTo(const Case& c, std::ostream* out) {
  *out << "k " << c.k << ", m " << c.m << ", h " << c.h;
}

class EulerExplicitSofaCases : public fluxion::testing::QuietTest,
                               public ::testing::WithParamInterface<Case> {};

TEST_P(EulerExplicitSofaCases, MatchesSymplecticRecursion) {
  const auto [k, m, h] = GetParam();
  Simulation simulation = fluxion::testing::LoadScene(SpringScene(k, m, h, ""));
  const double g = 10.0, z0 = 1.0;
  double y = z0, v = 0.0;
  while (simulation.time() < 2.0) {
    const double simulated = simulation.position(1)[1];
    ASSERT_NEAR(simulated, y, kRelativeTolerance * std::max(1.0, std::abs(y)))
        << "t = " << simulation.time();
    simulation.Step();
    v = v + h * (-k * (y - z0) - m * g) / m;  // seed 004: v_{k+1} = v_k + h a_k
    y = y + h * v;                            // SOFA's symplectic default: x with the new v
  }
}

INSTANTIATE_TEST_SUITE_P(SofaTestMatrix, EulerExplicitSofaCases,
                         ::testing::Values(Case{100, 10, 0.001}, Case{1000, 10, 0.01},
                                           Case{1000, 100, 0.1}),
                         [](const ::testing::TestParamInfo<Case>& test) {
                           // "k100_m10_h0_001": gtest names allow letters, digits and '_' only.
                           std::string name = "k" + fluxion::FormatReal(test.param.k) + "_m" +
                                              fluxion::FormatReal(test.param.m) + "_h" +
                                              fluxion::FormatReal(test.param.h);
                           for (char& c : name)
                             if (c == '.') c = '_';
                           return name;
                         });

// --- Both update orders, checked at every step --------------------------------------------------
//
// Seed 004 §2.1 with SOFA's `symplectic` flag (sofa-notes §1.1), a = M⁻¹f(x_n, v_n):
//   symplectic = 1:  v_{n+1} = v_n + h·a,  x_{n+1} = x_n + h·v_{n+1}
//   symplectic = 0:  x_{n+1} = x_n + h·v_n,  v_{n+1} = v_n + h·a
//
// Tolerance: the framework evaluates the spring force in another operation order than these
// recursions (û = u·(1/d) against u/d, summation order), a few ε relative per step. Symplectic
// Euler does not amplify such errors and forward Euler amplifies them by at most
// (1 + ω²h²)^(n/2) ≈ 1.2 over these runs, so after n ≤ 300 steps they stay below
// n·4ε·1.2 ≈ 3e-13 of the magnitudes involved (positions ~1 m, velocities ~ω·amplitude);
// 1e-12 of those magnitudes leaves a factor 3.
constexpr double kStepTolerance = 1e-12;

class EulerExplicitUpdateOrder : public fluxion::testing::QuietTest,
                                 public ::testing::WithParamInterface<bool> {};

// A Vec1d point of mass m on a spring (k, L0) to a fixed point at 0, gravity −10 along x:
// f = −k·(|y| − L0)·sign(y) + m·g.
TEST_P(EulerExplicitUpdateOrder, OneDofOscillatorFollowsRecursion) {
  const bool symplectic = GetParam();
  const double k = 100.0, m = 1.0, rest = 1.0, g = -10.0, h = 0.004;
  Simulation simulation =
      fluxion::testing::LoadScene(std::string(R"(<Node name="root" gravity="-10 0 0" dt="0.004">
  <EulerExplicitSolver symplectic=")") +
                                  (symplectic ? "1" : "0") + R"("/>
  <MechanicalObject template="Vec1d" position="0 1.5"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>)");
  double y = 1.5, v = 0.0;
  const double amplitude = 0.6, omega = std::sqrt(k / m);  // |y − y*| ≤ 0.6·1.2, y* = 0.9
  for (int n = 1; n <= 250; ++n) {
    simulation.Step();
    const double d = std::abs(y);
    const double a = (-k * (d - rest) * (y / d) + m * g) / m;
    if (symplectic) {
      v = v + h * a;
      y = y + h * v;
    } else {
      y = y + h * v;
      v = v + h * a;
    }
    ASSERT_GT(y, 0.1);  // the recursion's spring keeps its orientation
    ASSERT_NEAR(simulation.position(0)[1], y, kStepTolerance * (std::abs(y) + 1.0)) << "step " << n;
    ASSERT_NEAR(simulation.velocity(0)[1], v, kStepTolerance * (std::abs(v) + omega * amplitude))
        << "step " << n;
    ASSERT_EQ(simulation.position(0)[0], 0.0);  // the fixed point never moves
  }
}

// One step of the recursion for a point with acceleration a: SOFA's symplectic order (v first,
// then x with the new v) or forward Euler's.
void EulerStep(bool symplectic, double h, const Eigen::Vector3d& a, Eigen::Vector3d& x,
               Eigen::Vector3d& v) {
  if (symplectic) {
    v = v + h * a;
    x = x + h * v;
  } else {
    x = x + h * v;
    v = v + h * a;
  }
}

// The simulated point (its first DOF `first` in object `object`) against the recursion's x and v,
// to kStepTolerance relative to |x| + 1 and |v| + speed_scale.
void ExpectPointFollows(const Simulation& simulation, int object, Index first,
                        const Eigen::Vector3d& x, const Eigen::Vector3d& v, double speed_scale,
                        int step) {
  for (int c = 0; c < 3; ++c) {
    ASSERT_NEAR(simulation.position(object)[first + c], x[c],
                kStepTolerance * (std::abs(x[c]) + 1.0))
        << "step " << step << " axis " << c;
    ASSERT_NEAR(simulation.velocity(object)[first + c], v[c],
                kStepTolerance * (std::abs(v[c]) + speed_scale))
        << "step " << step << " axis " << c;
  }
}

// Two objects in two nodes: a fixed anchor and a bob of mass m joined by a spring declared in the
// root through object1/object2, swinging in 3-D under gravity (0, −10, 0).
TEST_P(EulerExplicitUpdateOrder, TwoObjectSpringFollowsRecursion) {
  const bool symplectic = GetParam();
  const double k = 200.0, m = 2.0, rest = 0.8, h = 0.005;
  Simulation simulation =
      fluxion::testing::LoadScene(std::string(R"(<Node name="root" gravity="0 -10 0" dt="0.005">
  <EulerExplicitSolver symplectic=")") +
                                  (symplectic ? "1" : "0") + R"("/>
  <Node name="anchor">
    <MechanicalObject name="p" position="0.3 2 -0.4"/>
    <FixedProjectiveConstraint/>
  </Node>
  <Node name="bob">
    <MechanicalObject name="q" position="0.8 1.3 0" velocity="0.2 0 -0.1"/>
    <UniformMass totalMass="2"/>
  </Node>
  <SpringForceField spring="0 0 200 0 0.8" object1="@anchor/p" object2="@bob/q"/>
</Node>)");
  const Eigen::Vector3d anchor(0.3, 2.0, -0.4), gravity(0.0, -10.0, 0.0);
  Eigen::Vector3d x(0.8, 1.3, 0.0), v(0.2, 0.0, -0.1);
  const double omega = std::sqrt(k / m), speed_scale = omega * 0.5;
  for (int n = 1; n <= 300; ++n) {
    simulation.Step();
    const Eigen::Vector3d u = x - anchor;
    const double d = u.norm();
    EulerStep(symplectic, h, (-k * (d - rest) * u / d + m * gravity) / m, x, v);
    ASSERT_GT(d, 0.2);
    ASSERT_NO_FATAL_FAILURE(ExpectPointFollows(simulation, 1, 0, x, v, speed_scale, n));
    ASSERT_EQ(simulation.position(0), anchor);  // fixed: every increment projected out
  }
}

// The bob kept in a plane through the anchor (PlaneProjectiveConstraint, P = I − n·nᵀ with n along
// (1, 1, 0)): its acceleration is projected, a = P·(f/m), which the solver applies to the DOFs the
// system lists as projected after its pass over all of them (the acceleration is computed inside
// that pass when M is diagonal). Gravity has a component in the plane and one out of it.
TEST_P(EulerExplicitUpdateOrder, BobInATiltedPlaneFollowsRecursion) {
  const bool symplectic = GetParam();
  const double k = 150.0, m = 1.5, rest = 1.2, h = 0.004;
  Simulation simulation =
      fluxion::testing::LoadScene(std::string(R"(<Node name="root" gravity="0 -10 0" dt="0.004">
  <EulerExplicitSolver symplectic=")") +
                                  (symplectic ? "1" : "0") + R"("/>
  <MechanicalObject position="0 0 0  1 -1 0.5" velocity="0 0 0  -0.25 0.25 1"/>
  <UniformMass vertexMass="1.5"/>
  <FixedProjectiveConstraint indices="0"/>
  <PlaneProjectiveConstraint indices="1" normal="1 1 0"/>
  <SpringForceField spring="0 1 150 0 1.2"/>
</Node>)");
  const Eigen::Vector3d n = Eigen::Vector3d(1.0, 1.0, 0.0).normalized();
  const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - n * n.transpose();
  const Eigen::Vector3d gravity(0.0, -10.0, 0.0);
  Eigen::Vector3d x(1.0, -1.0, 0.5), v(-0.25, 0.25, 1.0);  // v in the plane, across the spring
  const double speed_scale = std::sqrt(k / m);
  for (int step = 1; step <= 300; ++step) {
    simulation.Step();
    const double d = x.norm();
    EulerStep(symplectic, h, P * ((-k * (d - rest) * x / d + m * gravity) / m), x, v);
    ASSERT_GT(d, 0.5);
    ASSERT_NO_FATAL_FAILURE(ExpectPointFollows(simulation, 0, 3, x, v, speed_scale, step));
    ASSERT_NEAR(simulation.position(0).segment<3>(3).dot(n), 0.0, 1e-12) << "step " << step;
    ASSERT_EQ(simulation.position(0).head<3>(), Eigen::Vector3d::Zero());  // fixed
  }
}

// A system of two points with a diagonal mass, a constant force and a projector P = I − n·nᵀ on
// point 1 only in ProjectResponse — no state constraint that would project the state after the
// step and hide a wrong acceleration. The solver computes a = f/m inside its update pass and then
// redoes the DOFs projected_dofs() lists with a = P·(f/m): one step must give exactly the hand
// computation (same operations, so the same bits).
class ProjectedPointSystem final : public MechanicalSystem {
 public:
  ProjectedPointSystem() : mass_diagonal_(6), force_(6) {
    const Eigen::Vector3d n = Eigen::Vector3d(1.0, 2.0, 2.0) / 3.0;
    projector_ = Eigen::Matrix3d::Identity() - n * n.transpose();
    mass_diagonal_ << 2.0, 2.0, 2.0, 3.0, 3.0, 3.0;
    inverse_ = mass_diagonal_.cwiseInverse();
    force_ << 1.0, -2.0, 0.5, 3.0, -1.5, 4.0;
    mass_ = Eigen::MatrixXd(mass_diagonal_.asDiagonal()).sparseView();
    mass_.makeCompressed();
  }
  Index num_dofs() const override { return 6; }
  const SparseMatrix& mass() const override { return mass_; }
  bool is_mass_diagonal() const override { return true; }
  Vector mass_diagonal() const override { return mass_diagonal_; }
  const Vector& inverse_mass_diagonal() const override { return inverse_; }
  void ComputeForce(const State& /*state*/, Vector& f) const override { f = force_; }
  SparseMatrix CreateMatrix() const override { return mass_ * 0.0; }
  void AssembleStiffness(const State& /*state*/, SparseMatrix& K) const override { K *= 0.0; }
  bool has_damping_matrix() const override { return false; }
  void AssembleDamping(const State& /*state*/, SparseMatrix& B) const override { B *= 0.0; }
  void ProjectResponse(Vector& vector) const override { Project(vector.segment<3>(3)); }
  void ProjectMatrix(SparseMatrix& /*matrix*/) const override {}
  const std::vector<Index>* projected_dofs() const override { return &projected_; }
  double KineticEnergy(const State& /*state*/) const override { return 0.0; }
  double PotentialEnergy(const State& /*state*/) const override { return 0.0; }

  // r ← P·r, row by row in a fixed order.
  template <class Segment>
  void Project(Segment&& r) const {
    const Eigen::Vector3d in = r;
    for (int i = 0; i < 3; ++i) {
      double sum = 0.0;
      for (int j = 0; j < 3; ++j) sum += projector_(i, j) * in[j];
      r[i] = sum;
    }
  }
  const Vector& force() const { return force_; }

 private:
  Eigen::Matrix3d projector_;
  Vector mass_diagonal_, force_, inverse_;
  SparseMatrix mass_;
  std::vector<Index> projected_{3, 4, 5};
};

TEST_P(EulerExplicitUpdateOrder, ProjectedDofsGetTheProjectedAccelerationBitForBit) {
  const bool symplectic = GetParam();
  const ProjectedPointSystem system;
  const SolverHandle solver = fluxion::testing::TestHost().CreateSolver(
      {"EulerExplicitSolver", {{"symplectic", symplectic ? "1" : "0"}}});
  solver->Initialize(system, nullptr);
  State state;
  state.x = Vector::LinSpaced(6, -1.0, 1.5);
  state.v = Vector::LinSpaced(6, 0.3, -0.7);
  const double h = 0.01;
  // The hand computation: a = f/m, P on point 1, then the update in SOFA's order.
  Vector a = system.force().cwiseQuotient(system.mass_diagonal());
  system.Project(a.segment<3>(3));
  Vector x = state.x, v = state.v;
  for (Index i = 0; i < 6; ++i) {
    if (symplectic) {
      v[i] = v[i] + a[i] * h;
      x[i] = x[i] + v[i] * h;
    } else {
      x[i] = x[i] + v[i] * h;
      v[i] = v[i] + a[i] * h;
    }
  }
  ASSERT_TRUE(solver->Step(system, h, state).accepted());
  EXPECT_EQ(state.x, x);
  EXPECT_EQ(state.v, v);
}

INSTANTIATE_TEST_SUITE_P(SymplecticFlag, EulerExplicitUpdateOrder, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& flag) {
                           return flag.param ? "Symplectic" : "Forward";
                         });

class EulerExplicitRuns : public fluxion::testing::QuietTest {};

TEST_F(EulerExplicitRuns, TwoRunsAreBitIdentical) {
  const std::string scene = R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology n="4 4 1" min="0 0 0" max="1 1 0"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <MeshSpringForceField linesStiffness="5" linesDamping="0.05"/>
  </Node>
</Node>)";
  Simulation first = fluxion::testing::LoadScene(scene);
  Simulation second = fluxion::testing::LoadScene(scene);
  for (int n = 0; n < 300; ++n) {
    first.Step();
    second.Step();
    ASSERT_EQ(first.position(0), second.position(0)) << "step " << n;
    ASSERT_EQ(first.velocity(0), second.velocity(0)) << "step " << n;
    ASSERT_EQ(first.time(), second.time());
  }
  ASSERT_NE(first.position(0), second.objects()[0].position);  // it did move
}

}  // namespace
}  // namespace fluxion
