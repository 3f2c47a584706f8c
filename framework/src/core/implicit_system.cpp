#include "fluxion/implicit_system.h"

#include <utility>

#include "fluxion/errors.h"

namespace fluxion {

struct ImplicitSystem::Impl {
  const MechanicalSystem* system = nullptr;
  LinearSolver* linear_solver = nullptr;
  bool has_damping = false;
  SparseMatrix stiffness;
  SparseMatrix damping;  // 0×0 without damping matrices
  SparseMatrix matrix;   // A, kept alive between Factorize and the last Solve
};

ImplicitSystem::ImplicitSystem() : impl_(std::make_unique<Impl>()) {}
ImplicitSystem::~ImplicitSystem() = default;

void ImplicitSystem::Initialize(const MechanicalSystem& system, LinearSolver* linear_solver) {
  impl_->system = &system;
  impl_->linear_solver = linear_solver;
  impl_->has_damping = system.has_damping_matrix();
  impl_->stiffness = system.CreateMatrix();
  impl_->damping = impl_->has_damping ? system.CreateMatrix() : SparseMatrix();
  impl_->matrix = system.CreateMatrix();
}

void ImplicitSystem::AssembleStiffness(const State& state) {
  FLUXION_DEMAND(impl_->system != nullptr);  // Initialize first
  impl_->system->AssembleStiffness(state, impl_->stiffness);
}

void ImplicitSystem::AssembleDamping(const State& state) {
  FLUXION_DEMAND(impl_->system != nullptr);
  if (impl_->has_damping) impl_->system->AssembleDamping(state, impl_->damping);
}

const SparseMatrix& ImplicitSystem::stiffness() const { return impl_->stiffness; }
const SparseMatrix& ImplicitSystem::damping() const { return impl_->damping; }

StepResult ImplicitSystem::Factorize(double m, double b, double k) {
  return FactorizeAs(m, b, k, false);
}

StepResult ImplicitSystem::FactorizeIndefinite(double m, double b, double k) {
  return FactorizeAs(m, b, k, true);
}

StepResult ImplicitSystem::FactorizeAs(double m, double b, double k, bool indefinite) {
  FLUXION_DEMAND(impl_->system != nullptr);
  if (impl_->linear_solver == nullptr)
    return StepResult::Failure(
        "the implicit system needs a linear solver and the scene has none (expected "
        "CGLinearSolver or SparseLDLSolver in the solver's node)");
  // CombineMatrices skips B when b == 0 or B is null: the same branch, and so the same rounding,
  // as the solvers that called it with their own matrices.
  const MechanicalSystem& system = *impl_->system;
  CombineMatrices(m, system.mass(), b, impl_->has_damping ? &impl_->damping : nullptr, k,
                  impl_->stiffness, impl_->matrix);
  system.ProjectMatrix(impl_->matrix);
  // An indefinite Newton Jacobian takes the rule of an indefinite mass: any non-zero pivot.
  LinearSolveResult factorized = indefinite ? impl_->linear_solver->FactorizeMass(impl_->matrix)
                                            : impl_->linear_solver->Factorize(impl_->matrix);
  if (!factorized.ok && !indefinite)
    // Why a step's matrix stops being positive definite, and what the scene can change: M and
    // B are positive (semi)definite, but a compressed spring's K has a negative transverse part
    // −(|f|/l)·(I − u·uᵀ), which k ∝ dt² scales up until it outweighs m·M.
    return StepResult::Failure(
        std::move(factorized.message) +
        ": springs compressed in this step outweigh the mass in m·M + b·B + k·K (k grows as "
        "dt²); a smaller dt, or mass damping (rayleighMass), keeps it positive definite");
  if (!factorized.ok) return StepResult::Failure(std::move(factorized.message));
  return StepResult::Ok();
}

StepResult ImplicitSystem::Solve(const Vector& rhs, Vector& solution) {
  FLUXION_DEMAND(impl_->linear_solver != nullptr);  // Factorize succeeded first
  LinearSolveResult solved = impl_->linear_solver->Solve(rhs, solution);
  if (!solved.ok) return StepResult::Failure(std::move(solved.message));
  if (!solved.converged) return StepResult::NotConverged(std::move(solved.message));
  return StepResult::Ok();
}

}  // namespace fluxion
