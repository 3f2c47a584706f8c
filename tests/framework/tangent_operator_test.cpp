// The matrix-free tangent operator (MechanicalSystem::CreateTangentOperator, FieldTangent):
// y = m·M·x + b·B·x + k·K·x against central finite differences of the system's force along x
// (K·x = −∂f/∂x·x, B·x = −∂f/∂v·x), for springs with their own product and for a field that has
// none (the entry-list fallback), in 1-D, 2-D and 3-D; and against the assembled operator.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "fluxion/threads.h"
#include "mechanics/assembled_system.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {
namespace {

// A spring field that hides its matrix-free product: the system must fall back to its entries.
class EntriesOnlySprings final : public ForceField {
 public:
  explicit EntriesOnlySprings(SpringForceField springs) : springs_(std::move(springs)) {}
  void AddForce(const State& s, Vector& f) const override { springs_.AddForce(s, f); }
  void StiffnessEntries(std::vector<MatrixEntry>& e) const override {
    springs_.StiffnessEntries(e);
  }
  void AddStiffness(const State& s, const Index* slots, double* values) const override {
    springs_.AddStiffness(s, slots, values);
  }
  void DampingEntries(std::vector<MatrixEntry>& e) const override { springs_.DampingEntries(e); }
  void AddDamping(const State& s, const Index* slots, double* values) const override {
    springs_.AddDamping(s, slots, values);
  }

 private:
  SpringForceField springs_;
};

// Five points, springs stretched and compressed (so the geometric part fi/d matters), with
// dashpots whose exact Jacobian B is provided; masses differ per point. At rest (`moving` false)
// SOFA's tangent is the exact −∂f/∂x; with velocities its dashpot term kd·ė enters fi but not
// ∂ė/∂x (sofa-notes §3), so finite differences only check it at rest.
struct Fixture {
  int dim;
  std::unique_ptr<AssembledSystem> system;
  State state;

  Fixture(int dimension, bool native, bool moving = true, bool exact_damping = true)
      : dim(dimension) {
    const Index points = 5;
    const Index n = points * dim;
    state.x.resize(n);
    state.v.resize(n);
    for (Index i = 0; i < n; ++i) {
      state.x[i] = 0.9 * static_cast<double>(i / dim) + 0.37 * static_cast<double>((i * 7) % 5);
      state.v[i] = moving ? 0.1 * static_cast<double>((i * 3) % 7) - 0.3 : 0.0;
    }
    std::vector<Spring> springs;
    const int pairs[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 2}, {1, 4}, {4, 0}};
    double rest = 0.5;
    for (const auto& p : pairs) {
      springs.push_back({p[0] * dim, p[1] * dim, 120.0 + 10.0 * rest, 0.7, rest});
      rest += 0.35;
    }
    SystemParts parts;
    parts.num_dofs = n;
    parts.mass.resize(n);
    for (Index i = 0; i < n; ++i) parts.mass[i] = 0.5 + 0.1 * static_cast<double>(i / dim);
    parts.fixed.assign(static_cast<std::size_t>(n), false);
    SpringForceField field(dim, springs, exact_damping);
    if (native)
      parts.force_fields.push_back(std::make_unique<SpringForceField>(std::move(field)));
    else
      parts.force_fields.push_back(std::make_unique<EntriesOnlySprings>(std::move(field)));
    system = std::make_unique<AssembledSystem>(std::move(parts));
  }

  Vector Direction() const {
    Vector x(state.x.size());
    for (Index i = 0; i < x.size(); ++i) x[i] = 0.2 + 0.13 * static_cast<double>((i * 5) % 9);
    return x;
  }

  // −(f(s + εx) − f(s − εx))/(2ε), moving positions (K·x) or velocities (B·x).
  Vector DifferenceProduct(const Vector& x, bool velocity) const {
    const double epsilon = 1e-6;
    State plus = state, minus = state;
    (velocity ? plus.v : plus.x) += epsilon * x;
    (velocity ? minus.v : minus.x) -= epsilon * x;
    Vector f_plus, f_minus;
    system->ComputeForce(plus, f_plus);
    system->ComputeForce(minus, f_minus);
    return -(f_plus - f_minus) / (2.0 * epsilon);
  }
};

class TangentOperatorTest : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(TangentOperatorTest, ProductEqualsFiniteDifferencesOfTheForce) {
  const auto [dim, native] = GetParam();
  Fixture fixture(dim, native, /*moving=*/false);
  std::unique_ptr<TangentOperator> tangent = fixture.system->CreateTangentOperator();
  tangent->LinearizeStiffness(fixture.state);
  tangent->LinearizeDamping(fixture.state);
  const Vector x = fixture.Direction();
  const double m = 1.7, b = 0.03, k = 2.5e-3;
  Vector mass_x(x.size());
  for (Index i = 0; i < x.size(); ++i)
    mass_x[i] = (0.5 + 0.1 * static_cast<double>(i / dim)) * x[i];
  const Vector expected =
      m * mass_x + b * fixture.DifferenceProduct(x, true) + k * fixture.DifferenceProduct(x, false);
  Vector y;
  tangent->Multiply(m, b, k, x, y);
  ASSERT_EQ(y.size(), x.size());
  EXPECT_LT((y - expected).norm(), 1e-8 * expected.norm());

  // Each term alone, and a zero factor skipping its term.
  tangent->Multiply(0.0, 0.0, 1.0, x, y);
  EXPECT_LT((y - fixture.DifferenceProduct(x, false)).norm(), 1e-7 * y.norm());
  tangent->Multiply(0.0, 1.0, 0.0, x, y);
  EXPECT_LT((y - fixture.DifferenceProduct(x, true)).norm(), 1e-7 * y.norm());
  tangent->Multiply(1.0, 0.0, 0.0, x, y);
  EXPECT_EQ(y, mass_x);
}

