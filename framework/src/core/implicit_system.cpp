#include "fluxion/implicit_system.h"

#include <bit>
#include <cstdint>
#include <utility>

#include "core/sparse_product.h"
#include "fluxion/errors.h"

namespace fluxion {

namespace implicit_detail {
// A = P[m·M + b·B + k·K]P + (I − P), applied as products: the operator form of the projected
// matrix of ImplicitSystem::Factorize (MechanicalSystem::ProjectMatrix), so that CG iterates as
// on the assembled matrix. y = P·T·(P·x) + (x − P·x) with T the tangent operator.
//
// CG's directions are projected already (its right-hand side is, and A maps projected vectors
// to projected vectors), so P·x = x and the product is y = P·T·x. When the system lists the DOFs
// its projection can change (MechanicalSystem::projected_dofs), the operator checks that on those
// DOFs only — bit for bit, so a −0 where P writes +0 takes the general path — and then skips the
// copy of x and the pass adding x − P·x, two of the few full-vector passes of a CG iteration
// besides the product itself. The result is the general formula's, except that a zero entry of
// y may keep the sign the product gave it (x − P·x adds +0).
class ProjectedTangent final : public LinearOperator {
 public:
  ProjectedTangent(const MechanicalSystem& system, const TangentOperator& tangent)
      : system_(system),
        tangent_(tangent),
        projected_dofs_(system.projected_dofs()),
        projected_(Vector::Zero(system.num_dofs())) {}

  void SetFactors(double m, double b, double k) {
    m_ = m;
    b_ = b;
    k_ = k;
  }
  Index size() const override { return system_.num_dofs(); }
  // Zero outside the projected DOFs before and after: shrinking keeps that.
  void FollowSystemChange(const SystemChange& change) { FollowRemovedBlocks(change, projected_); }
  void Apply(const Vector& x, Vector& y) const override {
    if (IsProjected(x)) {
      tangent_.Multiply(m_, b_, k_, x, y);
      system_.ProjectResponse(y);
      return;
    }
    projected_ = x;
    system_.ProjectResponse(projected_);
    tangent_.Multiply(m_, b_, k_, projected_, y);
    system_.ProjectResponse(y);
    y += x - projected_;
    Clear();
  }

 private:
  // P·x = x bit for bit, from the listed DOFs: projected_ is zero elsewhere, and ProjectResponse
  // changes nothing else, so it sees x there and computes (P·x) there.
  bool IsProjected(const Vector& x) const {
    if (projected_dofs_ == nullptr) return false;
    for (const Index i : *projected_dofs_) projected_[i] = x[i];
    system_.ProjectResponse(projected_);
    bool same = true;
    for (const Index i : *projected_dofs_)
      same =
          same && std::bit_cast<std::uint64_t>(projected_[i]) == std::bit_cast<std::uint64_t>(x[i]);
    for (const Index i : *projected_dofs_) projected_[i] = 0.0;
    return same;
  }
  // Back to zero outside the listed DOFs after the general path used the whole vector.
  void Clear() const {
    if (projected_dofs_ != nullptr) projected_.setZero();
  }

  const MechanicalSystem& system_;
  const TangentOperator& tangent_;
  const std::vector<Index>* projected_dofs_;
  mutable Vector projected_;  // scratch: P·x (zero outside the projected DOFs between calls)
  double m_ = 0.0, b_ = 0.0, k_ = 0.0;
};
}  // namespace implicit_detail

using implicit_detail::ProjectedTangent;

struct ImplicitSystem::Impl {
  const MechanicalSystem* system = nullptr;
  LinearSolver* linear_solver = nullptr;
  bool has_damping = false;
  // Matrix-free (the linear solver accepts an operator): the tangent and its projected form.
  std::unique_ptr<TangentOperator> tangent;
  std::unique_ptr<ProjectedTangent> projected;
  // Assembled: K, B and A in the system's pattern. In the matrix-free mode K and B are only
  // assembled when someone asks for them (stiffness(), damping()), from the state last given.
  mutable SparseMatrix stiffness;
  mutable SparseMatrix damping;  // 0×0 without damping matrices
  SparseMatrix matrix;           // A, kept alive between Factorize and the last Solve
  // Matrix-free: the states K and B were last linearised at, kept for stiffness()/damping()
  // (a copy: the caller may change its state after AssembleStiffness).
  State stiffness_state, damping_state;
  mutable bool stiffness_stale = false, damping_stale = false;