TEST_P(TangentOperatorTest, AgreesWithTheAssembledOperatorToRoundOff) {
  const auto [dim, native] = GetParam();
  Fixture fixture(dim, native);
  std::unique_ptr<TangentOperator> field_wise = fixture.system->CreateTangentOperator();
  std::unique_ptr<TangentOperator> assembled =
      fixture.system->MechanicalSystem::CreateTangentOperator();
  for (TangentOperator* t : {field_wise.get(), assembled.get()}) {
    t->LinearizeStiffness(fixture.state);
    t->LinearizeDamping(fixture.state);
  }
  const Vector x = fixture.Direction();
  Vector y1, y2;
  field_wise->Multiply(0.8, 0.05, 3e-3, x, y1);
  assembled->Multiply(0.8, 0.05, 3e-3, x, y2);
  EXPECT_LT((y1 - y2).norm(), 1e-14 * y2.norm());
}

TEST(TangentOperator, ZeroBeforeLinearizationAndAfterAnInactiveSpring) {
  Fixture fixture(3, true);
  std::unique_ptr<TangentOperator> tangent = fixture.system->CreateTangentOperator();
  const Vector x = fixture.Direction();
  Vector y;
  tangent->Multiply(0.0, 1.0, 1.0, x, y);
  EXPECT_EQ(y, Vector::Zero(x.size()));
}

// TangentEvaluation::kRecomputed (the stability check's operator): springs without an exact
// dashpot Jacobian store nothing and evaluate their blocks at each product, with the stored
// product's arithmetic: the same bits. Springs with one are stored as before (B included).
TEST(TangentOperator, RecomputedProductHasTheStoredProductsBits) {
  for (const int dim : {1, 2, 3}) {
    for (const bool exact_damping : {false, true}) {
      Fixture fixture(dim, /*native=*/true, /*moving=*/true, exact_damping);
      std::unique_ptr<TangentOperator> stored = fixture.system->CreateTangentOperator();
      std::unique_ptr<TangentOperator> recomputed =
          fixture.system->CreateTangentOperator(TangentEvaluation::kRecomputed);
      for (TangentOperator* t : {stored.get(), recomputed.get()}) {
        t->LinearizeStiffness(fixture.state);
        t->LinearizeDamping(fixture.state);
      }
      const Vector x = fixture.Direction();
      Vector y1, y2;
      stored->Multiply(0.0, 0.0, 2.5e-3, x, y1);
      recomputed->Multiply(0.0, 0.0, 2.5e-3, x, y2);
      EXPECT_EQ(y1, y2) << dim << "-D, exact damping " << exact_damping;
      stored->Multiply(0.8, 0.05, 3e-3, x, y1);
      recomputed->Multiply(0.8, 0.05, 3e-3, x, y2);
      EXPECT_EQ(y1, y2) << dim << "-D, exact damping " << exact_damping;
    }
  }
}

// The same on a chain long enough for the spring loops to run over two threads (more than
// 2 × kSpringGrain springs): the recomputed product walks the same point partition.
TEST(TangentOperator, RecomputedProductHasTheStoredProductsBitsOnTwoThreads) {
  const Index points = 3 * kSpringGrain;
  const Index n = 3 * points;
  State state;
  state.x.resize(n);
  state.v.resize(n);
  for (Index i = 0; i < n; ++i) {
    state.x[i] = 0.01 * static_cast<double>(i / 3) + 1e-3 * static_cast<double>((i * 7) % 5);
    state.v[i] = 1e-2 * static_cast<double>((i * 3) % 7);
  }
  std::vector<Spring> springs;
  for (Index p = 0; p + 1 < points; ++p) springs.push_back({3 * p, 3 * p + 3, 50.0, 0.2, 0.012});
  SystemParts parts;
  parts.num_dofs = n;
  parts.mass = Vector::Constant(n, 1e-3);
  parts.fixed.assign(static_cast<std::size_t>(n), false);
  parts.force_fields.push_back(std::make_unique<SpringForceField>(3, springs, false));
  const AssembledSystem system(std::move(parts));
  Vector x(n);
  for (Index i = 0; i < n; ++i) x[i] = 0.2 + 0.13 * static_cast<double>((i * 5) % 9);
  const int threads = ThreadCount();
  for (const int count : {1, 2}) {
    SetThreadCount(count);
    std::unique_ptr<TangentOperator> stored = system.CreateTangentOperator();
    std::unique_ptr<TangentOperator> recomputed =
        system.CreateTangentOperator(TangentEvaluation::kRecomputed);
    stored->LinearizeStiffness(state);
    recomputed->LinearizeStiffness(state);
    Vector y1, y2;
    stored->Multiply(0.0, 0.0, 1.0, x, y1);
    recomputed->Multiply(0.0, 0.0, 1.0, x, y2);
    EXPECT_EQ(y1, y2) << count << " thread(s)";
  }
  SetThreadCount(threads);
}

INSTANTIATE_TEST_SUITE_P(DimensionsAndPaths, TangentOperatorTest,
                         ::testing::Combine(::testing::Values(1, 2, 3),
                                            ::testing::Values(true, false)),
                         [](const ::testing::TestParamInfo<std::tuple<int, bool>>& param_info) {
                           return std::to_string(std::get<0>(param_info.param)) + "D_" +
                                  (std::get<1>(param_info.param) ? "SpringProduct"
                                                                 : "EntryFallback");
                         });

}  // namespace
}  // namespace fluxion::internal