  bool matrix_free() const { return tangent != nullptr; }
};

ImplicitSystem::ImplicitSystem() : impl_(std::make_unique<Impl>()) {}
ImplicitSystem::~ImplicitSystem() = default;

void ImplicitSystem::Initialize(const MechanicalSystem& system, LinearSolver* linear_solver) {
  Impl& impl = *impl_;
  impl.system = &system;
  impl.linear_solver = linear_solver;
  impl.has_damping = system.has_damping_matrix();
  impl.stiffness = SparseMatrix();
  impl.damping = SparseMatrix();
  impl.matrix = SparseMatrix();
  impl.tangent.reset();
  impl.projected.reset();
  if (linear_solver != nullptr && linear_solver->accepts_operator()) {
    impl.tangent = system.CreateTangentOperator();
    impl.projected = std::make_unique<ProjectedTangent>(system, *impl.tangent);
    for (State* copy : {&impl.stiffness_state, &impl.damping_state}) {
      copy->x.setZero(system.num_dofs());
      copy->v.setZero(system.num_dofs());
    }
  } else {
    impl.stiffness = system.CreateMatrix();
    impl.damping = impl.has_damping ? system.CreateMatrix() : SparseMatrix();
    impl.matrix = system.CreateMatrix();
  }
}

void ImplicitSystem::FollowSystemChange(const SystemChange& change) {
  Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);  // Initialize first
  if (impl.matrix_free() && impl.tangent->FollowsSystemChanges()) {
    impl.projected->FollowSystemChange(change);
    for (State* copy : {&impl.stiffness_state, &impl.damping_state}) {
      FollowRemovedBlocks(change, copy->x);
      FollowRemovedBlocks(change, copy->v);
    }
    return;
  }
  // M is read where it is at each Factorize: a change of masses alone changes no matrix here.
  if (!impl.matrix_free() && !change.removes_dofs()) return;
  Initialize(*impl.system, impl.linear_solver);
}

void ImplicitSystem::AssembleStiffness(const State& state) {
  Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);  // Initialize first
  if (impl.matrix_free()) {
    impl.tangent->LinearizeStiffness(state);
    impl.stiffness_state.time = state.time;
    impl.stiffness_state.x = state.x;
    impl.stiffness_state.v = state.v;
    impl.stiffness_stale = true;
  } else {
    impl.system->AssembleStiffness(state, impl.stiffness);
  }
}

void ImplicitSystem::AssembleDamping(const State& state) {
  Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);
  if (!impl.has_damping) return;
  if (impl.matrix_free()) {
    impl.tangent->LinearizeDamping(state);
    impl.damping_state.time = state.time;
    impl.damping_state.x = state.x;
    impl.damping_state.v = state.v;
    impl.damping_stale = true;
  } else {
    impl.system->AssembleDamping(state, impl.damping);
  }
}

const SparseMatrix& ImplicitSystem::stiffness() const {
  const Impl& impl = *impl_;
  if (impl.matrix_free() && impl.stiffness_stale) {
    if (impl.stiffness.rows() == 0) impl.stiffness = impl.system->CreateMatrix();
    impl.system->AssembleStiffness(impl.stiffness_state, impl.stiffness);
    impl.stiffness_stale = false;
  }
  return impl.stiffness;
}

const SparseMatrix& ImplicitSystem::damping() const {
  const Impl& impl = *impl_;
  if (impl.matrix_free() && impl.damping_stale) {
    if (impl.damping.rows() == 0) impl.damping = impl.system->CreateMatrix();
    impl.system->AssembleDamping(impl.damping_state, impl.damping);
    impl.damping_stale = false;
  }
  return impl.damping;
}

void ImplicitSystem::MultiplyMass(const Vector& x, Vector& y) const {
  const Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);
  if (impl.matrix_free())
    impl.tangent->Multiply(1.0, 0.0, 0.0, x, y);
  else
    internal::MultiplyByRows(impl.system->mass(), x, y);
}

void ImplicitSystem::MultiplyStiffness(const Vector& x, Vector& y) const {
  const Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);
  if (impl.matrix_free())
    impl.tangent->Multiply(0.0, 0.0, 1.0, x, y);
  else
    internal::MultiplyByRows(impl.stiffness, x, y);
}

void ImplicitSystem::MultiplyDamping(const Vector& x, Vector& y) const {
  const Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);
  if (!impl.has_damping)
    y.setZero(x.size());
  else if (impl.matrix_free())
    impl.tangent->Multiply(0.0, 1.0, 0.0, x, y);
  else
    internal::MultiplyByRows(impl.damping, x, y);
}

StepResult ImplicitSystem::Factorize(double m, double b, double k) {
  return FactorizeAs(m, b, k, false);
}

StepResult ImplicitSystem::FactorizeIndefinite(double m, double b, double k) {
  return FactorizeAs(m, b, k, true);
}

StepResult ImplicitSystem::FactorizeAs(double m, double b, double k, bool indefinite) {
  Impl& impl = *impl_;
  FLUXION_DEMAND(impl.system != nullptr);
  if (impl.linear_solver == nullptr)
    return StepResult::Failure(
        "the implicit system needs a linear solver and the scene has none (expected "
        "CGLinearSolver or SparseLDLSolver in the solver's node)");
  const MechanicalSystem& system = *impl.system;
  LinearSolveResult factorized;
  if (impl.matrix_free()) {
    impl.projected->SetFactors(m, impl.has_damping ? b : 0.0, k);
    factorized = impl.linear_solver->FactorizeOperator(*impl.projected);
  } else {
    // CombineMatrices skips B when b == 0 or B is null: the same branch, and so the same
    // rounding, as the solvers that called it with their own matrices.
    CombineMatrices(m, system.mass(), b, impl.has_damping ? &impl.damping : nullptr, k,
                    impl.stiffness, impl.matrix);
    system.ProjectMatrix(impl.matrix);
    // An indefinite Newton Jacobian takes the rule of an indefinite mass: any non-zero pivot.
    factorized = indefinite ? impl.linear_solver->FactorizeMass(impl.matrix)
                            : impl.linear_solver->Factorize(impl.matrix);
  }
  if (!factorized.ok && !indefinite && !impl.matrix_free())
    // Which matrix: M and B are positive (semi)definite, but a compressed spring's K has a
    // negative transverse part −(|f|/l)·(I − u·uᵀ). What to change depends on why the springs
    // are compressed (a calm state and a large dt, or a motion already growing, e.g. from
    // dashpots the solver treats explicitly): the caller measures that (scene-runner's advice),
    // not this message.
    return StepResult::Failure(std::move(factorized.message) +
                               ": the step's matrix m·M + b·B + k·K has lost positive "
                               "definiteness to compressed springs");
  if (!factorized.ok) return StepResult::Failure(std::move(factorized.message));
  return StepResult::Ok();
}

StepResult ImplicitSystem::Solve(const Vector& rhs, Vector& solution) {
  FLUXION_DEMAND(impl_->linear_solver != nullptr);  // Factorize succeeded first
  LinearSolveResult solved = impl_->linear_solver->Solve(rhs, solution);
  if (!solved.ok) return StepResult::Failure(std::move(solved.message));
  if (!solved.converged)
    return StepResult::NotConverged(std::move(solved.message), 0, solved.residual);
  return StepResult::Ok();
}

}  // namespace fluxion
